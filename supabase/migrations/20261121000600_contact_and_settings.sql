-- Contact form submissions (anyone may send one, only staff read them) and the back office's
-- key/value settings (staff only), spec 2.10, 2.11, 5.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.contact_submission (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  email text not null,
  company text,
  phone text,
  messaging_handle text,
  message text not null,
  source text not null default 'contact',
  status text not null default 'new',
  created_at timestamptz not null default now(),
  -- Anonymous callers write here: every field is bounded so no one stores megabytes.
  constraint contact_submission_name_length check (char_length(btrim(name)) between 1 and 200),
  constraint contact_submission_email_format
    check (char_length(email) <= 320 and email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  constraint contact_submission_company_length check (char_length(company) <= 200),
  constraint contact_submission_phone_format check (phone ~ '^[0-9+() .-]{3,40}$'),
  constraint contact_submission_messaging_handle_length check (char_length(messaging_handle) <= 100),
  constraint contact_submission_message_length check (char_length(btrim(message)) between 1 and 5000),
  constraint contact_submission_source_format check (source ~ '^[a-z][a-z0-9_-]{0,31}$'),
  constraint contact_submission_status_check check (status in ('new', 'in_progress', 'handled', 'spam'))
);
comment on table public.contact_submission is
  'Contact form messages from visitors; created by anyone as new, read and updated by staff only.';
create index contact_submission_created_at_idx on public.contact_submission (created_at desc);

create table public.app_setting (
  key text primary key,
  value jsonb not null default '{}'::jsonb,
  updated_at timestamptz not null default now(),
  constraint app_setting_key_format check (key ~ '^[a-z][a-z0-9_.-]{0,63}$')
);
comment on table public.app_setting is
  'Back-office settings; updated_at is set by whoever writes, not refreshed automatically (spec 2.11).';

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.contact_submission enable row level security;
alter table public.app_setting enable row level security;

-- ============================================================================================
-- Grants
-- ============================================================================================
-- Visitors choose what they say, not the id, the status or the time: column-level insert.
grant insert (name, email, company, phone, messaging_handle, message, source)
  on public.contact_submission to anon, authenticated, staff;
grant select, update on public.contact_submission to staff;
grant all on public.contact_submission to service_role;
grant select, insert, update, delete on public.app_setting to staff;
grant all on public.app_setting to service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Also holds where the older default grants give every column: new, and dated now.
create policy "anyone sends contact messages as new"
  on public.contact_submission for insert to anon, authenticated, staff
  with check (status = 'new' and created_at = now());

create policy "staff read contact messages"
  on public.contact_submission for select to staff
  using (true);

create policy "staff update contact messages"
  on public.contact_submission for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff read settings"
  on public.app_setting for select to staff
  using (true);

create policy "staff create settings"
  on public.app_setting for insert to staff
  with check ((select private.is_staff()));

create policy "staff update settings"
  on public.app_setting for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete settings"
  on public.app_setting for delete to staff
  using ((select private.is_staff()));

-- ============================================================================================
-- Reference data
-- ============================================================================================
insert into public.app_setting (key, value) values
  ('messaging', jsonb_build_object('chat_id', '', 'handle', '@casino_gaming_support')),
  ('brand', jsonb_build_object('name', 'Casino Gaming', 'tagline', 'One API for every game, every market'));
