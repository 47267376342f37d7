-- Wallet ledger: one staff-only RPC that records a transaction and moves its wallet's balance in
-- the same step, so a wallet's balance is always the sum of its transactions' amounts.
--
-- Sign convention: `amount` is the signed effect on the balance. deposit and win credit (> 0);
-- withdraw, bet and fee debit (< 0); an adjustment goes either way but is never 0.

-- ============================================================================================
-- Tables
-- ============================================================================================
alter table public.transaction
  add column reference text,
  add column ledger_seq bigint generated always as identity,
  add constraint transaction_amount_sign check (
    case
      when type in ('deposit', 'win') then amount > 0
      when type in ('withdraw', 'bet', 'fee') then amount < 0
      else amount <> 0
    end),
  add constraint transaction_balance_after_nonnegative check (balance_after >= 0),
  add constraint transaction_reference_length check (char_length(reference) between 1 and 128);

comment on column public.transaction.amount is
  'Signed effect on the balance: deposit and win > 0; withdraw, bet and fee < 0; adjustment either, never 0.';
comment on column public.transaction.reference is
  'The caller''s id for this movement (like a seamless-wallet transaction id), unique per client: '
  'a retry carrying it returns the first transaction instead of applying twice.';
comment on column public.transaction.ledger_seq is
  'Order of recording. record_transaction assigns it under the wallet''s row lock, so within one '
  'wallet it orders the balance_after chain (created_at is the transaction start, not the commit).';

-- A retry's lookup, and the guarantee that a reference applies once even across connections.
create unique index transaction_client_id_reference_key
  on public.transaction (client_id, reference) where reference is not null;
-- A wallet's statement: its transactions in the order they moved the balance.
create index transaction_wallet_ledger_idx
  on public.transaction (client_id, currency_code, ledger_seq);

-- ============================================================================================
-- Functions (RPC)
-- ============================================================================================
-- security invoker: staff already pass the wallet and transaction policies, and RLS stays the
-- authority; the explicit staff check only turns a client's attempt into a clear 42501.
create function public.record_transaction(
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
  -- The service itself (service_role, no account) may record too. Two statements because
  -- service_role has no usage on schema private, which is checked when a statement is planned.
  if current_user <> 'service_role' then
    if not (select private.is_staff()) then
      raise exception 'only staff may record transactions' using errcode = '42501';
    end if;
  end if;

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
  'Staff only: records a transaction and moves the wallet balance by its signed amount in one step. '
  'Refuses an overdraw (23514 insufficient funds); a repeated reference returns the first transaction.';
revoke execute on function public.record_transaction(uuid, text, text, numeric, text, text) from public, anon;
grant execute on function public.record_transaction(uuid, text, text, numeric, text, text)
  to authenticated, service_role;
