-- Wallets and transactions: a client's balances (one wallet per currency) and its money
-- movements. Clients read their own; only staff write (spec 5).

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
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint transaction_type_check
    check (type in ('deposit', 'withdraw', 'adjustment', 'bet', 'win', 'fee')),
  constraint transaction_note_length check (char_length(note) <= 1000)
);
comment on table public.transaction is 'Money movements of a client; created_by defaults to the signed-in caller.';
create index transaction_client_id_created_at_idx on public.transaction (client_id, created_at desc);
create index transaction_created_at_idx on public.transaction (created_at desc);
create index transaction_currency_code_idx on public.transaction (currency_code);
create index transaction_created_by_idx on public.transaction (created_by);

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.wallet enable row level security;
alter table public.transaction enable row level security;

-- ============================================================================================
-- Grants
-- ============================================================================================
grant select, insert, update, delete on public.wallet, public.transaction to authenticated;
grant all on public.wallet, public.transaction to service_role;

-- ============================================================================================
-- Triggers
-- ============================================================================================
create trigger wallet_set_updated_at
  before update on public.wallet
  for each row execute function private.set_updated_at();

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own wallets; staff read all"
  on public.wallet for select to authenticated
  using (client_id = (select auth.uid()) or (select private.is_staff()));

create policy "staff create wallets"
  on public.wallet for insert to authenticated
  with check ((select private.is_staff()));

create policy "staff update wallets"
  on public.wallet for update to authenticated
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete wallets"
  on public.wallet for delete to authenticated
  using ((select private.is_staff()));

create policy "clients read their own transactions; staff read all"
  on public.transaction for select to authenticated
  using (client_id = (select auth.uid()) or (select private.is_staff()));

create policy "staff create transactions"
  on public.transaction for insert to authenticated
  with check ((select private.is_staff()));

create policy "staff update transactions"
  on public.transaction for update to authenticated
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete transactions"
  on public.transaction for delete to authenticated
  using ((select private.is_staff()));
