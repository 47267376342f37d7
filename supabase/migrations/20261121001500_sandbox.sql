-- The sandbox, first part: test players with test balances, so a test key's sessions play for real
-- without moving live money. POST /v3/sandbox/players (test keys only) makes a player of the
-- client's with a balance in a currency and a behaviour, to rehearse each path of a transfer-mode
-- bet: `normal`; `insufficient_funds` (every bet refused); `failing_wallet` (every bet answered as
-- a seamless wallet's failure: `wallet_failed`, nothing taken); `slow_wallet` (the same, after the
-- wallet timeout, as when a wallet does not answer in time). In transfer mode a test session's bets, wins and rollbacks
-- move that balance instead of the float (the round engine asks private.lock_balance and
-- private.move_money), and nothing reaches the live ledger; in seamless mode they go to the
-- operator's test wallet URL, as live ones go to its live one.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.sandbox_player (
  client_id uuid not null references auth.users (id) on delete cascade,
  player_id text not null,
  currency_code text not null references public.currency (code),
  balance numeric(20, 4) not null default 0,
  behaviour text not null default 'normal',
  created_at timestamptz not null default now(),
  primary key (client_id, player_id, currency_code),
  constraint sandbox_player_player_id_length check (char_length(player_id) between 1 and 128),
  constraint sandbox_player_balance_nonnegative check (balance >= 0),
  constraint sandbox_player_behaviour_check check (behaviour in ('normal', 'insufficient_funds', 'failing_wallet', 'slow_wallet'))
);
comment on table public.sandbox_player is
  'Test players: a balance per currency that test sessions play with, and how they behave.';
create index sandbox_player_currency_code_idx on public.sandbox_player (currency_code);

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.sandbox_player enable row level security;

-- ============================================================================================
-- Grants: read-only for the API roles; the endpoint and the engine write as the owner.
-- ============================================================================================
grant select on public.sandbox_player to authenticated, staff, service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- The balance a session's bets come from, locked for the rest of the call: the client's float in
-- the session's currency (live; `create` makes the wallet when it has none), or its test player's
-- balance (test; null when there is no such player, or one that refuses every bet is 0).
create function private.lock_balance(s public.game_session, create_wallet boolean default false) returns numeric
language plpgsql
set search_path = ''
as $$
declare
  found numeric;
begin
  if s.livemode then
    if create_wallet then
      insert into public.wallet (client_id, currency_code) values (s.client_id, s.currency_code)
      on conflict on constraint wallet_client_id_currency_code_key do nothing;
    end if;
    select w.balance into found from public.wallet w
    where w.client_id = s.client_id and w.currency_code = s.currency_code for update;
  else
    select case when p.behaviour = 'insufficient_funds' then 0 else p.balance end into found
    from public.sandbox_player p
    where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = s.currency_code for update;
  end if;
  return found;
end;
$$;
revoke execute on function private.lock_balance from public, anon, authenticated, service_role;

-- How a test session's bet fails by its player's behaviour, before anything is written: null (it
-- does not), `wallet_failed`, or `wallet_timeout` (the endpoint answers wallet_failed after the
-- wallet timeout). Live sessions and seamless mode never ask.
create function private.sandbox_refusal(s public.game_session) returns text
language sql stable
set search_path = ''
as $$
  select case p.behaviour when 'failing_wallet' then 'wallet_failed' when 'slow_wallet' then 'wallet_timeout' end
  from public.sandbox_player p
  where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = s.currency_code;
$$;
revoke execute on function private.sandbox_refusal from public, anon, authenticated, service_role;

-- Moves money for a session's round: through the ledger (live: public.record_transaction, the one
-- ledger path) or on its test player's balance (test: no ledger row; the answer's id is null).
create function private.move_money(s public.game_session, currency text, type text, amount numeric, note text)
returns public.transaction
language plpgsql
set search_path = ''
as $$
declare
  moved public.transaction;
begin
  if s.livemode then
    return public.record_transaction(s.client_id, currency, type, amount, note);
  end if;
  update public.sandbox_player p set balance = p.balance + amount
  where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = currency
  returning p.balance into moved.balance_after;
  moved.amount := amount;
  return moved;
end;
$$;
revoke execute on function private.move_money from public, anon, authenticated, service_role;

-- The float's balance in a currency, as text with four places ("0.0000" without a wallet).
create function private.float_balance(client_id uuid, currency_code text) returns text
language sql stable
set search_path = ''
as $$
  select coalesce((select w.balance from public.wallet w
                   where w.client_id = float_balance.client_id and w.currency_code = float_balance.currency_code),
                  0)::numeric(20, 4)::text;
$$;
revoke execute on function private.float_balance from public, anon, authenticated, service_role;

-- What the provider is told the balance is when no money moved: the float's, or the test player's.
create function private.balance_of(s public.game_session, currency text) returns text
language sql stable
set search_path = ''
as $$
  select case when s.livemode then private.float_balance(s.client_id, currency)
              else coalesce((select p.balance from public.sandbox_player p
                             where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = currency),
                            0)::numeric(20, 4)::text end;
$$;
revoke execute on function private.balance_of from public, anon, authenticated, service_role;

-- A test player's balance in one currency, as the API shows it.
create function private.sandbox_player_json(p public.sandbox_player) returns json
language sql immutable
set search_path = ''
as $$
  select json_build_object('player_id', p.player_id, 'currency', p.currency_code, 'balance', p.balance::text,
    'behaviour', p.behaviour, 'livemode', false, 'created_at', p.created_at);
$$;
revoke execute on function private.sandbox_player_json from public, anon, authenticated, service_role;

-- POST /v3/sandbox/players: a test key makes (or resets) a test player's balance and behaviour.
-- Outcomes: created, unauthorized, live_key (a live key may not), unknown_currency.
create function private.put_sandbox_player(key_hash text, player_id text, currency text, balance numeric, behaviour text)
returns table (outcome text, player text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  caller record;
  made public.sandbox_player;
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
  if not exists (select 1 from public.currency c where c.code = currency and c.is_active) then
    return query select 'unknown_currency', null::text;
    return;
  end if;
  insert into public.sandbox_player as p (client_id, player_id, currency_code, balance, behaviour)
  values (caller.client_id, player_id, currency, balance, behaviour)
  on conflict on constraint sandbox_player_pkey do update set balance = excluded.balance, behaviour = excluded.behaviour
  returning p.* into made;
  return query select 'created', private.sandbox_player_json(made)::text;
end;
$$;
revoke execute on function private.put_sandbox_player from public, anon, authenticated, service_role;

-- GET /v3/sandbox/players/{player_id}: the caller's test player, a balance per currency (in code
-- order). Outcomes: found, unauthorized, live_key, not_found (no balance in any currency).
create function private.read_sandbox_player(key_hash text, player_id text)
returns table (outcome text, players text)
language sql stable
set search_path = ''
as $$
  select case when a.key_id is null then 'unauthorized' when a.livemode then 'live_key'
              when found.players is null then 'not_found' else 'found' end,
         found.players::text
  from (select 1) one
  left join private.authenticate_api_key(read_sandbox_player.key_hash) a on true
  left join lateral (
    select json_agg(private.sandbox_player_json(p) order by p.currency_code) as players
    from public.sandbox_player p
    where not a.livemode and p.client_id = a.client_id and p.player_id = read_sandbox_player.player_id
  ) found on true;
$$;
revoke execute on function private.read_sandbox_player from public, anon, authenticated, service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own test players"
  on public.sandbox_player for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all test players"
  on public.sandbox_player for select to staff
  using (true);
