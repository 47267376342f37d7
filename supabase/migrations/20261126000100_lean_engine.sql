-- The lean bet path, second part: a bet and a win as few statements as the rules allow, the
-- wallet's row locked last, and no foreign key checked where the engine itself guarantees it.
--
-- Replaces private.round_bet and private.round_win (the round engine migration), round_rollback
-- (the seamless tombstones migration) and private.move_money (the lean bet path migration):
-- - The caller, its session, the client's status, the player's restrictions, the jurisdiction's
--   maximum stake and the balance the bet would come from are one statement
--   (private.round_caller), where round_start, round_context, the status check, player_refusal and
--   lock_balance were nine. player_refusal and count_loss run only for a player who has
--   restrictions, or a session whose jurisdiction caps stakes (they would find nothing otherwise).
-- - A win takes no wallet-mode lock: its round exists, and settles in the wallet it started in.
-- - The wallet's (or test player's) row is locked last, by the movement itself: an update that
--   moves the balance only if it stays within 0 and 1e16. The balance read first decides every
--   refusal (insufficient_funds, amount_too_large), so a refusal still writes nothing. A movement
--   that a concurrent one made impossible between that read and the update (the read said enough,
--   the update finds too little) raises serialization_failure (40001): the transaction is rolled
--   back whole, and the provider API runs the call again, which then reads the balance as it is.
--   So the row is locked for the last writes of a call and its commit, not for the whole call.
--   The engine's locks now come in this order: the transaction id, the wallet mode, the round, its
--   transactions, the player's loss tally, the balance. (A rollback counts the loss before it moves
--   the money, as a bet does; staff's resolve_round and review_win, which lock the balance before
--   the tally, are rare enough that a deadlock with a call is rolled back and run again.)
-- - A round's first bet writes the round once, with its total, instead of inserting it and
--   updating it. The answer is built in place (round_answer's shape).
--
-- Drops foreign keys that checked, on every round transaction and round, what the engine writes
-- from rows it has just read (the provider of the caller's key, the session's client and
-- currency, the bet it found, the ledger row it wrote): each was a lookup with a row lock on a hot
-- row (the client's auth.users row, shared by all its bets) for nothing that can go wrong on this
-- path. Kept: a round transaction's round (a client's deletion reaches its round transactions
-- through it) and a round's session (and its client's deletion through that). Dropped with them:
-- the indexes that only served those keys (round_transaction.related_id, ledger_transaction_id,
-- game_round.currency_code). Nothing reads by them; the indexes under the policies' client_id stay.

-- ============================================================================================
-- Foreign keys and indexes
-- ============================================================================================
alter table public.round_transaction
  drop constraint round_transaction_provider_id_fkey,
  drop constraint round_transaction_client_id_fkey,
  drop constraint round_transaction_related_id_fkey,
  drop constraint round_transaction_ledger_transaction_id_fkey;
drop index public.round_transaction_related_id_idx;
drop index public.round_transaction_ledger_transaction_id_idx;

alter table public.game_round
  drop constraint game_round_provider_id_fkey,
  drop constraint game_round_client_id_fkey,
  drop constraint game_round_currency_code_fkey;
drop index public.game_round_currency_code_idx;

-- ============================================================================================
-- Helper functions
-- ============================================================================================

-- Who calls and for what, in one statement: the key's provider (null: the key does not
-- authenticate), the session the token names if it is one of that provider's (null otherwise), its
-- client's status, whether the player's restrictions or the session's jurisdiction could refuse a
-- bet, the player's loss limits in the session's currency, and the balance a bet would come from
-- (the float's in transfer mode, live; the test player's, test: 0 for one that refuses every bet,
-- null for no such player) with how a test player's wallet fails (sandbox_refusal's answer).
-- Nothing is locked: the engine's locks come after, and the movement itself re-checks the balance.
create function private.round_caller(key_hash text, session_id uuid)
returns table (
  provider_id uuid, session public.game_session, client_active boolean, may_refuse boolean,
  loss_limits jsonb, available numeric, test_refusal text
)
language plpgsql stable
set search_path = ''
as $$
begin
  -- plpgsql, not sql: its plan is kept for the session instead of made again at every call.
  return query
  select k.provider_id, s, p.status = 'active',
         pr.player_id is not null or j.max_stake is not null,
         nullif(pr.loss_limits -> s.currency_code, '{}'::jsonb),
         case when s.livemode then w.balance
              when sp.behaviour = 'insufficient_funds' then 0 else sp.balance end,
         case sp.behaviour when 'failing_wallet' then 'wallet_failed' when 'slow_wallet' then 'wallet_timeout' end
  from public.provider_key k
  left join public.game_session s on s.id = round_caller.session_id and s.provider_id = k.provider_id
  left join public.profile p on p.id = s.client_id
  left join public.player_restriction pr
    on pr.client_id = s.client_id and pr.livemode = s.livemode and pr.player_id = s.player_id
  left join public.jurisdiction j on j.code = s.jurisdiction and j.max_stake_currency = s.currency_code
  left join public.wallet w on s.livemode and w.client_id = s.client_id and w.currency_code = s.currency_code
  left join public.sandbox_player sp
    on not s.livemode and sp.client_id = s.client_id and sp.player_id = s.player_id and sp.currency_code = s.currency_code
  where k.key_hash = round_caller.key_hash and k.status = 'active';
end;
$$;
revoke execute on function private.round_caller from public, anon, authenticated, service_role;

-- Moves money for a session's round: on the float through the ledger (live: the wallet's balance,
-- then the transaction with the balance after it, under the row lock the update takes) or on its
-- test player's balance (test: no ledger row; the answer's id is null). The balance moves only
-- within 0 and 1e16: a movement that would take it out is a concurrent change the caller's checks
-- did not see (they refuse what they can see), and raises serialization_failure, so the whole call
-- is run again.
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
    update public.sandbox_player p set balance = p.balance + move_money.amount
    where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = move_money.currency
      and p.balance + move_money.amount >= 0 and p.balance + move_money.amount < 1e16
    returning p.balance into balance;
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

-- ============================================================================================
-- The engine (see the round engine migration for the rules and the outcomes)
-- ============================================================================================
create or replace function private.round_bet(
  key_hash text,
  session_id uuid,
  transaction_id text,
  round_id text,
  amount numeric,
  round_closed boolean,
  request_fingerprint text
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  c record;
  s public.game_session;
  replay record;
  round public.game_round;
  refusal text;
  seamless boolean;
  ledger public.transaction;
  bet public.round_transaction;
begin
  select * into c from private.round_caller(key_hash, session_id);
  if c.provider_id is null then
    return query select 'invalid_provider_key', null::json, null::text;
    return;
  end if;
  s := c.session;
  if s.id is null then
    return query select 'unknown_session', null::json, null::text;
    return;
  end if;
  -- A repeat waits for the first call with its transaction_id, then replays its answer.
  perform pg_advisory_xact_lock(hashtextextended(c.provider_id::text || ' tx ' || transaction_id, 0));
  select * into replay from private.round_replay(c.provider_id, transaction_id, request_fingerprint);
  if replay.outcome is not null then
    return query select replay.outcome, replay.body, null::text;
    return;
  end if;
  if exists (select 1 from public.round_transaction t
             where t.provider_id = c.provider_id and t.kind = 'rollback'
               and t.related_transaction_id = round_bet.transaction_id) then
    return query select 'transaction_rolled_back', null::json, null::text;
    return;
  end if;
  -- The wallet mode, under its shared lock held to the end (a mode change waits for this bet).
  seamless := private.lock_wallet_mode(s.client_id, s.livemode, false) = 'seamless';
  -- A suspended or closed client's sessions take no new bets; wins, rollbacks and staff settlements
  -- of what was played still settle, so no player loses money.
  if not c.client_active then
    return query select 'operator_suspended', null::json, null::text;
    return;
  end if;
  if s.status = 'closed' then
    return query select 'session_closed', null::json, null::text;
    return;
  end if;
  if s.status = 'created' and s.expires_at <= now() then
    return query select 'session_expired', null::json, null::text;
    return;
  end if;
  if c.may_refuse then
    refusal := private.player_refusal(s.client_id, s.livemode, s.player_id, s.id, s.currency_code, s.jurisdiction,
                                      s.created_at, amount);
    if refusal is not null then
      return query select refusal, null::json, null::text;
      return;
    end if;
  end if;

  -- One first bet at a time per round: two at once must not both create it.
  perform pg_advisory_xact_lock(hashtextextended(c.provider_id::text || ' round ' || round_bet.round_id, 0));
  select * into round from public.game_round r
  where r.provider_id = c.provider_id and r.provider_round_id = round_bet.round_id
  for update;
  if round.id is not null and round.session_id <> s.id then
    return query select 'round_mismatch', null::json, null::text;
    return;
  end if;
  if round.status in ('closed', 'cancelled') then
    return query select 'round_closed', null::json, null::text;
    return;
  end if;
  seamless := coalesce(round.wallet_mode = 'seamless', seamless);

  if not seamless then
    if c.available is null and not s.livemode then
      return query select 'test_player_unknown', null::json, null::text;
      return;
    end if;
    if c.test_refusal is not null then
      return query select c.test_refusal, null::json, null::text;
      return;
    end if;
    if coalesce(c.available, 0) < amount then
      return query select 'insufficient_funds',
                          json_build_object('balance', coalesce(c.available, 0)::numeric(20, 4)::text, 'currency', s.currency_code),
                          null::text;
      return;
    end if;
  end if;
  -- A round's totals and a balance hold 16 digits before the point.
  if coalesce(round.total_bet, 0) + amount >= 1e16 then
    return query select 'amount_too_large', null::json, null::text;
    return;
  end if;
  -- The player's loss limits: the bet that would cross one is refused, and counted otherwise.
  if c.loss_limits is not null then
    refusal := private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, amount, true);
    if refusal is not null then
      perform private.record_refusal(s.client_id, s.livemode, s.player_id, s.id, refusal, amount);
      return query select refusal, null::json, null::text;
      return;
    end if;
  end if;

  if s.status = 'created' then
    update public.game_session gs set status = 'active' where gs.id = s.id;
  end if;
  -- Seamless: the bet waits for the operator's debit, which finish_wallet_call applies to the round.
  if seamless then
    if round.id is null then
      insert into public.game_round as r
        (provider_id, provider_round_id, client_id, livemode, session_id, player_id, game, currency_code, wallet_mode)
      values (c.provider_id, round_bet.round_id, s.client_id, s.livemode, s.id, s.player_id, s.game, s.currency_code,
              'seamless')
      returning r.* into round;
    end if;
    insert into public.round_transaction as t
      (provider_id, transaction_id, kind, client_id, round_id, amount, request_fingerprint)
    values (c.provider_id, transaction_id, 'bet', s.client_id, round.id, amount, request_fingerprint)
    returning t.* into bet;
    return query select * from private.queue_wallet_call(bet, s, 'debit', jsonb_build_object(
      'transaction_id', transaction_id, 'round_id', round_bet.round_id, 'amount', amount::numeric(20, 4)::text,
      'round_closed', round_closed));
    return;
  end if;

  if round.id is null then
    insert into public.game_round as r
      (provider_id, provider_round_id, client_id, livemode, session_id, player_id, game, currency_code, wallet_mode,
       total_bet, status, closed_at)
    values (c.provider_id, round_bet.round_id, s.client_id, s.livemode, s.id, s.player_id, s.game, s.currency_code,
            'transfer', amount, case when round_closed then 'closed' else 'open' end,
            case when round_closed then now() end)
    returning r.* into round;
    -- Closed by its first bet: no update closes it, so the event game_round_event would send is sent here.
    if round_closed then
      perform private.emit_event(s.client_id, s.livemode, 'round.closed',
                                 (select e.round::jsonb from private.round_entry e where e.id = round.id));
    end if;
  else
    update public.game_round r
    set total_bet = r.total_bet + amount,
        status = case when round_closed then 'closed' else r.status end,
        closed_at = case when round_closed then now() end
    where r.id = round.id;
  end if;
  -- The float's (or test player's) row is locked here, for the last two writes and the commit.
  ledger := private.move_money(s, s.currency_code, 'bet', -amount,
                                format('round %s, bet %s', round_bet.round_id, round_bet.transaction_id));
  return query
    insert into public.round_transaction as t
      (provider_id, transaction_id, kind, client_id, round_id, amount, ledger_transaction_id, request_fingerprint,
       response_body)
    values (c.provider_id, transaction_id, 'bet', s.client_id, round.id, amount, ledger.id, request_fingerprint,
            json_build_object('transaction_id', transaction_id, 'round_id', round_bet.round_id,
                              'balance', ledger.balance_after::text, 'currency', s.currency_code))
    returning 'ok'::text, t.response_body, ledger.balance_after::text;
end;
$$;
revoke execute on function private.round_bet from public, anon, authenticated, service_role;

-- A win settles the bet it names, or every unsettled bet of its round when it names none: either
-- way those bets can no longer be rolled back. An amount of 0 closes a lost round without money.
create or replace function private.round_win(
  key_hash text,
  session_id uuid,
  transaction_id text,
  round_id text,
  amount numeric,
  round_closed boolean,
  bet_transaction_id text,
  request_fingerprint text
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  c record;
  s public.game_session;
  replay record;
  round public.game_round;
  bet public.round_transaction;
  ledger public.transaction;
  balance_after text;
  win public.round_transaction;
  seamless boolean;
  held_by uuid;
begin
  select * into c from private.round_caller(key_hash, session_id);
  if c.provider_id is null then
    return query select 'invalid_provider_key', null::json, null::text;
    return;
  end if;
  s := c.session;
  if s.id is null then
    return query select 'unknown_session', null::json, null::text;
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended(c.provider_id::text || ' tx ' || transaction_id, 0));
  select * into replay from private.round_replay(c.provider_id, transaction_id, request_fingerprint);
  if replay.outcome is not null then
    return query select replay.outcome, replay.body, null::text;
    return;
  end if;

  select * into round from public.game_round r
  where r.provider_id = c.provider_id and r.provider_round_id = round_win.round_id
  for update;
  if round.id is null then
    return query select 'unknown_round', null::json, null::text;
    return;
  end if;
  if round.session_id <> s.id then
    return query select 'round_mismatch', null::json, null::text;
    return;
  end if;
  if round.status <> 'open' then
    return query select 'round_closed', null::json, null::text;
    return;
  end if;
  seamless := round.wallet_mode = 'seamless';
  if bet_transaction_id is not null then
    select * into bet from public.round_transaction t
    where t.provider_id = c.provider_id and t.transaction_id = bet_transaction_id
      and t.kind = 'bet' and t.round_id = round.id
    for update;
    if bet.id is null then
      return query select 'unknown_transaction', null::json, null::text;
      return;
    end if;
    if bet.rolled_back then
      return query select 'transaction_rolled_back', null::json, null::text;
      return;
    end if;
  end if;
  -- A win settles what was bet: not while a bet of the round waits for the operator's debit.
  if seamless and private.debit_pending(round.id) then
    return query select 'transaction_pending', null::json, null::text;
    return;
  end if;

  if amount > 0 and seamless then
    if round.total_win + amount >= 1e16 then
      return query select 'amount_too_large', null::json, null::text;
      return;
    end if;
  elsif amount > 0 then
    -- The float in the session's currency takes the win even if it had no wallet yet (a test
    -- session's: its test player's balance, which must exist).
    if c.available is null and not s.livemode then
      return query select 'test_player_unknown', null::json, null::text;
      return;
    end if;
    if round.total_win + amount >= 1e16 or coalesce(c.available, 0) + amount >= 1e16 then
      return query select 'amount_too_large', null::json, null::text;
      return;
    end if;
  end if;
  -- Past a win limit: recorded and answered, its bets settled, but held for staff, not paid.
  if amount > 0 then
    held_by := private.win_limit_passed(round, amount);
  end if;
  update public.round_transaction t set settled = true
  where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back
    and (bet.id is null or t.id = bet.id);
  update public.game_round r
  set total_win = r.total_win + case when held_by is null then amount else 0 end,
      status = case when round_closed then 'closed' else r.status end,
      closed_at = case when round_closed then now() end
  where r.id = round.id;
  if amount > 0 and held_by is null and c.loss_limits is not null then
    perform private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, -amount, false);
  end if;
  if held_by is not null then
    balance_after := case when seamless then private.round_wallet_balance(round.id) else private.balance_of(s, s.currency_code) end;
  elsif seamless then
    balance_after := null;
  elsif amount > 0 then
    if c.available is null then
      insert into public.wallet (client_id, currency_code) values (s.client_id, s.currency_code)
      on conflict on constraint wallet_client_id_currency_code_key do nothing;
    end if;
    -- The float's (or test player's) row is locked here, for the last write and the commit.
    ledger := private.move_money(s, s.currency_code, 'win', amount,
                                  format('round %s, win %s', round_win.round_id, round_win.transaction_id));
    balance_after := ledger.balance_after::text;
  else
    balance_after := private.balance_of(s, s.currency_code);
  end if;
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, related_id,
     ledger_transaction_id, request_fingerprint, response_body)
  values (c.provider_id, transaction_id, 'win', s.client_id, round.id, amount, bet_transaction_id, bet.id,
          ledger.id, request_fingerprint,
          case when not seamless or held_by is not null
               then json_build_object('transaction_id', transaction_id, 'round_id', round_win.round_id,
                                      'balance', balance_after, 'currency', s.currency_code) end)
  returning t.* into win;
  if held_by is not null then
    insert into public.held_win (round_transaction_id, client_id, livemode, round_id, amount, currency_code, win_limit_id)
    values (win.id, s.client_id, s.livemode, round.id, amount, s.currency_code, held_by);
    perform private.emit_event(s.client_id, s.livemode, 'round.win_held', private.round_detail(round.id));
    return query select 'ok'::text, win.response_body, balance_after;
  elsif seamless then
    return query select * from private.queue_wallet_call(win, s, 'credit', jsonb_build_object(
      'transaction_id', transaction_id, 'round_id', round_win.round_id, 'amount', amount::numeric(20, 4)::text,
      'round_closed', round_closed));
  else
    return query select 'ok'::text, win.response_body, balance_after;
  end if;
end;
$$;
revoke execute on function private.round_win from public, anon, authenticated, service_role;

-- A rollback gives a bet back. Of a transaction nobody has seen, it is a tombstone (answered OK,
-- and the bet is refused when it comes); of a bet already rolled back, it answers OK and moves
-- nothing. A win cannot be rolled back, nor a bet a win settled.
create or replace function private.round_rollback(
  key_hash text,
  session_id uuid,
  transaction_id text,
  rolled_back_transaction_id text,
  request_fingerprint text
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  s public.game_session;
  round public.game_round;
  bet public.round_transaction;
  ledger public.transaction;
  balance_after text;
  undo public.round_transaction;
  cancel boolean;
  seamless boolean;
begin
  select * into began from private.round_start(key_hash, session_id, transaction_id, request_fingerprint, rolled_back_transaction_id);
  if began.outcome is not null then
    return query select began.outcome, began.body, null::text;
    return;
  end if;
  s := began.session;

  -- Locks in the order every call takes them: the round, then its transactions, then the float.
  select * into bet from public.round_transaction t
  where t.provider_id = began.provider_id and t.transaction_id = rolled_back_transaction_id;
  if bet.round_id is not null then
    select * into round from public.game_round r where r.id = bet.round_id for update;
    select * into bet from public.round_transaction t where t.id = bet.id for update;
  end if;
  if bet.id is not null and (bet.kind <> 'bet' or round.session_id <> s.id) then
    return query select 'invalid_rollback', null::json, null::text;
    return;
  end if;
  -- The bet is given back in the wallet it was taken from; a tombstone follows the mode in force.
  seamless := coalesce(round.wallet_mode = 'seamless', began.seamless);
  if bet.settled then
    return query select 'bet_settled', null::json, null::text;
    return;
  end if;
  if seamless and bet.id is not null and private.round_transaction_state(bet) = 'wallet_pending' then
    return query select 'transaction_pending', null::json, null::text;
    return;
  end if;

  -- The balance as read (unlocked): its row is locked by the movement itself, last.
  if bet.id is not null and not bet.rolled_back and not seamless
     and (select coalesce(c.available, 0) from private.round_caller(key_hash, session_id) c) + bet.amount >= 1e16 then
    return query select 'amount_too_large', null::json, null::text;
    return;
  end if;
  if bet.id is not null and not bet.rolled_back then
    perform private.count_loss(s.client_id, s.livemode, s.player_id, round.currency_code, -bet.amount, false);
    if not seamless then
      ledger := private.move_money(s, round.currency_code, 'adjustment', bet.amount,
                                    format('round %s, rollback %s of bet %s', round.provider_round_id,
                                           round_rollback.transaction_id, rolled_back_transaction_id));
      balance_after := ledger.balance_after::text;
    end if;
    update public.round_transaction t set rolled_back = true where t.id = bet.id;
    -- Nothing left at stake, nothing won, and no bet waiting for the operator's debit (seamless):
    -- the round is cancelled. (The round is locked: its totals are as read.)
    cancel := round.total_bet - bet.amount = 0 and round.total_win = 0 and not private.debit_pending(round.id);
    update public.game_round r
    set total_bet = r.total_bet - bet.amount,
        status = case when cancel then 'cancelled' else r.status end,
        closed_at = case when cancel then coalesce(r.closed_at, now()) else r.closed_at end
    where r.id = round.id;
  elsif not seamless then
    balance_after := private.balance_of(s, coalesce(round.currency_code, s.currency_code));
  end if;
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, related_id,
     ledger_transaction_id, request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'rollback', s.client_id, bet.round_id,
          case when bet.id is not null and not bet.rolled_back then bet.amount else 0 end,
          rolled_back_transaction_id, bet.id, ledger.id, request_fingerprint,
          case when not seamless then private.round_answer(transaction_id, round.provider_round_id, balance_after,
                                                                 coalesce(round.currency_code, s.currency_code)) end)
  returning t.* into undo;
  -- Seamless: every rollback goes to the operator, even of a bet it never saw (it answers OK, and
  -- refuses the debit if it comes later).
  if seamless then
    return query select * from private.queue_wallet_call(undo, s, 'rollback', jsonb_strip_nulls(jsonb_build_object(
      'transaction_id', transaction_id, 'rolled_back_transaction_id', rolled_back_transaction_id,
      'round_id', round.provider_round_id, 'amount', (case when bet.id is not null then bet.amount end)::numeric(20, 4)::text)));
  else
    return query select 'ok'::text, undo.response_body, balance_after;
  end if;
end;
$$;
revoke execute on function private.round_rollback from public, anon, authenticated, service_role;
