-- API keys: how operators authenticate to the API (spec 2.5, 5). Only a hash is kept; clients
-- read their own keys' metadata, staff manage them.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.api_key (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.users (id) on delete cascade,
  label text not null default 'Default',
  key_prefix text not null,
  key_hash text not null,
  status text not null default 'active',
  last_used_at timestamptz,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  constraint api_key_key_hash_key unique (key_hash),
  constraint api_key_key_hash_format check (key_hash ~ '^[0-9a-f]{64}$'),
  constraint api_key_key_prefix_length check (char_length(key_prefix) between 4 and 32),
  constraint api_key_label_length check (char_length(label) between 1 and 100),
  constraint api_key_status_check check (status in ('active', 'suspended', 'revoked')),
  constraint api_key_revoked_at_with_status check ((status = 'revoked') = (revoked_at is not null))
);
comment on table public.api_key is
  'Operator API keys. key_hash is the lowercase hex SHA-256 of the whole key; the key itself is never stored.';
comment on column public.api_key.key_prefix is 'The first characters of the key, shown in dashboards to recognise it.';
create index api_key_client_id_idx on public.api_key (client_id);

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.api_key enable row level security;

-- ============================================================================================
-- Grants
-- ============================================================================================
grant select, insert, update, delete on public.api_key to authenticated;
grant all on public.api_key to service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own api keys; staff read all"
  on public.api_key for select to authenticated
  using (client_id = (select auth.uid()) or (select private.is_staff()));

create policy "staff create api keys"
  on public.api_key for insert to authenticated
  with check ((select private.is_staff()));

create policy "staff update api keys"
  on public.api_key for update to authenticated
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete api keys"
  on public.api_key for delete to authenticated
  using ((select private.is_staff()));
