-- A revoked API key never works again. revoke_api_key promises "for good", and a leaked key is
-- revoked precisely so it cannot, but staff (who may write api_key directly, spec 5) could bring
-- one back: set the row active again, move its hash onto another key, or delete the row and insert
-- the hash anew. Now a revoked row keeps everything but its label, and the hash of every key ever
-- revoked is remembered, so no key row may carry it again. Suspension is the reversible state.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table private.revoked_api_key (
  key_hash text primary key,
  revoked_at timestamptz not null
);
comment on table private.revoked_api_key is
  'The hash of every API key ever revoked: kept when the key row is deleted, refused on any key row.';

-- Keys revoked before this migration.
insert into private.revoked_api_key (key_hash, revoked_at)
select k.key_hash, k.revoked_at from public.api_key k where k.status = 'revoked'
on conflict do nothing;

-- ============================================================================================
-- Row level security (no policy: nobody reaches it through the API)
-- ============================================================================================
alter table private.revoked_api_key enable row level security;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
create function private.keep_revoked() returns trigger
language plpgsql
-- security definer: staff write api_key as authenticated, which has no rights on
-- private.revoked_api_key.
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and old.status = 'revoked'
     and (new.status, new.revoked_at, new.key_hash, new.key_prefix, new.client_id)
         is distinct from (old.status, old.revoked_at, old.key_hash, old.key_prefix, old.client_id) then
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

-- ============================================================================================
-- Triggers
-- ============================================================================================
create trigger api_key_keep_revoked
  before insert or update on public.api_key
  for each row execute function private.keep_revoked();
