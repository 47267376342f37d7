-- Who may issue and revoke API keys and record ledger movements, as one rule: staff through the API,
-- and the service itself, with the service key (service_role) or as the role that owns this project's
-- schema and runs its migrations (`npm run key`, the SQL editor). Spec 5 gives these writes to staff;
-- letting the service make them too is our choice: both roles may already write these tables directly,
-- and the functions keep their rules (the ledger's lock and chain, a key shown once). Until now each
-- had its own guard and they disagreed: issue_api_key and revoke_api_key refused service_role,
-- record_transaction refused the owner.

-- ============================================================================================
-- Grants
-- ============================================================================================
-- service_role runs the guard below from the functions it calls. Nothing in private is executable
-- by public, so usage alone gives it nothing else.
grant usage on schema private to service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- Security invoker, so current_user is the caller. The roles let through are named: any other role
-- (a custom JWT role, one granted authenticated) must be staff. The schema's owner (or a member of it,
-- superusers included) passes only outside an API request: inside a security-definer function that
-- it owns, called for a request, current_user is the owner too, and the caller must still be staff.
create function private.require_staff(action text) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if current_user <> 'service_role'
     and not (
       coalesce(pg_catalog.current_setting('request.jwt.claims', true), '') = ''
       and coalesce(pg_catalog.pg_has_role(
         current_user, (select n.nspowner from pg_catalog.pg_namespace n where n.nspname = 'private'), 'member'), false))
     and not (select private.is_staff()) then
    raise exception 'only staff may %', action using errcode = '42501';
  end if;
end;
$$;
comment on function private.require_staff(text) is
  'Raises 42501 unless the caller is staff, service_role, or (outside an API request) the owner of this '
  'project''s schema or a member of it.';
revoke execute on function private.require_staff(text) from public, anon;
grant execute on function private.require_staff(text) to authenticated, service_role;

-- Kept because issue_api_key and revoke_api_key call it by name; the rule is require_staff's.
create or replace function private.require_key_manager() returns void
language plpgsql stable
set search_path = ''
as $$
begin
  perform private.require_staff('manage api keys');
end;
$$;
grant execute on function private.require_key_manager() to service_role;
grant execute on function public.issue_api_key(uuid, text) to service_role;
grant execute on function public.revoke_api_key(uuid) to service_role;
comment on function public.issue_api_key(uuid, text) is
  'Staff or the service itself: creates an API key for a client and returns it; the key is not stored and '
  'cannot be shown again.';
comment on function public.revoke_api_key(uuid) is
  'Staff or the service itself: revokes an API key for good; requests with it are refused from the next one on.';

-- ============================================================================================
-- RPC: record_transaction, unchanged but for its guard
-- ============================================================================================
create or replace function public.record_transaction(
  client_id uuid,
  currency_code text,
  type text,
  amount numeric,
  note text default null,
  reference text default null
) returns public.transaction
language plpgsql
security invoker
set search_path = ''
as $$
declare
  wallet_id uuid;
  balance numeric;
  recorded public.transaction;
begin
  perform private.require_staff('record transactions');

  if client_id is null or currency_code is null or type is null or amount is null then
    raise exception 'client_id, currency_code, type and amount are required' using errcode = '22023';
  end if;
  if type not in ('deposit', 'withdraw', 'adjustment', 'bet', 'win', 'fee') then
    raise exception 'type must be one of deposit, withdraw, adjustment, bet, win, fee'
      using errcode = '22023';
  end if;
  if amount = 0 or abs(amount) >= 1e16 then
    raise exception 'amount must be non-zero and below 10^16 in absolute value' using errcode = '22023';
  end if;
  if amount <> round(amount, 4) then
    raise exception 'amount must have at most 4 decimal places' using errcode = '22023';
  end if;
  if (type in ('deposit', 'win') and amount < 0) or (type in ('withdraw', 'bet', 'fee') and amount > 0) then
    raise exception 'a % must have a % amount', type, case when amount < 0 then 'positive' else 'negative' end
      using errcode = '22023';
  end if;

  -- Serialises every movement of this wallet: the balance read here is the one updated below.
  select w.id, w.balance into wallet_id, balance
  from public.wallet w
  where w.client_id = record_transaction.client_id
    and w.currency_code = record_transaction.currency_code
  for update;
  if not found then
    if not exists (select 1 from public.currency c where c.code = record_transaction.currency_code) then
      raise exception 'unknown currency %', currency_code using errcode = '23503';
    end if;
    raise exception 'the client has no % wallet', currency_code using errcode = '23503';
  end if;

  -- Under the lock, a concurrent first attempt has either committed (found here) or not started.
  if reference is not null then
    select t.* into recorded
    from public.transaction t
    where t.client_id = record_transaction.client_id
      and t.reference = record_transaction.reference;
    if found then
      if (recorded.currency_code, recorded.type, recorded.amount, recorded.note)
         is distinct from (currency_code, type, amount, note) then
        raise exception 'reference % was already used for a different transaction', reference
          using errcode = '23505', constraint = 'transaction_client_id_reference_key';
      end if;
      return recorded;
    end if;
  end if;

  if balance + amount < 0 then
    raise exception 'insufficient funds'
      using errcode = '23514', constraint = 'wallet_balance_nonnegative',
            detail = format('The %s balance is %s; the %s needs %s.', currency_code, balance, type, -amount);
  end if;
  if balance + amount >= 1e16 then
    raise exception 'the balance would exceed its maximum' using errcode = '22003';
  end if;

  update public.wallet w
  set balance = w.balance + record_transaction.amount
  where w.id = wallet_id
  returning w.balance into balance;

  insert into public.transaction as t (client_id, type, currency_code, amount, balance_after, note, reference)
  values (record_transaction.client_id, record_transaction.type, record_transaction.currency_code,
          record_transaction.amount, balance, record_transaction.note, record_transaction.reference)
  returning t.* into recorded;
  return recorded;
end;
$$;
comment on function public.record_transaction(uuid, text, text, numeric, text, text) is
  'Staff or the service itself: records a transaction and moves the wallet balance by its signed amount '
  'in one step. Refuses an overdraw (23514 insufficient funds); a repeated reference returns the first '
  'transaction.';
