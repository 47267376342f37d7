-- The sandbox's ledger (issue 37, item 3): test play reaches a ledger of its own, the test-mode twin
-- of the float and its ledger, so an operator rehearses reconciliation before going live. Never
-- mixed with live money: other tables, another sequence, read only with a test key.
--
-- - public.sandbox_wallet: the test float, one per client and currency: the sum of its test
--   players' balances in that currency (what the operator's test players hold, as the float is what
--   its live players' play is funded from).
-- - public.sandbox_transaction: its movements, as public.transaction records the float's (type,
--   signed amount, the test float's balance after it, note, ledger_seq in the order of recording).
--   Written by two paths only, each under the test float's row lock: the engine's test movements
--   (private.move_money, test branch: bets, wins, rollbacks, each the test player's balance and
--   the test float's in one statement) and the operator's setting of a test player's balance (a
--   deposit of what it adds, a withdraw of what it takes: private.record_sandbox_transaction, from
--   put_sandbox_player and from the insert trigger below, however the player is made).
-- - A test player's row comes before the test float's in every path (the engine's, a set, a
--   reset), so two paths never wait on each other in opposite orders.
-- - A sandbox reset empties both with the test players (private.reset_sandbox).
--
-- Replaces private.move_money (the lean engine migration): its test branch only; the live branch is
-- the same text. Replaces private.put_sandbox_player (the one rule per field migration): a change
-- of a test player's balance is a movement of the test float. Replaces private.reset_sandbox (the
-- sandbox reset rounds migration): it empties the test ledger too.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.sandbox_wallet (
  client_id uuid not null references auth.users (id) on delete cascade,
  currency_code text not null references public.currency (code),
  balance numeric(20, 4) not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (client_id, currency_code),
  constraint sandbox_wallet_balance_range check (balance >= 0 and balance < 1e16)
);
comment on table public.sandbox_wallet is
  'The test float: a client''s test players'' balances in one currency, summed; moved only with a line of public.sandbox_transaction.';
create index sandbox_wallet_currency_code_idx on public.sandbox_wallet (currency_code);

-- The test float's row holds the client and currency for its lines: the foreign key reaches a row
-- the movement has just locked (not the client's auth.users row, which every bet would share), and
-- a client's deletion reaches the lines through it.
create table public.sandbox_transaction (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null,
  type text not null,
  currency_code text not null,
  amount numeric(20, 4) not null,
  balance_after numeric(20, 4) not null,
  note text,
  created_at timestamptz not null default now(),
  ledger_seq bigint generated always as identity,
  constraint sandbox_transaction_wallet_fkey foreign key (client_id, currency_code)
    references public.sandbox_wallet (client_id, currency_code) on delete cascade,
  constraint sandbox_transaction_type_check check (type in ('deposit', 'withdraw', 'adjustment', 'bet', 'win')),
  constraint sandbox_transaction_note_length check (char_length(note) <= 1000),
  constraint sandbox_transaction_amount_sign check (
    case
      when type in ('deposit', 'win') then amount > 0
      when type in ('withdraw', 'bet') then amount < 0
      else amount <> 0
    end),
  constraint sandbox_transaction_balance_after_nonnegative check (balance_after >= 0)
);
comment on table public.sandbox_transaction is
  'The test float''s movements (test play, and test players'' balances set by the operator), as public.transaction records the float''s.';
comment on column public.sandbox_transaction.ledger_seq is
  'Order of recording, under the test float''s row lock: within one test float it orders the balance_after chain.';
-- A client's test ledger newest first (GET /v3/transactions with a test key), and the read policy.
create index sandbox_transaction_client_id_ledger_seq_idx on public.sandbox_transaction (client_id, ledger_seq desc);
-- A test float's statement, and its foreign key.
create index sandbox_transaction_wallet_ledger_idx on public.sandbox_transaction (client_id, currency_code, ledger_seq);

-- ============================================================================================
-- Row level security: clients read their own, staff all; the engine and the sandbox endpoints write.
-- ============================================================================================
alter table public.sandbox_wallet enable row level security;
alter table public.sandbox_transaction enable row level security;

grant select on public.sandbox_wallet, public.sandbox_transaction to authenticated, staff, service_role;

create policy "clients read their own test floats"
  on public.sandbox_wallet for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all test floats"
  on public.sandbox_wallet for select to staff
  using (true);

create policy "clients read their own test ledger"
  on public.sandbox_transaction for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all test ledgers"
  on public.sandbox_transaction for select to staff
  using (true);

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- Moves a client's test float by an amount and records the line, under the test float's row lock
-- (made on the first movement of a currency). The operator's path: a test player's balance set
-- (deposit or withdraw); the engine's test play goes through private.move_money. A test float that
-- would leave [0, 1e16) raises numeric_value_out_of_range (past numeric(20, 4)) or breaks its check
-- constraint (sandbox_wallet_balance_range): nothing is written.
create function private.record_sandbox_transaction(client_id uuid, currency text, type text, amount numeric, note text)
returns public.sandbox_transaction
language plpgsql
set search_path = ''
as $$
declare
  balance numeric;
  recorded public.sandbox_transaction;
begin
  loop
    update public.sandbox_wallet w set balance = w.balance + record_sandbox_transaction.amount, updated_at = now()
    where w.client_id = record_sandbox_transaction.client_id and w.currency_code = record_sandbox_transaction.currency
    returning w.balance into balance;
    exit when found;
    -- The first movement in this currency; another call's first one may come between: then update it.
    insert into public.sandbox_wallet as w (client_id, currency_code, balance)
    values (record_sandbox_transaction.client_id, record_sandbox_transaction.currency, record_sandbox_transaction.amount)
    on conflict on constraint sandbox_wallet_pkey do nothing
    returning w.balance into balance;
    exit when found;
  end loop;
  if record_sandbox_transaction.amount <> 0 then
    insert into public.sandbox_transaction as t (client_id, type, currency_code, amount, balance_after, note)
    values (record_sandbox_transaction.client_id, record_sandbox_transaction.type, record_sandbox_transaction.currency,
            record_sandbox_transaction.amount, balance, record_sandbox_transaction.note)
    returning t.* into recorded;
  end if;
  return recorded;
end;
$$;
revoke execute on function private.record_sandbox_transaction from public, anon, authenticated, service_role;

-- A test player made, however it is (the sandbox endpoint, the demo seed, a test): its opening
-- balance is a deposit to the test float, which exists from then on for the engine to move.
create function private.sandbox_player_opened() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform private.record_sandbox_transaction(new.client_id, new.currency_code, 'deposit', new.balance,
    format('test player %s opened with %s', new.player_id, new.balance::numeric(20, 4)));
  return null;
end;
$$;
revoke execute on function private.sandbox_player_opened from public, anon, authenticated, service_role;

create trigger sandbox_player_opened
  after insert on public.sandbox_player
  for each row execute function private.sandbox_player_opened();

-- Moves money for a session's round: on the float through the ledger (live: the wallet's balance,
-- then the transaction with the balance after it, under the row lock the update takes) or on its
-- test player's balance and the test float through the test ledger (test: one statement, the
-- player's row then the test float's; the answer's id is the test line's, its balance_after the
-- test player's, which is what the provider is told). The balance moves only within 0 and 1e16: a
-- movement that would take it out is a concurrent change the caller's checks did not see (they
-- refuse what they can see), and raises serialization_failure, so the whole call is run again.
create or replace function private.move_money(s public.game_session, currency text, type text, amount numeric, note text)
returns public.transaction
language plpgsql
set search_path = ''
as $$
declare
  moved public.transaction;
  balance numeric;
begin
  if s.livemode then
    update public.wallet w set balance = w.balance + move_money.amount
    where w.client_id = s.client_id and w.currency_code = move_money.currency
      and w.balance + move_money.amount >= 0 and w.balance + move_money.amount < 1e16
    returning w.balance into balance;
  else
    with player as (
      update public.sandbox_player p set balance = p.balance + move_money.amount
      where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = move_money.currency
        and p.balance + move_money.amount >= 0 and p.balance + move_money.amount < 1e16
      returning p.balance
    ), test_float as (
      update public.sandbox_wallet w set balance = w.balance + move_money.amount, updated_at = now()
      from player
      where w.client_id = s.client_id and w.currency_code = move_money.currency
        and w.balance + move_money.amount >= 0 and w.balance + move_money.amount < 1e16
      returning w.balance
    ), line as (
      insert into public.sandbox_transaction as t (client_id, type, currency_code, amount, balance_after, note)
      select s.client_id, move_money.type, move_money.currency, move_money.amount, f.balance, move_money.note from test_float f
      returning t.id
    )
    select line.id, player.balance into moved.id, balance from line, player;
  end if;
  if balance is null then
    raise exception 'the balance changed under this movement; run the call again'
      using errcode = '40001', hint = 'no balance of this client, player and currency can take it now';
  end if;
  if not s.livemode then
    moved.amount := amount;
    moved.balance_after := balance;
    return moved;
  end if;
  insert into public.transaction as t (client_id, type, currency_code, amount, balance_after, note, created_by)
  values (s.client_id, move_money.type, move_money.currency, move_money.amount, balance, move_money.note, null)
  returning t.* into moved;
  return moved;
end;
$$;
revoke execute on function private.move_money from public, anon, authenticated, service_role;

-- POST /v3/sandbox/players: a test key makes (or resets) a test player's balance and behaviour.
-- Outcomes: created, unauthorized, live_key, unknown_currency, currency_unavailable, float_too_large
-- (the test float in that currency would reach 1e16: nothing written). A new player's balance is a
-- deposit to the test float (the insert trigger); a set balance moves the test float by the
-- difference, a deposit or a withdraw, under the player's row lock then the test float's.
create or replace function private.put_sandbox_player(key_hash text, player_id text, currency text, balance numeric, behaviour text)
returns table (outcome text, player text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  caller record;
  made public.sandbox_player;
  problems text[];
  was numeric;
  broken text;
begin
  select * into caller from private.authenticate_api_key(key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  if caller.livemode then
    return query select 'live_key', null::text;
    return;
  end if;
  problems := private.reference_problems(currency, null, true);
  if cardinality(problems) > 0 then
    return query select problems[1], null::text;
    return;
  end if;
  -- Shared, as a bet's: a reset (exclusive) runs before or after this call, never between a new
  -- player and its test float.
  perform private.lock_wallet_mode(caller.client_id, false, false);
  begin
    loop
      select p.balance into was from public.sandbox_player p
      where p.client_id = caller.client_id and p.player_id = put_sandbox_player.player_id and p.currency_code = currency
      for update;
      if found then
        update public.sandbox_player p set balance = put_sandbox_player.balance, behaviour = put_sandbox_player.behaviour
        where p.client_id = caller.client_id and p.player_id = put_sandbox_player.player_id and p.currency_code = currency
        returning p.* into made;
        if made.balance <> was then
          perform private.record_sandbox_transaction(caller.client_id, currency,
            case when made.balance > was then 'deposit' else 'withdraw' end, made.balance - was,
            format('test player %s set to %s (was %s)', made.player_id, made.balance, was::numeric(20, 4)));
        end if;
        exit;
      end if;
      -- A new player: its opening deposit is the insert trigger's. Made meanwhile by another call:
      -- it is an existing player, locked and set on the next pass.
      insert into public.sandbox_player as p (client_id, player_id, currency_code, balance, behaviour)
      values (caller.client_id, player_id, currency, balance, behaviour)
      on conflict on constraint sandbox_player_pkey do nothing
      returning p.* into made;
      exit when made.player_id is not null;
    end loop;
  exception
    -- The test float's sum past numeric(20, 4) (1e16 and up), or its range check.
    when numeric_value_out_of_range then
      return query select 'float_too_large', null::text;
      return;
    when check_violation then
      get stacked diagnostics broken = constraint_name;
      if broken is distinct from 'sandbox_wallet_balance_range' then
        raise;
      end if;
      return query select 'float_too_large', null::text;
      return;
  end;
  return query select 'created', private.sandbox_player_json(made)::text;
end;
$$;
revoke execute on function private.put_sandbox_player from public, anon, authenticated, service_role;

-- POST /v3/sandbox/reset: the key check and the reset in one call. Outcomes: reset (with what was
-- removed, as JSON), live_key, unauthorized. The test players go first, then their test floats
-- with the test ledger (the engine's order: a player's row, then the test float's).
create or replace function private.reset_sandbox(key_hash text)
returns table (outcome text, body text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  players int;
  restrictions int;
  endpoints int;
  wallet_settings int;
  sessions int;
  rounds int;
begin
  select * into caller from private.authenticate_api_key(reset_sandbox.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  if caller.livemode then
    return query select 'live_key', null::text;
    return;
  end if;
  -- As a change of mode does: no bet of this client's in test mode runs while its wallet changes.
  perform private.lock_wallet_mode(caller.client_id, false, true);
  with gone as (
    delete from public.sandbox_player p where p.client_id = caller.client_id returning p.player_id
  ) select count(distinct g.player_id) into players from gone g;
  delete from public.sandbox_transaction t where t.client_id = caller.client_id;
  delete from public.sandbox_wallet w where w.client_id = caller.client_id;
  delete from private.player_loss l where l.client_id = caller.client_id and not l.livemode;
  delete from public.player_restriction r where r.client_id = caller.client_id and not r.livemode;
  get diagnostics restrictions = row_count;
  delete from public.webhook_endpoint e where e.client_id = caller.client_id and not e.livemode;
  get diagnostics endpoints = row_count;
  -- Calls to the test wallet still due would find no wallet to go to once its settings are gone, and
  -- the delivery runner serves every client: they end here, failed, with why.
  update public.wallet_call c set status = 'failed', last_error = 'the sandbox was reset', completed_at = now()
  where c.client_id = caller.client_id and not c.livemode and c.status = 'pending';
  delete from public.wallet_setting w where w.client_id = caller.client_id and not w.livemode;
  get diagnostics wallet_settings = row_count;
  update public.game_session s set status = 'closed'
  where s.client_id = caller.client_id and not s.livemode and s.status <> 'closed';
  get diagnostics sessions = row_count;
  -- Rounds left open end cancelled (told as round.cancelled): their test players are gone, so a
  -- late win or rollback is answered round_closed instead of finding no balance to move.
  update public.game_round r set status = 'cancelled', closed_at = now()
  where r.client_id = caller.client_id and not r.livemode and r.status = 'open';
  get diagnostics rounds = row_count;
  return query select 'reset', json_build_object(
    'livemode', false,
    'removed', json_build_object('players', players, 'restrictions', restrictions, 'webhook_endpoints', endpoints,
                                 'wallet_settings', wallet_settings),
    'sessions_closed', sessions,
    'rounds_cancelled', rounds,
    'wallet_mode', 'transfer')::text;
end;
$$;
revoke execute on function private.reset_sandbox from public, anon, authenticated, service_role;

-- ============================================================================================
-- Data: the test floats of the test players made before this migration, and their opening lines
-- ============================================================================================
insert into public.sandbox_wallet (client_id, currency_code, balance)
select p.client_id, p.currency_code, sum(p.balance) from public.sandbox_player p group by p.client_id, p.currency_code;
insert into public.sandbox_transaction (client_id, type, currency_code, amount, balance_after, note)
select w.client_id, 'deposit', w.currency_code, w.balance, w.balance, 'the test players'' balances when the test ledger began'
from public.sandbox_wallet w where w.balance > 0;
