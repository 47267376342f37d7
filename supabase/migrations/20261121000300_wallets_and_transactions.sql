-- Wallets and transactions: a client's balances (one wallet per currency), its money movements,
-- and the ledger function that records a movement and moves its wallet's balance in the same step,
-- so a wallet's balance is always the sum of its transactions' amounts. Clients read their own;
-- only staff (and the service itself) write (spec 5).
--
-- Sign convention: `amount` is the signed effect on the balance. deposit and win credit (> 0);
-- withdraw, bet and fee debit (< 0); an adjustment goes either way but is never 0.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.wallet (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.users (id) on delete cascade,
  currency_code text not null references public.currency (code),
  balance numeric(20, 4) not null default 0,
  is_primary boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint wallet_client_id_currency_code_key unique (client_id, currency_code),
  constraint wallet_balance_nonnegative check (balance >= 0)
);
comment on table public.wallet is 'A client''s balance in one currency; at most one wallet per client and currency.';
create index wallet_currency_code_idx on public.wallet (currency_code);
-- A client has at most one primary wallet.
create unique index wallet_one_primary_per_client on public.wallet (client_id) where is_primary;

create table public.transaction (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.users (id) on delete cascade,
  type text not null,
  currency_code text not null references public.currency (code),
  amount numeric(20, 4) not null,
  balance_after numeric(20, 4),
  note text,
  created_by uuid default private.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  reference text,
  ledger_seq bigint generated always as identity,
  constraint transaction_type_check
    check (type in ('deposit', 'withdraw', 'adjustment', 'bet', 'win', 'fee')),
  constraint transaction_note_length check (char_length(note) <= 1000),
  constraint transaction_amount_sign check (
    case
      when type in ('deposit', 'win') then amount > 0
      when type in ('withdraw', 'bet', 'fee') then amount < 0
      else amount <> 0
    end),
  constraint transaction_balance_after_nonnegative check (balance_after >= 0),
  constraint transaction_reference_length check (char_length(reference) between 1 and 128)
);
comment on table public.transaction is 'Money movements of a client; created_by defaults to the signed-in caller.';
comment on column public.transaction.amount is
  'Signed effect on the balance: deposit and win > 0; withdraw, bet and fee < 0; adjustment either, never 0.';
comment on column public.transaction.reference is
  'The caller''s id for this movement (like a seamless-wallet transaction id), unique per client: '
  'a retry carrying it returns the first transaction instead of applying twice.';
comment on column public.transaction.ledger_seq is
  'Order of recording. record_transaction assigns it under the wallet''s row lock, so within one '
  'wallet it orders the balance_after chain (created_at is the transaction start, not the commit).';
create index transaction_client_id_created_at_idx on public.transaction (client_id, created_at desc);
create index transaction_created_at_idx on public.transaction (created_at desc);
create index transaction_currency_code_idx on public.transaction (currency_code);
create index transaction_created_by_idx on public.transaction (created_by);
-- The read policy's client_id on its own: deduplicated, it is far smaller than the
-- (client_id, created_at) index, so a staff count under the policy is an index-only scan as small
-- as the one Postgres picks with RLS bypassed, not a scan of the table.
create index transaction_client_id_idx on public.transaction (client_id);
-- A retry's lookup, and the guarantee that a reference applies once even across connections.
create unique index transaction_client_id_reference_key
  on public.transaction (client_id, reference) where reference is not null;
-- A wallet's statement: its transactions in the order they moved the balance.
create index transaction_wallet_ledger_idx
  on public.transaction (client_id, currency_code, ledger_seq);

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.wallet enable row level security;
alter table public.transaction enable row level security;

-- ============================================================================================
-- Grants
-- ============================================================================================
grant select on public.wallet, public.transaction to authenticated;
grant select, insert, update, delete on public.wallet, public.transaction to staff;
grant all on public.wallet, public.transaction to service_role;

-- ============================================================================================
-- Triggers
-- ============================================================================================
create trigger wallet_set_updated_at
  before update on public.wallet
  for each row execute function private.set_updated_at();

-- ============================================================================================
-- Functions (RPC)
-- ============================================================================================
-- security invoker: staff already pass the wallet and transaction policies, and RLS stays the
-- authority; require_staff only turns anyone else's attempt into a clear 42501.
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
revoke execute on function public.record_transaction(uuid, text, text, numeric, text, text) from public, anon;
grant execute on function public.record_transaction(uuid, text, text, numeric, text, text)
  to authenticated, staff, service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own wallets"
  on public.wallet for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all wallets"
  on public.wallet for select to staff
  using (true);

create policy "staff create wallets"
  on public.wallet for insert to staff
  with check ((select private.is_staff()));

create policy "staff update wallets"
  on public.wallet for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete wallets"
  on public.wallet for delete to staff
  using ((select private.is_staff()));

create policy "clients read their own transactions"
  on public.transaction for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all transactions"
  on public.transaction for select to staff
  using (true);

create policy "staff create transactions"
  on public.transaction for insert to staff
  with check ((select private.is_staff()));

create policy "staff update transactions"
  on public.transaction for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete transactions"
  on public.transaction for delete to staff
  using ((select private.is_staff()));
