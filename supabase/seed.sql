-- Demo content for a local database: never run in production (reference data lives in the
-- migrations). Three demo accounts, password "demo-password" for each:
--   admin@demo.test (admin), manager@demo.test (manager), client@demo.test (client)
-- The token columns are '' as Supabase Auth writes them: it cannot read NULL there, and sign-in
-- would fail with "Database error querying schema" (supabase/auth#1940).
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        confirmation_token, recovery_token, email_change_token_new, email_change,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values
  ('00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-000000000001', 'authenticated',
   'authenticated', 'admin@demo.test', extensions.crypt('demo-password', extensions.gen_salt('bf')),
   now(), '', '', '', '', '{"provider":"email","providers":["email"]}', '{"display_name":"Demo Admin","username":"demo-admin"}', now(), now()),
  ('00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-000000000002', 'authenticated',
   'authenticated', 'manager@demo.test', extensions.crypt('demo-password', extensions.gen_salt('bf')),
   now(), '', '', '', '', '{"provider":"email","providers":["email"]}', '{"display_name":"Demo Manager","username":"demo-manager"}', now(), now()),
  ('00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-000000000003', 'authenticated',
   'authenticated', 'client@demo.test', extensions.crypt('demo-password', extensions.gen_salt('bf')),
   now(), '', '', '', '', '{"provider":"email","providers":["email"]}', '{"display_name":"Demo Casino","username":"demo-casino"}', now(), now());

-- Sign-up made each of them a client; the first two are also staff.
insert into public.user_role (user_id, role) values
  ('a0000000-0000-4000-8000-000000000001', 'admin'),
  ('a0000000-0000-4000-8000-000000000002', 'manager');

insert into public.wallet (client_id, currency_code, balance, is_primary) values
  ('a0000000-0000-4000-8000-000000000003', 'USD', 2500.0000, true),
  ('a0000000-0000-4000-8000-000000000003', 'EUR', 1200.5000, false);

insert into public.transaction (client_id, type, currency_code, amount, balance_after, note, created_by) values
  ('a0000000-0000-4000-8000-000000000003', 'deposit', 'USD', 2500.0000, 2500.0000, 'Opening deposit',
   'a0000000-0000-4000-8000-000000000001'),
  ('a0000000-0000-4000-8000-000000000003', 'deposit', 'EUR', 1200.5000, 1200.5000, 'Opening deposit',
   'a0000000-0000-4000-8000-000000000001');

insert into public.support_ticket (id, client_id, subject, priority, assigned_to) values
  ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003',
   'Enable live casino games for our EUR market', 'normal', 'a0000000-0000-4000-8000-000000000002');

insert into public.support_ticket_message (ticket_id, author_id, body) values
  ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003',
   'Hello, could you enable Evolution''s live tables for our EUR players?'),
  ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002',
   'Of course: they are enabled for your account from today.');

-- A demo API key for the demo client, so a first curl works (npm start prints it). Obviously fake
-- and demo-only: real keys come from `npm run key -- issue` or issue_api_key() and are never stored.
insert into public.api_key (client_id, label, key_prefix, key_hash) values
  ('a0000000-0000-4000-8000-000000000003', 'Demo', 'cgs_live_DEMO-ke',
   encode(extensions.digest('cgs_live_DEMO-key-for-local-use-only-000000000000000', 'sha256'), 'hex'));
