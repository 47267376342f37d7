-- API keys: how operators authenticate to the API (spec 2.5, 5), and their lifecycle (spec 5.3).
-- Staff issue and revoke keys over RPC, the service's operators with `npm run key`. A key is
-- `cgs_live_` or `cgs_test_` and 43 base64url characters (32 bytes from pgcrypto's CSPRNG, 256 bits);
-- only its SHA-256 is kept, so it is shown once, when issued. Clients read their own keys' metadata.
-- A live key acts on live records, a test key on test ones (`livemode` on every record the API
-- creates, as Stripe does): each mode's records are invisible to the other's keys.
--
-- A revoked key never works again: revoke_api_key promises "for good", and a leaked key is revoked
-- precisely so it cannot, but staff (who may write api_key directly, spec 5) could otherwise bring
-- one back: set the row active again, move its hash onto another key, or delete the row and insert
-- the hash anew. So a revoked row keeps everything but its label, and the hash of every key ever
-- revoked is remembered, so no key row may carry it again. Suspension is the reversible state.

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
  livemode boolean not null default true,
  last_used_at timestamptz,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  constraint api_key_key_hash_key unique (key_hash),
  constraint api_key_key_hash_format check (key_hash ~ '^[0-9a-f]{64}$'),
  constraint api_key_key_prefix_length check (char_length(key_prefix) between 4 and 32),
  constraint api_key_label_length check (char_length(label) between 1 and 100),
  constraint api_key_status_check check (status in ('active', 'suspended', 'revoked')),
  constraint api_key_revoked_at_with_status check ((status = 'revoked') = (revoked_at is not null)),
  -- The mode is readable from the key, so an operator can tell which one a leaked key was.
  constraint api_key_prefix_names_mode
    check (key_prefix like case when livemode then 'cgs\_live\_%' else 'cgs\_test\_%' end)
);
comment on table public.api_key is
  'Operator API keys. key_hash is the lowercase hex SHA-256 of the whole key; the key itself is never stored.';
comment on column public.api_key.key_prefix is 'The first characters of the key, shown in dashboards to recognise it.';
comment on column public.api_key.livemode is 'true: a cgs_live_ key, acting on live records; false: cgs_test_, on test records.';
create index api_key_client_id_idx on public.api_key (client_id);

create table private.revoked_api_key (
  key_hash text primary key,
  revoked_at timestamptz not null
);
comment on table private.revoked_api_key is
  'The hash of every API key ever revoked: kept when the key row is deleted, refused on any key row.';

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.api_key enable row level security;
-- No policy on revoked_api_key: nobody reaches it through the API.
alter table private.revoked_api_key enable row level security;

-- ============================================================================================
-- Grants
-- ============================================================================================
grant select on public.api_key to authenticated;
grant select, insert, update, delete on public.api_key to staff;
grant all on public.api_key to service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
create function private.keep_revoked() returns trigger
language plpgsql
-- security definer: staff write api_key as the staff role, which has no rights on
-- private.revoked_api_key.
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and old.status = 'revoked'
     and (new.status, new.revoked_at, new.key_hash, new.key_prefix, new.client_id, new.livemode)
         is distinct from (old.status, old.revoked_at, old.key_hash, old.key_prefix, old.client_id, old.livemode) then
    raise exception 'a revoked api key stays revoked: only its label may change' using errcode = '23514';
  end if;
  if (tg_op = 'INSERT' or new.key_hash is distinct from old.key_hash)
     and exists (select 1 from private.revoked_api_key r where r.key_hash = new.key_hash) then
    raise exception 'this api key was revoked and can never be used again: issue a new one'
      using errcode = '23514';
  end if;
  -- Before the row's own checks: a row they refuse (revoked without revoked_at) takes this insert
  -- back with it.
  if new.status = 'revoked' and (tg_op = 'INSERT' or old.status <> 'revoked') then
    insert into private.revoked_api_key (key_hash, revoked_at)
    values (new.key_hash, coalesce(new.revoked_at, now()))
    on conflict do nothing;
  end if;
  return new;
end;
$$;
revoke execute on function private.keep_revoked() from public, anon, authenticated;

-- The one definition of "this key authenticates": the key is active and its owner's account is
-- active. Callers pass the SHA-256 of the key, never the key: the lookup is an index probe on a
-- hash, so how long it takes does not depend on how close a guess is to a real key.
-- Security invoker: the v3 endpoints call it (and the functions that embed it) as the database owner.
create function private.authenticate_api_key(key_hash text)
returns table (key_id uuid, client_id uuid, livemode boolean)
-- plpgsql, not sql: every v3 request calls it, and a SQL function with its own search_path is
-- planned anew on each call, where plpgsql keeps its plan per connection.
language plpgsql stable
-- At most one row (key_hash is unique): what the planner should expect of it in a join.
rows 1
set search_path = ''
as $$
begin
  return query
    select k.id, k.client_id, k.livemode
    from public.api_key k
    join public.profile p on p.id = k.client_id and p.status = 'active'
    where k.key_hash = authenticate_api_key.key_hash and k.status = 'active';
end;
$$;
comment on function private.authenticate_api_key is
  'The key (by SHA-256), its client and its mode when the key and its owner are active; no row otherwise.';
revoke execute on function private.authenticate_api_key from public, anon, authenticated, service_role;

-- ============================================================================================
-- Triggers
-- ============================================================================================
create trigger api_key_keep_revoked
  before insert or update on public.api_key
  for each row execute function private.keep_revoked();

-- ============================================================================================
-- Functions (RPC: security invoker, so api_key's own policies apply to the caller too)
-- ============================================================================================
-- Staff, or the service itself (private.require_staff); everyone else: 42501.
create function public.issue_api_key(client_id uuid, label text default 'Default', livemode boolean default true)
returns table (id uuid, key text, key_prefix text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
declare
  new_key text := case when coalesce(issue_api_key.livemode, true) then 'cgs_live_' else 'cgs_test_' end
    || translate(rtrim(encode(extensions.gen_random_bytes(32), 'base64'), '='), '+/', '-_');
  new_id uuid;
begin
  perform private.require_staff('manage api keys');
  if not exists (
    select 1 from public.user_role ur
    where ur.user_id = issue_api_key.client_id and ur.role = 'client'::public.app_role
  ) then
    raise exception 'no client account %', issue_api_key.client_id using errcode = '23503';
  end if;
  insert into public.api_key (client_id, label, key_prefix, key_hash, livemode)
  values (issue_api_key.client_id, coalesce(issue_api_key.label, 'Default'), left(new_key, 16),
          encode(extensions.digest(new_key, 'sha256'), 'hex'), coalesce(issue_api_key.livemode, true))
  returning api_key.id into new_id;
  return query select new_id, new_key, left(new_key, 16);
end;
$$;
comment on function public.issue_api_key(uuid, text, boolean) is
  'Staff or the service itself: creates an API key for a client (a test key with livemode false) and '
  'returns it; the key is not stored and cannot be shown again.';
revoke execute on function public.issue_api_key(uuid, text, boolean) from public, anon;
grant execute on function public.issue_api_key(uuid, text, boolean) to authenticated, staff, service_role;

-- Idempotent: revoking a revoked key keeps its first revoked_at. Takes effect on the next request.
create function public.revoke_api_key(id uuid)
returns table (key_prefix text, status text, revoked_at timestamptz)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_staff('manage api keys');
  return query
    update public.api_key k
    set status = 'revoked', revoked_at = coalesce(k.revoked_at, now())
    where k.id = revoke_api_key.id
    returning k.key_prefix, k.status, k.revoked_at;
  if not found then
    raise exception 'no api key %', revoke_api_key.id using errcode = 'P0002';
  end if;
end;
$$;
comment on function public.revoke_api_key(uuid) is
  'Staff or the service itself: revokes an API key for good; requests with it are refused from the next one on.';
revoke execute on function public.revoke_api_key(uuid) from public, anon;
grant execute on function public.revoke_api_key(uuid) to authenticated, staff, service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own api keys"
  on public.api_key for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all api keys"
  on public.api_key for select to staff
  using (true);

create policy "staff create api keys"
  on public.api_key for insert to staff
  with check ((select private.is_staff()));

create policy "staff update api keys"
  on public.api_key for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete api keys"
  on public.api_key for delete to staff
  using ((select private.is_staff()));
