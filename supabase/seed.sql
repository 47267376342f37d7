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
-- Its test key, and a test player with a test balance, so a whole round can be played in test mode.
insert into public.api_key (client_id, label, key_prefix, key_hash, livemode) values
  ('a0000000-0000-4000-8000-000000000003', 'Demo (test)', 'cgs_test_DEMO-ke',
   encode(extensions.digest('cgs_test_DEMO-key-for-local-use-only-000000000000000', 'sha256'), 'hex'), false);
insert into public.sandbox_player (client_id, player_id, currency_code, balance) values
  ('a0000000-0000-4000-8000-000000000003', 'player-1', 'EUR', 1000);

-- A demo catalogue: 26 games for each of the 12 providers (312), for local runs and the sandbox. Names
-- and codes are generated from two word lists (no real titles, no art: thumbnails point at a
-- placeholder host), and every field varies as a real catalogue's does. One game has a fixed code,
-- pragmatic-play:vs20olympgate, which the README's examples launch. Production catalogues are
-- imported, never seeded.
with words(adjectives, nouns) as (
  values (
    array['Golden', 'Wild', 'Mystic', 'Lucky', 'Royal', 'Frozen', 'Blazing', 'Ancient', 'Cosmic', 'Savage',
          'Sweet', 'Dragon''s', 'Pirate''s', 'Jungle', 'Neon', 'Viking', 'Aztec', 'Pharaoh''s', 'Crystal',
          'Thunder', 'Midnight', 'Samurai', 'Emerald', 'Sugar', 'Olympian', 'Safari'],
    array['Fortune', 'Reels', 'Riches', 'Quest', 'Treasure', 'Legends', 'Spins', 'Gems', 'Harvest', 'Kingdom',
          'Rush', 'Vault', 'Storm', 'Bonanza', 'Empire', 'Fruits', 'Tiger', 'Phoenix', 'Wolves', 'Gates',
          'Jackpot', 'Nights', 'Voyage', 'Bounty', 'Temple', 'Crown'])
), generated as (
  select gp.id as provider_id, gp.slug, gp.sort_order as p, n,
         -- 7 and 26 share no factor, so each provider's 26 adjectives (and so names) are distinct.
         w.adjectives[(7 * n + 3 * gp.sort_order) % 26 + 1] || ' ' || w.nouns[(11 * n + 5 * gp.sort_order) % 26 + 1] as name
  from public.game_provider gp cross join generate_series(1, 26) n cross join words w
  where gp.sort_order between 1 and 12
)
insert into public.game (provider_id, code, name, category, status, rtp, volatility, features, platforms,
                         thumbnail_url, released_on, currencies, restricted_countries, demo)
select provider_id, code, case when code = 'vs20olympgate' then 'Olympian Gates' else name end, category,
       case when n % 13 = 0 then 'maintenance' else 'active' end,
       94 + ((37 * n + 13 * p) % 300) / 100.0,
       (array['low', 'medium', 'high', 'very_high'])[(n + p) % 4 + 1],
       case when category in ('slots', 'jackpot') then array_remove(array[
         'free_spins', 'autoplay', 'turbo_spin',
         case when n % 3 = 0 then 'bonus_buy' end,
         case when n % 7 = 0 then 'megaways' end,
         case when n % 5 = 0 then 'multipliers' end,
         case when category = 'jackpot' then 'jackpot' end], null)
       else array['autoplay'] end,
       case when category = 'live_casino' and n % 4 = 0 then array['desktop'] else array['desktop', 'mobile'] end,
       'https://cdn.cgs.example/thumbnails/' || slug || '/' || code || '.png',
       date '2018-01-15' + (97 * n + 31 * p) % 2800,
       case when n % 10 = 0 then array['EUR', 'GBP', 'USD'] else '{}' end,
       case when n % 11 = 0 then array['FR', 'US'] when n % 6 = 0 then array['US'] else '{}' end,
       category not in ('live_casino', 'game_show') and n % 8 <> 0
from (
  select g.*,
         case when slug = 'pragmatic-play' and n = 1 then 'vs20olympgate'
              else lower(regexp_replace(name, '[^A-Za-z0-9]', '', 'g')) end as code,
         case slug
           when 'evolution' then (array['live_casino', 'game_show', 'table_games'])[n % 3 + 1]
           when 'spribe' then (array['crash', 'instant'])[n % 2 + 1]
           when 'hacksaw-gaming' then case when n % 5 = 0 then 'scratch' else 'slots' end
           when 'games-global' then case when n % 4 = 0 then 'jackpot' else 'slots' end
           when 'playtech' then (array['slots', 'slots', 'live_casino', 'table_games'])[n % 4 + 1]
           else case when n % 9 = 0 then 'table_games' else 'slots' end
         end as category
  from generated g
) games;

-- Where the demo catalogue is certified (compliance): every provider in Malta and Curaçao, most in
-- Great Britain and Sweden, a few in Ontario; one game of each provider certified only in Malta.
update public.game_provider
set jurisdictions = case
  when slug in ('pragmatic-play', 'evolution', 'playtech') then '{CW,GB,MT,ON,SE}'::text[]
  when slug in ('spribe', 'hacksaw-gaming') then '{CW,MT}'::text[]
  else '{CW,GB,MT,SE}'::text[]
end;
update public.game g set jurisdictions = '{MT}'
where g.code = (select min(o.code) from public.game o where o.provider_id = g.provider_id and o.code <> 'vs20olympgate');

-- Free rounds (demo): about two thirds of the slots and jackpot games support them, with stakes in
-- the currencies they play (EUR, GBP and USD when they list none). Pragmatic Play's pay a grant's
-- winnings in one sum at its end (its end-of-bonus win); the others credit each round's win. Swipe
-- Games-like limits for Hacksaw (99 rounds, 14 days), 100 rounds and 30 days elsewhere.
insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
select g.id,
       case when gp.slug = 'pragmatic-play' then 'lump_sum' else 'per_round' end,
       case when gp.slug = 'hacksaw-gaming' then 99 else 100 end,
       case when gp.slug = 'hacksaw-gaming' then 14 else 30 end,
       (select jsonb_object_agg(c, '[0.1, 0.2, 0.5, 1]'::jsonb)
        from unnest(case when cardinality(g.currencies) > 0 then g.currencies else array['EUR', 'GBP', 'USD'] end) c)
from public.game g
join public.game_provider gp on gp.id = g.provider_id
where not gp.test_only and g.category in ('slots', 'jackpot')
  and (g.code = 'vs20olympgate' or get_byte(decode(md5(g.code), 'hex'), 0) % 3 <> 0);
