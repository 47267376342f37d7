-- A revoked API key stays revoked. revoke_api_key promises "for good", and a leaked key is revoked
-- precisely so it can never work again, but a staff update (status back to active, revoked_at
-- cleared) passed both the policy and the table's check. Suspension is the reversible state.

-- ============================================================================================
-- Helper functions
-- ============================================================================================
create function private.keep_revoked() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.status = 'revoked' and (new.status <> 'revoked' or new.revoked_at is distinct from old.revoked_at) then
    raise exception 'a revoked api key stays revoked; issue a new key instead'
      using errcode = '23514', constraint = 'api_key_revoked_for_good';
  end if;
  return new;
end;
$$;
revoke execute on function private.keep_revoked() from public, anon, authenticated;

-- ============================================================================================
-- Triggers
-- ============================================================================================
create trigger api_key_keep_revoked
  before update of status, revoked_at on public.api_key
  for each row execute function private.keep_revoked();
