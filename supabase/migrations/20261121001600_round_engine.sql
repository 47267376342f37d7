-- The round engine: one call per provider request (private.round_bet, round_win, round_rollback,
-- round_balance), each one transaction, run as the database owner for the v3 function's provider
-- routes, which have already verified the session token (signature, and that its audience is the
-- key's provider); staff's resolve_round and review_win; the rounds' reads and events.
-- - A provider's transaction_id applies once, forever: the same request again replays the first
--   answer byte for byte (it is stored with the transaction); another request with it is a conflict.
-- - A rollback of a transaction nobody has seen is recorded (a tombstone) and answered OK; the bet
--   arriving after it is refused. A rolled-back bet cannot be won, and a bet a win has settled cannot
--   be rolled back.
-- - `round_closed` closes the round; a round whose every bet is rolled back, with nothing won, is
--   cancelled. A closed or cancelled round takes no more transactions.
-- - Money moves in the operator's float (transfer mode, the client's wallet in the session's
--   currency) through public.record_transaction, the one ledger path: a bet debits (`bet`), a win
--   credits (`win`), a rollback gives the bet back (`adjustment`). A bet the float cannot cover is
--   refused and writes nothing. Refusals write nothing: the same call later is judged again.
-- - In seamless mode the engine records the same changes without the float, and queues a call to
--   the operator's wallet in the same transaction (public.wallet_call, the seamless wallet
--   migration), which the provider call then makes at once and finishes with
--   private.finish_wallet_call. Until the operator has answered, the transaction has no answer
--   (response_body null) and a repeat is told to wait.
-- - A round settles in the wallet it started in (game_round.wallet_mode), whatever the mode later.
-- - Test sessions (made with a cgs_test_ key) never move the float: in transfer mode they play with
--   their test player's balance (the sandbox migration's private.lock_balance and move_money).
-- - Big wins: a win that takes a round past a limit (public.win_limit: a multiple of its bets, or
--   an amount) is recorded and answered, but held for staff review (public.held_win, the event
--   `round.win_held`) instead of paid: staff release it (paid then, in the round's wallet) or reject
--   it (never paid), as the best aggregators flag big wins. A repeat replays the held answer.

-- ============================================================================================
-- Helper functions
-- ============================================================================================

-- What every provider call starts with: the key, and the session the token names, which must be
-- one of the key's provider's. `problem` is null when the call may go on.
create function private.round_context(key_hash text, session_id uuid)
returns table (problem text, provider_id uuid, session public.game_session)
language plpgsql stable
set search_path = ''
as $$
declare
  key record;
  found_session public.game_session;
begin
  select * into key from private.authenticate_provider_key(round_context.key_hash);
  if key.key_id is null then
    return query select 'invalid_provider_key', null::uuid, null::public.game_session;
    return;
  end if;
  select s.* into found_session from public.game_session s
  where s.id = round_context.session_id and s.provider_id = key.provider_id;
  if found_session.id is null then
    return query select 'unknown_session', key.provider_id, null::public.game_session;
  else
    return query select null::text, key.provider_id, found_session;
  end if;
end;
$$;
revoke execute on function private.round_context from public, anon, authenticated, service_role;

-- A repeat of a transaction_id: its first answer when the request is the same (or, in seamless
-- mode, where its wallet call stands), a conflict otherwise.
create function private.round_replay(provider_id uuid, transaction_id text, request_fingerprint text)
returns table (outcome text, body json)
language plpgsql stable
set search_path = ''
as $$
declare
  t public.round_transaction;
begin
  select * into t from public.round_transaction x
  where x.provider_id = round_replay.provider_id and x.transaction_id = round_replay.transaction_id;
  if t.id is null then
    return;
  elsif t.request_fingerprint <> round_replay.request_fingerprint then
    return query select 'duplicate_transaction', null::json;
  else
    return query select private.round_transaction_state(t), t.response_body;
  end if;
end;
$$;
revoke execute on function private.round_replay from public, anon, authenticated, service_role;

-- What every bet, win and rollback starts with: the key and session (round_context), then the lock
-- on its transaction_id (and on the one it names, for a rollback: both in one order, so two
-- rollbacks naming each other cannot wait on each other), so a repeat waits for the first and then
-- replays its answer, whatever has changed since. Then the wallet mode, under its shared lock (held
-- to the end, so the mode cannot change under a call that opens a round): `seamless` says a round
-- this call opens moves its money by calls to the operator's wallet rather than in the float. A
-- round that exists already keeps the wallet it started in (game_round.wallet_mode).
-- `outcome` is null when the call may go on. Lock names carry a word with a space, which no id has.
create function private.round_start(
  key_hash text, session_id uuid, transaction_id text, request_fingerprint text, also_lock text default null
) returns table (outcome text, body json, provider_id uuid, session public.game_session, seamless boolean)
language plpgsql
set search_path = ''
as $$
declare
  context record;
  replay record;
  lock_key bigint;
  seamless boolean;
begin
  select * into context from private.round_context(round_start.key_hash, round_start.session_id);
  if context.problem is not null then
    return query select context.problem, null::json, context.provider_id, context.session, null::boolean;
    return;
  end if;
  foreach lock_key in array (
    select array_agg(distinct k order by k)
    from unnest(array[hashtextextended(context.provider_id::text || ' tx ' || round_start.transaction_id, 0),
                      hashtextextended(context.provider_id::text || ' tx ' || round_start.also_lock, 0)]) k
    where k is not null
  ) loop
    perform pg_advisory_xact_lock(lock_key);
  end loop;
  select * into replay from private.round_replay(context.provider_id, round_start.transaction_id, round_start.request_fingerprint);
  if replay.outcome is null then
    seamless := private.lock_wallet_mode((context.session).client_id, (context.session).livemode, false) = 'seamless';
  end if;
  return query select replay.outcome, replay.body, context.provider_id, context.session, seamless;
end;
$$;
revoke execute on function private.round_start from public, anon, authenticated, service_role;

-- The win limit a win of `amount` would take the round past (its wins so far, paid ones, and this
-- one, against its bets or an amount in its currency), the most specific first; null when it may
-- be paid.
create function private.win_limit_passed(round public.game_round, amount numeric) returns uuid
language plpgsql stable
set search_path = ''
as $$
begin
  return (
    select l.id from public.win_limit l
    where (l.provider_id is null or l.provider_id = round.provider_id)
      and (l.game is null or l.game = round.game)
      and ((l.max_multiple is not null and round.total_win + amount > l.max_multiple * round.total_bet)
           or (l.max_amount is not null and l.currency_code = round.currency_code and round.total_win + amount > l.max_amount))
    order by l.game nulls last, l.provider_id nulls last
    limit 1);
end;
$$;
revoke execute on function private.win_limit_passed from public, anon, authenticated, service_role;

-- The operator's balance as a seamless round last heard it (its latest accepted wallet call): what a
-- held win answers, since no call is made for it.
create function private.round_wallet_balance(round_id uuid) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  return (
    select c.balance::text
    from public.round_transaction t
    join public.wallet_call c on c.round_transaction_id = t.id and c.status = 'accepted'
    where t.round_id = round_wallet_balance.round_id
    order by c.completed_at desc
    limit 1);
end;
$$;
revoke execute on function private.round_wallet_balance from public, anon, authenticated, service_role;

-- ============================================================================================
-- The engine: one call each, one transaction each. Outcomes: ok (body: the answer), replayed (the
-- first answer), wallet_call (seamless: body is the call to make, then private.finish_wallet_call),
-- or a problem code (body null, or the problem's members: the balance for insufficient_funds).
-- ============================================================================================
create function private.round_balance(key_hash text, session_id uuid)
returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
declare
  context record;
  s public.game_session;
begin
  select * into context from private.round_context(round_balance.key_hash, round_balance.session_id);
  s := context.session;
  if context.problem is not null then
    return query select context.problem, null::json;
  elsif private.lock_wallet_mode(s.client_id, s.livemode, false) = 'seamless' then
    return query select 'wallet_call', private.wallet_call_json(null, 0, s.client_id, s.livemode,
                                                                private.wallet_request(s, 'balance', '{}'));
  else
    return query select 'ok', json_build_object('balance', private.balance_of(s, s.currency_code),
                                                'currency', s.currency_code);
  end if;
end;
$$;
revoke execute on function private.round_balance from public, anon, authenticated, service_role;

create function private.round_bet(
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
  began record;
  s public.game_session;
  round public.game_round;
  available numeric;
  ledger public.transaction;
  bet public.round_transaction;
  refusal text;
  seamless boolean;
begin
  select * into began from private.round_start(key_hash, session_id, transaction_id, request_fingerprint);
  if began.outcome is not null then
    return query select began.outcome, began.body, null::text;
    return;
  end if;
  s := began.session;
  if exists (select 1 from public.round_transaction t
             where t.provider_id = began.provider_id and t.kind = 'rollback'
               and t.related_transaction_id = round_bet.transaction_id) then
    return query select 'transaction_rolled_back', null::json, null::text;
    return;
  end if;
  -- A suspended or closed client's sessions take no new bets; wins, rollbacks and staff settlements
  -- of what was played still settle, so no player loses money. (A session outlives the key that
  -- made it: revoking a leaked key does not cut players off mid-game.)
  if not exists (select 1 from public.profile p where p.id = s.client_id and p.status = 'active') then
    return query select 'operator_suspended', null::json, null::text;
    return;
  end if;
  -- A session takes bets from its launch (within the launch window) until it is closed.
  if s.status = 'closed' then
    return query select 'session_closed', null::json, null::text;
    return;
  end if;
  if s.status = 'created' and s.expires_at <= now() then
    return query select 'session_expired', null::json, null::text;
    return;
  end if;
  -- The player's restrictions (the responsible-gaming migration), as they are now.
  refusal := private.player_refusal(s.client_id, s.livemode, s.player_id, s.id, s.currency_code, s.jurisdiction,
                                    s.created_at, amount);
  if refusal is not null then
    return query select refusal, null::json, null::text;
    return;
  end if;

  -- One first bet at a time per round: two at once must not both create it.
  perform pg_advisory_xact_lock(hashtextextended(began.provider_id::text || ' round ' || round_bet.round_id, 0));
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = round_bet.round_id
  for update;
  if round.id is not null and (round.session_id <> s.id) then
    return query select 'round_mismatch', null::json, null::text;
    return;
  end if;
  if round.status in ('closed', 'cancelled') then
    return query select 'round_closed', null::json, null::text;
    return;
  end if;
  seamless := coalesce(round.wallet_mode = 'seamless', began.seamless);

  -- The float's row lock (a test player's, for a test session), taken here so the check and the
  -- debit see one balance.
  if not seamless then
    available := private.lock_balance(s);
    if available is null and not s.livemode then
      return query select 'test_player_unknown', null::json, null::text;
      return;
    end if;
    refusal := case when not s.livemode then private.sandbox_refusal(s) end;
    if refusal is not null then
      return query select refusal, null::json, null::text;
      return;
    end if;
    if coalesce(available, 0) < amount then
      return query select 'insufficient_funds',
                          json_build_object('balance', coalesce(available, 0)::numeric(20, 4)::text, 'currency', s.currency_code),
                          null::text;
      return;
    end if;
  end if;
  -- A round's totals and a balance hold 16 digits before the point.
  if coalesce(round.total_bet, 0) + amount >= 1e16 then
    return query select 'amount_too_large', null::json, null::text;
    return;
  end if;
  -- The player's loss limits (the responsible-gaming migration), locked last: the bet that would
  -- cross one is refused, and counted otherwise.
  refusal := private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, amount, true);
  if refusal is not null then
    perform private.record_refusal(s.client_id, s.livemode, s.player_id, s.id, refusal, amount);
    return query select refusal, null::json, null::text;
    return;
  end if;

  if round.id is null then
    insert into public.game_round as r
      (provider_id, provider_round_id, client_id, livemode, session_id, player_id, game, currency_code, wallet_mode)
    values (began.provider_id, round_bet.round_id, s.client_id, s.livemode, s.id, s.player_id, s.game, s.currency_code,
            case when seamless then 'seamless' else 'transfer' end)
    returning r.* into round;
  end if;
  if s.status = 'created' then
    update public.game_session gs set status = 'active' where gs.id = s.id;
  end if;
  -- Seamless: the bet waits for the operator's debit, which finish_wallet_call applies to the round.
  if seamless then
    insert into public.round_transaction as t
      (provider_id, transaction_id, kind, client_id, round_id, amount, request_fingerprint)
    values (began.provider_id, transaction_id, 'bet', s.client_id, round.id, amount, request_fingerprint)
    returning t.* into bet;
    return query select * from private.queue_wallet_call(bet, s, 'debit', jsonb_build_object(
      'transaction_id', transaction_id, 'round_id', round_bet.round_id, 'amount', amount::numeric(20, 4)::text,
      'round_closed', round_closed));
    return;
  end if;

  ledger := private.move_money(s, s.currency_code, 'bet', -amount,
                                format('round %s, bet %s', round_bet.round_id, round_bet.transaction_id));
  update public.game_round r
  set total_bet = r.total_bet + amount,
      status = case when round_closed then 'closed' else r.status end,
      closed_at = case when round_closed then now() end
  where r.id = round.id;
  return query
    insert into public.round_transaction as t
      (provider_id, transaction_id, kind, client_id, round_id, amount, ledger_transaction_id, request_fingerprint,
       response_body)
    values (began.provider_id, transaction_id, 'bet', s.client_id, round.id, amount, ledger.id, request_fingerprint,
            private.round_answer(transaction_id, round_bet.round_id, ledger.balance_after::text, s.currency_code))
    returning 'ok'::text, t.response_body, ledger.balance_after::text;
end;
$$;
revoke execute on function private.round_bet from public, anon, authenticated, service_role;

-- A win settles the bet it names, or every unsettled bet of its round when it names none: either
-- way those bets can no longer be rolled back. An amount of 0 closes a lost round without money.
create function private.round_win(
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
  began record;
  s public.game_session;
  round public.game_round;
  bet public.round_transaction;
  ledger public.transaction;
  balance_after text;
  win public.round_transaction;
  available numeric;
  seamless boolean;
  held_by uuid;
begin
  select * into began from private.round_start(key_hash, session_id, transaction_id, request_fingerprint);
  if began.outcome is not null then
    return query select began.outcome, began.body, null::text;
    return;
  end if;
  s := began.session;

  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = round_win.round_id
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
    where t.provider_id = began.provider_id and t.transaction_id = bet_transaction_id
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
    -- session's, its test player's balance); its row lock is taken here, so the bound below holds.
    available := private.lock_balance(s, true);
    if available is null then
      return query select 'test_player_unknown', null::json, null::text;
      return;
    end if;
    if round.total_win + amount >= 1e16 or available + amount >= 1e16 then
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
  if held_by is not null then
    balance_after := case when seamless then private.round_wallet_balance(round.id) else private.balance_of(s, s.currency_code) end;
  elsif seamless then
    balance_after := null;
  elsif amount > 0 then
    ledger := private.move_money(s, s.currency_code, 'win', amount,
                                  format('round %s, win %s', round_win.round_id, round_win.transaction_id));
    balance_after := ledger.balance_after::text;
  else
    balance_after := private.balance_of(s, s.currency_code);
  end if;
  update public.game_round r
  set total_win = r.total_win + case when held_by is null then amount else 0 end,
      status = case when round_closed then 'closed' else r.status end,
      closed_at = case when round_closed then now() end
  where r.id = round.id;
  if amount > 0 and held_by is null then
    perform private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, -amount, false);
  end if;
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, related_id,
     ledger_transaction_id, request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'win', s.client_id, round.id, amount, bet_transaction_id, bet.id,
          ledger.id, request_fingerprint,
          case when not seamless or held_by is not null
               then private.round_answer(transaction_id, round_win.round_id, balance_after, s.currency_code) end)
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
create function private.round_rollback(
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
  if seamless and private.round_transaction_state(bet) = 'wallet_pending' then
    return query select 'transaction_pending', null::json, null::text;
    return;
  end if;

  if bet.id is not null and not bet.rolled_back and not seamless
     and coalesce(private.lock_balance(s), 0) + bet.amount >= 1e16 then
    return query select 'amount_too_large', null::json, null::text;
    return;
  end if;
  if bet.id is not null and not bet.rolled_back then
    if not seamless then
      ledger := private.move_money(s, round.currency_code, 'adjustment', bet.amount,
                                    format('round %s, rollback %s of bet %s', round.provider_round_id,
                                           round_rollback.transaction_id, rolled_back_transaction_id));
      balance_after := ledger.balance_after::text;
    end if;
    update public.round_transaction t set rolled_back = true where t.id = bet.id;
    perform private.count_loss(s.client_id, s.livemode, s.player_id, round.currency_code, -bet.amount, false);
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

-- ============================================================================================
-- The operator API's reads (GET /v3/rounds, GET /v3/rounds/{id}): the caller's rounds in its key's
-- mode, newest first, one call each with the key check; `authorized` false (nothing else set) for a
-- key that does not authenticate. JSON leaves as text, put into the response as it is.
-- ============================================================================================
create view private.round_entry as
  select r.id, r.client_id, r.livemode, r.status, r.player_id, r.session_id, r.opened_at,
         json_build_object(
           'id', r.id, 'round_id', r.provider_round_id, 'provider', gp.slug, 'game_id', gp.slug || ':' || r.game,
           'session_id', r.session_id, 'player_id', r.player_id, 'currency', r.currency_code,
           'wallet_mode', r.wallet_mode, 'status', r.status,
           'total_bet', r.total_bet::text, 'total_win', r.total_win::text, 'livemode', r.livemode,
           'opened_at', r.opened_at, 'closed_at', r.closed_at) as round
  from public.game_round r
  join public.game_provider gp on gp.id = r.provider_id;
revoke all on private.round_entry from public, anon, authenticated, service_role;

-- `opened_before` lists the rounds open too long (stuck): status open and opened before it.
create function private.list_rounds(
  key_hash text,
  status text,
  player_id text,
  session_id uuid,
  opened_before timestamptz,
  before_opened timestamptz,
  before_id uuid,
  page_size int
) returns table (authorized boolean, id uuid, "position" text, round text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select a.key_id is not null, r.id, to_char(r.opened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), r.round::text
  from (select 1) one
  left join private.authenticate_api_key(list_rounds.key_hash) a on true
  left join lateral (
    select r.id, r.opened_at, r.round
    from private.round_entry r
    where r.client_id = a.client_id and r.livemode = a.livemode
      and (list_rounds.status is null or r.status = list_rounds.status)
      and (list_rounds.player_id is null or r.player_id = list_rounds.player_id)
      and (list_rounds.session_id is null or r.session_id = list_rounds.session_id)
      and (list_rounds.opened_before is null or r.opened_at < list_rounds.opened_before)
      and (list_rounds.before_opened is null or (r.opened_at, r.id) < (list_rounds.before_opened, list_rounds.before_id))
    order by r.opened_at desc, r.id desc
    limit list_rounds.page_size
  ) r on true;
end;
$$;
revoke execute on function private.list_rounds from public, anon, authenticated, service_role;

-- One round with its transactions in the order they came; another client's or mode's is not_found.
-- A round with its transactions, as GET /v3/rounds/{id} shows it and the held-win events carry it.
create function private.round_detail(round_id uuid) returns jsonb
language plpgsql stable
set search_path = ''
as $$
begin
  return (
    select r.round::jsonb || jsonb_build_object('transactions', coalesce((
             select jsonb_agg(jsonb_build_object(
                      'transaction_id', t.transaction_id, 'type', t.kind, 'amount', t.amount::text,
                      'related_transaction_id', t.related_transaction_id, 'rolled_back', t.rolled_back,
                      'review', h.status, 'created_at', t.created_at) order by t.created_at, t.transaction_id)
             from public.round_transaction t
             left join public.held_win h on h.round_transaction_id = t.id
             where t.round_id = r.id), '[]'::jsonb))
    from private.round_entry r where r.id = round_detail.round_id);
end;
$$;
revoke execute on function private.round_detail from public, anon, authenticated, service_role;

create function private.read_round(key_hash text, round_id uuid)
returns table (outcome text, round text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select case when a.key_id is null then 'unauthorized' when r.id is null then 'not_found' else 'found' end,
         case when r.id is not null then private.round_detail(r.id)::text end
  from (select 1) one
  left join private.authenticate_api_key(read_round.key_hash) a on true
  left join private.round_entry r on r.id = read_round.round_id and r.client_id = a.client_id and r.livemode = a.livemode;
end;
$$;
revoke execute on function private.read_round from public, anon, authenticated, service_role;

-- ============================================================================================
-- Functions (RPC)
-- ============================================================================================

-- A round left open (a provider that crashed after a bet, say) is ended by staff: `close` keeps it as
-- played (its bets stand, its wins are paid); `cancel` gives back every bet nothing settled, each a
-- rollback in the round's transactions and an adjustment in the ledger (in seamless mode, a rollback
-- call queued to the operator's wallet), and is refused for a round that paid a win (close it
-- instead). Neither while a bet waits for the operator's debit. Resolving a round the same way again
-- returns it unchanged.
create function private.resolve_round(round_id uuid, resolution text)
returns public.game_round
language plpgsql
-- security definer: staff may not write rounds or their transactions themselves (nobody writes them
-- through the API); this is the one way they end one.
security definer
set search_path = ''
as $$
declare
  round public.game_round;
  bet public.round_transaction;
  ledger public.transaction;
  undo public.round_transaction;
  s public.game_session;
  seamless boolean;
  resolved_status text := case resolution when 'close' then 'closed' when 'cancel' then 'cancelled' end;
begin
  perform private.require_staff('resolve rounds');
  if resolved_status is null then
    raise exception 'resolution must be close or cancel' using errcode = '22023';
  end if;
  select * into round from public.game_round r where r.id = resolve_round.round_id for update;
  if round.id is null then
    raise exception 'no round %', resolve_round.round_id using errcode = 'P0002';
  end if;
  if round.status <> 'open' then
    if round.status = resolved_status then
      return round;
    end if;
    raise exception 'the round is already %', round.status using errcode = '55000';
  end if;
  if private.debit_pending(round.id) then
    raise exception 'a bet of the round waits for the operator''s wallet: try again in a minute' using errcode = '55000';
  end if;
  seamless := round.wallet_mode = 'seamless';
  select * into s from public.game_session gs where gs.id = round.session_id;
  if resolution = 'cancel' then
    -- A win (even of 0) settled its bets: what it settled stands.
    if round.total_win > 0 or exists (select 1 from public.round_transaction t where t.round_id = round.id and t.settled) then
      raise exception 'a round a win has settled cannot be cancelled: close it' using errcode = '55000';
    end if;
    for bet in
      select * from public.round_transaction t
      where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back and not t.settled
      order by t.created_at
      for update
    loop
      if not seamless then
        ledger := private.move_money(s, round.currency_code, 'adjustment', bet.amount,
                                      format('round %s cancelled by staff: bet %s given back', round.provider_round_id,
                                             bet.transaction_id));
      end if;
      update public.round_transaction t set rolled_back = true where t.id = bet.id;
      perform private.count_loss(round.client_id, round.livemode, round.player_id, round.currency_code, -bet.amount, false);
      insert into public.round_transaction as t
        (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, related_id,
         ledger_transaction_id, request_fingerprint, response_body)
      values (round.provider_id, 'cgs-cancel-' || bet.id, 'rollback', round.client_id, round.id, bet.amount,
              bet.transaction_id, bet.id, ledger.id, encode(extensions.digest('cgs-cancel-' || bet.id, 'sha256'), 'hex'),
              case when not seamless then private.round_answer('cgs-cancel-' || bet.id, round.provider_round_id,
                                                               ledger.balance_after::text, round.currency_code) end)
      returning t.* into undo;
      if seamless then
        perform private.queue_wallet_call(undo, s, 'rollback', jsonb_build_object(
          'transaction_id', undo.transaction_id, 'rolled_back_transaction_id', bet.transaction_id,
          'round_id', round.provider_round_id, 'amount', bet.amount::numeric(20, 4)::text), claimed => false);
      end if;
    end loop;
  end if;
  -- Closed by staff, its bets stand for good: settled, so no rollback can reach them later.
  if resolved_status = 'closed' then
    update public.round_transaction t set settled = true where t.round_id = round.id and t.kind = 'bet' and not t.rolled_back;
  end if;
  update public.game_round r
  set status = resolved_status,
      total_bet = case when resolved_status = 'closed' then r.total_bet else 0 end,
      closed_at = now()
  where r.id = round.id
  returning r.* into round;
  return round;
end;
$$;
revoke execute on function private.resolve_round from public, anon, authenticated;
grant execute on function private.resolve_round to staff, service_role;

-- Staff end a stuck round (GET /v3/rounds?status=open&opened_before=... lists them): see
-- private.resolve_round.
create function public.resolve_round(round_id uuid, resolution text)
returns public.game_round
language sql
set search_path = ''
as $$
  select * from private.resolve_round(resolve_round.round_id, resolve_round.resolution);
$$;
comment on function public.resolve_round(uuid, text) is
  'Staff: ends a round left open, `close` (as played) or `cancel` (its unsettled bets given back).';
revoke execute on function public.resolve_round(uuid, text) from public, anon;
grant execute on function public.resolve_round(uuid, text) to authenticated, staff, service_role;

-- Staff decide a held win: `release` pays it, in the round's own wallet (transfer: the float, or
-- the test player's balance; seamless: a credit queued to the operator, sent by the runner), and
-- counts it against the player's loss; `reject` never pays it. The round's bets stay settled
-- either way. Each is told (`round.win_released`, `round.win_rejected`). Deciding the same way
-- again returns it unchanged; the other way is refused.
create function private.review_win(win_id uuid, decision text, reason text default null)
returns public.held_win
language plpgsql
-- security definer: staff may not write held wins, rounds or the float themselves; this is the one
-- way they decide a held win.
security definer
set search_path = ''
as $$
declare
  held public.held_win;
  round public.game_round;
  win public.round_transaction;
  s public.game_session;
  ledger public.transaction;
  decided text := case decision when 'release' then 'released' when 'reject' then 'rejected' end;
begin
  perform private.require_staff('review held wins');
  if decided is null then
    raise exception 'decision must be release or reject' using errcode = '22023';
  end if;
  -- Locks in the engine's order: the round, then its transactions, then the float.
  select * into held from public.held_win h where h.round_transaction_id = review_win.win_id;
  if held.round_transaction_id is null then
    raise exception 'no held win %', review_win.win_id using errcode = 'P0002';
  end if;
  select * into round from public.game_round r where r.id = held.round_id for update;
  select * into held from public.held_win h where h.round_transaction_id = review_win.win_id for update;
  if held.status <> 'held' then
    if held.status = decided then
      return held;
    end if;
    raise exception 'the win is already %', held.status using errcode = '55000';
  end if;
  if decided = 'released' then
    if round.total_win + held.amount >= 1e16 then
      raise exception 'the round''s wins would pass 16 digits before the point' using errcode = '22003';
    end if;
    select * into win from public.round_transaction t where t.id = held.round_transaction_id;
    select * into s from public.game_session gs where gs.id = round.session_id;
    if round.wallet_mode = 'seamless' then
      perform private.queue_wallet_call(win, s, 'credit', jsonb_build_object(
        'transaction_id', win.transaction_id, 'round_id', round.provider_round_id,
        'amount', held.amount::numeric(20, 4)::text, 'round_closed', round.status <> 'open'), claimed => false);
    else
      if coalesce(private.lock_balance(s, true), 0) + held.amount >= 1e16 then
        raise exception 'the balance would pass 16 digits before the point' using errcode = '22003';
      end if;
      ledger := private.move_money(s, round.currency_code, 'win', held.amount,
                                    format('round %s, win %s released by staff', round.provider_round_id, win.transaction_id));
      update public.round_transaction t set ledger_transaction_id = ledger.id where t.id = win.id;
    end if;
    update public.game_round r set total_win = r.total_win + held.amount where r.id = round.id;
    perform private.count_loss(round.client_id, round.livemode, round.player_id, round.currency_code, -held.amount, false);
  end if;
  update public.held_win h
  set status = decided, decided_at = now(), decided_by = private.uid(), reason = review_win.reason
  where h.round_transaction_id = held.round_transaction_id
  returning h.* into held;
  perform private.emit_event(held.client_id, held.livemode, 'round.win_' || decided, private.round_detail(round.id));
  return held;
end;
$$;
revoke execute on function private.review_win from public, anon, authenticated;
grant execute on function private.review_win to staff, service_role;

-- Staff release or reject a held win (public.held_win lists them): see private.review_win.
create function public.review_win(win_id uuid, decision text, reason text default null)
returns public.held_win
language sql
set search_path = ''
as $$
  select * from private.review_win(review_win.win_id, review_win.decision, review_win.reason);
$$;
comment on function public.review_win(uuid, text, text) is
  'Staff: decides a held win, `release` (paid, in the round''s wallet) or `reject` (never paid).';
revoke execute on function public.review_win(uuid, text, text) from public, anon;
grant execute on function public.review_win(uuid, text, text) to authenticated, staff, service_role;

-- ============================================================================================
-- Events: a round closed or cancelled, and rounds left open too long
-- ============================================================================================

create function private.event_for_round() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.emit_event(new.client_id, new.livemode, 'round.' || new.status,
    (select r.round::jsonb from private.round_entry r where r.id = new.id));
  return null;
end;
$$;
revoke execute on function private.event_for_round() from public, anon, authenticated, service_role;

create trigger game_round_event
  after update of status on public.game_round
  for each row when (old.status = 'open' and new.status in ('closed', 'cancelled'))
  execute function private.event_for_round();

-- Rounds open longer than the setting `rounds.stuck_after_minutes` (60 by default) are reported
-- once each, as `round.stuck`, so the operator and staff can see to them (resolve_round). The
-- delivery runner asks at each of its rounds; a batch at a time, any number of runners at once.
create function private.report_stuck_rounds(batch int default 100) returns int
language plpgsql
set search_path = ''
as $$
declare
  after interval := make_interval(mins => coalesce(
    (select (s.value #>> '{}')::int from public.app_setting s where s.key = 'rounds.stuck_after_minutes'), 60));
  reported int;
begin
  with stuck as (
    select r.id from public.game_round r
    where r.status = 'open' and r.stuck_reported_at is null and r.opened_at < now() - after
    order by r.opened_at
    limit report_stuck_rounds.batch
    for update skip locked
  ), marked as (
    update public.game_round r set stuck_reported_at = now() from stuck where r.id = stuck.id
    returning r.id, r.client_id, r.livemode
  )
  select count(private.emit_event(m.client_id, m.livemode, 'round.stuck', (select e.round::jsonb from private.round_entry e where e.id = m.id)))::int
  into reported from marked m;
  return reported;
end;
$$;
revoke execute on function private.report_stuck_rounds from public, anon, authenticated, service_role;
