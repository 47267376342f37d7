-- API key lifecycle (spec 5.3): staff issue and revoke operator keys over RPC, the service's
-- operators with `npm run key`. A key is `cgs_live_` and 43 base64url characters (32 bytes from
-- pgcrypto's CSPRNG, 256 bits); only its SHA-256 is kept, so it is shown once, when issued.

-- ============================================================================================
-- Helper functions (RPC: security invoker, so api_key's own policies apply to the caller too)
-- ============================================================================================
-- Staff over the API; the database owner (`npm run key`) directly. Everyone else: 42501.
create function private.require_key_manager() returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated', 'service_role') and not (select private.is_staff()) then
    raise exception 'only staff manage api keys' using errcode = '42501';
  end if;
end;
$$;
revoke execute on function private.require_key_manager() from public, anon;
grant execute on function private.require_key_manager() to authenticated;

create function public.issue_api_key(client_id uuid, label text default 'Default')
returns table (id uuid, key text, key_prefix text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
declare
  new_key text := 'cgs_live_'
    || translate(rtrim(encode(extensions.gen_random_bytes(32), 'base64'), '='), '+/', '-_');
  new_id uuid;
begin
  perform private.require_key_manager();
  if not exists (
    select 1 from public.user_role ur
    where ur.user_id = issue_api_key.client_id and ur.role = 'client'::public.app_role
  ) then
    raise exception 'no client account %', issue_api_key.client_id using errcode = '23503';
  end if;
  insert into public.api_key (client_id, label, key_prefix, key_hash)
  values (issue_api_key.client_id, coalesce(issue_api_key.label, 'Default'), left(new_key, 16),
          encode(extensions.digest(new_key, 'sha256'), 'hex'))
  returning api_key.id into new_id;
  return query select new_id, new_key, left(new_key, 16);
end;
$$;
comment on function public.issue_api_key(uuid, text) is
  'Staff: creates an API key for a client and returns it; the key is not stored and cannot be shown again.';
revoke execute on function public.issue_api_key(uuid, text) from public, anon;
grant execute on function public.issue_api_key(uuid, text) to authenticated;

-- Idempotent: revoking a revoked key keeps its first revoked_at. Takes effect on the next request.
create function public.revoke_api_key(id uuid)
returns table (key_prefix text, status text, revoked_at timestamptz)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_key_manager();
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
  'Staff: revokes an API key for good; requests with it are refused from the next one on.';
revoke execute on function public.revoke_api_key(uuid) from public, anon;
grant execute on function public.revoke_api_key(uuid) to authenticated;
