-- The sportsbook in seamless mode (issue 35; ../shared/design/bonuses-and-sportsbook.md): a bet of
-- an operator in seamless mode moves no float; its money is calls to the operator's wallet, queued
-- in public.wallet_call in the same transaction as the bet's change (the outbox of the casino's
-- seamless calls, 20261121001400_seamless_wallet.sql), each naming the bet (`bet_id`, and `round_id`
-- the same id):
-- - The stake is a `debit`, made at once by the placement and never retried. Accepted, the bet
--   stands (sportsbook.bet.placed for a one-phase bet); refused, it is undone as if never placed
--   (the same bet_id later is judged again); without an answer in time, or left unfinished by a
--   caller that died (the runner fails it), the bet is discarded (reason `wallet_failed`) and a
--   compensating `rollback` is queued, in case the operator applied the debit after all.
-- - A payout's rise is a `credit`, a fall (a clawback) a `debit` whose transaction_id is the
--   settlement's (or unsettlement's); a discard gives the stake back with a `rollback` of the
--   stake's debit. Each is made at once, then retried by the delivery runner on the webhook
--   schedule until the operator takes it (as a casino credit is: after the last retry it is
--   `failed`, wallet_call.failed is sent, and staff can send it again). The provider gets the
--   answer once the operator took it (`wallet_pending` before: the same call again gets it).
--   Internally a clawback's wallet_call.action is `clawback` (its request's action is `debit`), so
--   the casino's rules for a stake debit (never retried; failed by the runner once its lease ends)
--   never reach it.
-- - A clawback the operator's wallet refuses for funds (`insufficient_funds`) is owed, as one the
--   float cannot cover is in transfer mode: the bet's paid and owed grow by it (paid - owed =
--   payout holds throughout), a `clawback_refused` line joins its history, sportsbook.clawback.pending
--   is sent, and the call is done (accepted, its last_error saying so: never sent again, so never
--   taken twice). Owed clawbacks are taken from the player's next payouts of the same wallet mode
--   (a seamless payout's credit is less by what it withheld).
-- - A bet settles in the wallet mode it was placed in (game_round.wallet_mode), whatever the
--   operator's mode is since. While a bet's stake debit waits for the operator, every other call
--   on it is refused `transaction_pending` (retryable).
-- - The bet's answers are the transfer mode's; their balance is the operator's, as its wallet
--   answered the call, or null for a call that moved no money (seamless mode knows no balance then).
--
-- Replaces:
-- - private.finish_wallet_call (20261121001400_seamless_wallet.sql): a call carrying a sportsbook
--   transaction is finished by private.sportsbook_finish_call; the rest is unchanged.
-- - wallet_call_action_check (the same migration): the action `clawback`.
-- - private.sportsbook_move, _give_back, _place, _commit, _discard, _settle, _unsettle, _close and
--   _discard_expired (20261126000600_sportsbook.sql), whose rule was: a placement in seamless mode
--   is refused (wallet_mode_unsupported), and every movement is the float's (or the test player's).
--   Their transfer-mode rules are unchanged, but one: a player's owed clawbacks are taken from its
--   payouts of the same wallet mode only.

alter table public.wallet_call
  drop constraint wallet_call_action_check,
  add constraint wallet_call_action_check check (action in ('debit', 'credit', 'rollback', 'clawback')) not valid;
alter table public.wallet_call validate constraint wallet_call_action_check;

-- ============================================================================================
-- Helper functions
-- ============================================================================================

-- The fields of a call carrying a bet's money: the provider's transaction, the bet (as `round_id`
-- and `bet_id`, both prefixed with the provider's slug by private.wallet_request or here) and the
-- amount.
-- plpgsql, as the engine's other helpers (20261127000900_plpgsql_helpers.sql): a language sql
-- function with its own search_path is planned again at every call from plpgsql.
create function private.sportsbook_call_fields(round public.game_round, transaction_id text, amount numeric)
returns jsonb
language plpgsql stable
set search_path = ''
as $$
begin
  return (select jsonb_build_object('transaction_id', transaction_id, 'round_id', round.provider_round_id,
                                    'bet_id', gp.slug || ':' || round.provider_round_id, 'amount', amount::numeric(20, 4)::text)
          from public.game_provider gp where gp.id = round.provider_id);
end;
$$;
revoke execute on function private.sportsbook_call_fields from public, anon, authenticated, service_role;

-- The balance a call on a bet answers when it moves no money: the float's (or test player's) in
-- transfer mode; none in seamless mode.
create function private.sportsbook_balance(round public.game_round, s public.game_session) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  return case when round.wallet_mode = 'seamless' then null else private.balance_of(s, round.currency_code) end;
end;
$$;
revoke execute on function private.sportsbook_balance from public, anon, authenticated, service_role;

-- The answer of a call whose wallet call the operator has just taken (or, for a clawback, refused
-- for funds: `owed_extra`, now owed), as the transfer mode would have answered it then: a
-- settlement or unsettlement from its line in the bet's history (the bet may have moved on since),
-- a placement or discard from the bet (nothing changes it while its call waits).
create function private.sportsbook_call_answer(
  t public.round_transaction, round public.game_round, bet public.sportsbook_bet, balance text, owed_extra numeric
) returns json
language plpgsql stable
set search_path = ''
as $$
begin
  return case
    when t.kind in ('sportsbook_settle', 'sportsbook_unsettle') then (
      select json_build_object(
        'transaction_id', t.transaction_id, 'bet_id', round.provider_round_id,
        'status', case e->>'type' when 'settlement' then 'settled' else 'open' end, 'result', e->>'result',
        'payout', e->>'payout',
        'paid', ((e->>'payout')::numeric + (e->>'owed')::numeric + owed_extra)::numeric(20, 4)::text,
        'owed', ((e->>'owed')::numeric + owed_extra)::numeric(20, 4)::text, 'balance', balance, 'currency', round.currency_code)
      from jsonb_array_elements(bet.settlements) e
      where e->>'transaction_id' = t.transaction_id and e->>'type' in ('settlement', 'unsettlement')
      limit 1)
    else private.sportsbook_answer(t.transaction_id, round.provider_round_id, bet.status, bet, balance, round.currency_code)
  end;
end;
$$;
revoke execute on function private.sportsbook_call_answer from public, anon, authenticated, service_role;

-- Queues the call that carries a settlement's or unsettlement's movement (seamless), for the caller
-- to make at once: a `credit`, or a clawback (a `debit` to the operator).
create function private.sportsbook_queue_move(
  t public.round_transaction, s public.game_session, round public.game_round, action text, amount numeric
) returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
begin
  return query
  select q.outcome, q.body
  from private.queue_wallet_call(t, s, action, private.sportsbook_call_fields(round, t.transaction_id, amount)
                                 || case when action = 'clawback' then '{"action": "debit"}'::jsonb else '{}'::jsonb end) q;
end;
$$;
revoke execute on function private.sportsbook_queue_move from public, anon, authenticated, service_role;

-- After an attempt of a call carrying a sportsbook transaction (from private.finish_wallet_call):
-- what the operator answered, `accepted` (with its balance), `refused` (with its code and balance)
-- or `failed` (with why). Locks in the sportsbook's order: the bet's round, the player's debts, the
-- call, the bet. Outcomes as finish_wallet_call's: ok (body: the call's answer, replayed to
-- repeats from now on), insufficient_funds or wallet_refused (a stake refused: the bet undone;
-- body: the problem's members), wallet_failed (a stake unanswered: the bet discarded),
-- wallet_pending (a payout, clawback or discard to be retried); a stale attempt answers where its
-- transaction stands.
create function private.sportsbook_finish_call(
  call_id uuid, attempt int, answer text, wallet_balance text, wallet_code text, error text
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  call public.wallet_call;
  t public.round_transaction;
  round public.game_round;
  bet public.sportsbook_bet;
  wait interval;
  state text;
  amount numeric;
  accepted_balance numeric(20, 4) := case when answer = 'accepted' then wallet_balance::numeric end;
begin
  select * into t from public.round_transaction x
  where x.id = (select c.round_transaction_id from public.wallet_call c where c.id = call_id);
  select * into round from public.game_round r where r.id = t.round_id for update;
  perform private.sportsbook_lock_debts(round);
  select * into call from public.wallet_call c where c.id = call_id for update;
  if call.id is null then
    return query select 'stale', null::json, null::text;
    return;
  end if;
  if call.status <> 'pending' or call.attempts <> attempt then
    select * into t from public.round_transaction x where x.id = t.id;
    state := private.round_transaction_state(t);
    return query select case state when 'replayed' then 'ok' else state end, t.response_body, null::text;
    return;
  end if;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id for update;
  amount := (call.request->>'amount')::numeric;

  if answer = 'accepted' then
    update public.wallet_call c set status = 'accepted', balance = accepted_balance, last_error = null, completed_at = now()
    where c.id = call.id;
    -- A failed stake's compensating rollback answers nobody; every other call is its transaction's
    -- answer.
    if t.response_body is null and not (t.kind = 'sportsbook_place' and call.action = 'rollback') then
      update public.round_transaction x
      set response_body = private.sportsbook_call_answer(t, round, bet, accepted_balance::text, 0)
      where x.id = t.id
      returning x.* into t;
    end if;
    -- The stake taken: a one-phase bet stands now (a two-phase one when committed).
    if t.kind = 'sportsbook_place' and call.action = 'debit' and bet.status = 'open' then
      perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.bet.placed', private.sportsbook_bet_json(round.id));
    end if;
    return query select 'ok', t.response_body, accepted_balance::text;
    return;
  end if;

  if call.action = 'debit' and answer = 'refused' then
    -- The stake refused: as if never placed, so the same bet later is judged again.
    perform private.count_loss(bet.client_id, bet.livemode, bet.player_id, bet.currency_code, -t.amount, false);
    delete from public.round_transaction x where x.id = t.id;
    delete from public.game_round r where r.id = round.id;
    return query select case when wallet_code = 'insufficient_funds' then 'insufficient_funds' else 'wallet_refused' end,
                        json_build_object('balance', wallet_balance, 'currency', call.request->>'currency', 'wallet_code', wallet_code),
                        null::text;
    return;
  end if;

  if call.action = 'debit' then
    -- The stake unanswered: the bet is discarded, and the operator told to undo the debit if it made it.
    update public.wallet_call c set status = 'failed', last_error = left(error, 500), completed_at = now() where c.id = call.id;
    update public.round_transaction x set rolled_back = true where x.id = t.id;
    perform private.count_loss(bet.client_id, bet.livemode, bet.player_id, bet.currency_code, -t.amount, false);
    update public.sportsbook_bet b
    set status = 'discarded',
        settlements = b.settlements || jsonb_build_object('type', 'discard', 'transaction_id', t.transaction_id,
                                                          'reason', 'wallet_failed', 'moved', '0.0000', 'created_at', now())
    where b.round_id = bet.round_id;
    update public.game_round r set status = 'cancelled', total_bet = 0 where r.id = round.id;
    perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.bet.discarded',
                               private.sportsbook_bet_json(round.id) || jsonb_build_object('reason', 'wallet_failed'));
    insert into public.wallet_call (client_id, livemode, round_transaction_id, action, request, attempts)
    values (call.client_id, call.livemode, t.id, 'rollback',
            call.request || jsonb_build_object('action', 'rollback', 'transaction_id', 'cgs-undo-' || call.id,
                                               'rolled_back_transaction_id', call.request->'transaction_id'),
            0);
    return query select 'wallet_failed', null::json, null::text;
    return;
  end if;

  if call.action = 'clawback' and answer = 'refused' and wallet_code = 'insufficient_funds' then
    -- A clawback the player's balance at the operator cannot cover: owed, never dropped, and this
    -- call done (never sent again, so never taken twice).
    update public.wallet_call c
    set status = 'accepted', balance = wallet_balance::numeric, last_error = 'refused: insufficient_funds (owed)',
        completed_at = now()
    where c.id = call.id;
    update public.sportsbook_bet b
    set paid = b.paid + amount, owed = b.owed + amount,
        settlements = b.settlements || jsonb_build_object(
          'type', 'clawback_refused', 'transaction_id', t.transaction_id, 'moved', amount::numeric(20, 4)::text,
          'owed', (b.owed + amount)::numeric(20, 4)::text, 'created_at', now())
    where b.round_id = bet.round_id
    returning b.* into bet;
    if t.response_body is null then
      update public.round_transaction x
      set response_body = private.sportsbook_call_answer(t, round, bet, wallet_balance::numeric(20, 4)::text, amount)
      where x.id = t.id
      returning x.* into t;
    end if;
    perform private.sportsbook_report_owed(bet, round, amount);
    return query select 'ok', t.response_body, wallet_balance::numeric(20, 4)::text;
    return;
  end if;

  -- A payout, clawback or discard the operator did not take: again later, until the schedule runs out.
  wait := private.retry_delay(call.attempts);
  update public.wallet_call c
  set last_error = left(coalesce(error, 'refused: ' || wallet_code), 500),
      status = case when wait is null then 'failed' else 'pending' end,
      completed_at = case when wait is null then now() end,
      next_attempt_at = case when wait is null then c.next_attempt_at else now() + wait end
  where c.id = call.id
  returning c.* into call;
  if wait is null then
    perform private.emit_event(call.client_id, call.livemode, 'wallet_call.failed', jsonb_build_object(
      'id', call.id, 'action', call.request->>'action', 'transaction_id', call.request->>'transaction_id',
      'round_id', call.request->>'round_id', 'amount', call.request->>'amount', 'attempts', call.attempts,
      'last_error', call.last_error));
  end if;
  return query select 'wallet_pending', null::json, null::text;
end;
$$;
revoke execute on function private.sportsbook_finish_call from public, anon, authenticated, service_role;

-- Unchanged but for the sportsbook's calls, handed to private.sportsbook_finish_call.
create or replace function private.finish_wallet_call(
  call_id uuid, attempt int, answer text, wallet_balance text default null, wallet_code text default null,
  error text default null
) returns table (outcome text, body json, balance text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  call public.wallet_call;
  t public.round_transaction;
  round public.game_round;
  wait interval;
  state text;
  accepted_balance numeric(20, 4) := case when answer = 'accepted' then wallet_balance::numeric end;
begin
  select * into t from public.round_transaction x
  where x.id = (select c.round_transaction_id from public.wallet_call c where c.id = call_id);
  -- A sportsbook bet's call: the sportsbook's rules (private.sportsbook_finish_call).
  if t.kind like 'sportsbook\_%' then
    return query select * from private.sportsbook_finish_call(call_id, attempt, answer, wallet_balance, wallet_code, error);
    return;
  end if;
  select * into round from public.game_round r where r.id = t.round_id for update;
  select * into call from public.wallet_call c where c.id = call_id for update;
  if call.id is null then
    return query select 'stale', null::json, null::text;
    return;
  end if;
  if call.status <> 'pending' or call.attempts <> attempt then
    select * into t from public.round_transaction x where x.id = t.id;
    state := private.round_transaction_state(t);
    return query select case state when 'replayed' then 'ok' else state end, t.response_body, null::text;
    return;
  end if;

  if answer = 'accepted' then
    update public.wallet_call c set status = 'accepted', balance = accepted_balance, last_error = null, completed_at = now()
    where c.id = call.id;
    -- The bet stands: in its round even if another bet closed the round while this one waited.
    if call.action = 'debit' then
      update public.game_round r
      set total_bet = r.total_bet + t.amount,
          status = case when (call.request->>'round_closed')::boolean then 'closed' else r.status end,
          closed_at = case when (call.request->>'round_closed')::boolean then coalesce(r.closed_at, now()) else r.closed_at end
      where r.id = round.id;
    end if;
    -- A bet's compensating rollback answers nobody, and a released held win was answered when it
    -- was held; every other call is its transaction's answer.
    if t.response_body is null and not (t.kind = 'bet' and call.action = 'rollback') then
      update public.round_transaction x
      set response_body = private.round_answer(t.transaction_id, round.provider_round_id, accepted_balance::text,
                                               call.request->>'currency')
      where x.id = t.id
      returning x.* into t;
    end if;
    return query select 'ok', t.response_body, accepted_balance::text;
    return;
  end if;

  if call.action = 'debit' and answer = 'refused' then
    -- Refused: as if never made, so the same bet later is judged again.
    delete from public.round_transaction x where x.id = t.id;
    perform private.count_loss(call.client_id, call.livemode, call.request->>'player_id', call.request->>'currency', -t.amount, false);
    delete from public.game_round r
    where r.id = round.id and not exists (select 1 from public.round_transaction x where x.round_id = round.id);
    return query select case when wallet_code = 'insufficient_funds' then 'insufficient_funds' else 'wallet_refused' end,
                        json_build_object('balance', wallet_balance, 'currency', call.request->>'currency', 'wallet_code', wallet_code),
                        null::text;
    return;
  end if;

  if call.action = 'debit' then
    update public.wallet_call c set status = 'failed', last_error = left(error, 500), completed_at = now() where c.id = call.id;
    update public.round_transaction x set rolled_back = true where x.id = t.id;
    perform private.count_loss(call.client_id, call.livemode, call.request->>'player_id', call.request->>'currency', -t.amount, false);
    -- Nothing left at stake and nothing won: the round is cancelled.
    update public.game_round r set status = 'cancelled', closed_at = now()
    where r.id = round.id and r.total_win = 0 and r.status = 'open'
      and not exists (select 1 from public.round_transaction x where x.round_id = round.id and x.kind = 'bet' and not x.rolled_back);
    insert into public.wallet_call (client_id, livemode, round_transaction_id, action, request, attempts)
    values (call.client_id, call.livemode, t.id, 'rollback',
            (call.request - 'round_closed') || jsonb_build_object('action', 'rollback', 'transaction_id', 'cgs-undo-' || call.id,
                                                                  'rolled_back_transaction_id', call.request->'transaction_id'),
            0);
    return query select 'wallet_failed', null::json, null::text;
    return;
  end if;

  -- A credit or rollback the operator did not take: again later, until the schedule runs out.
  wait := private.retry_delay(call.attempts);
  update public.wallet_call c
  set last_error = left(coalesce(error, 'refused: ' || wallet_code), 500),
      status = case when wait is null then 'failed' else 'pending' end,
      completed_at = case when wait is null then now() end,
      next_attempt_at = case when wait is null then c.next_attempt_at else now() + wait end
  where c.id = call.id
  returning c.* into call;
  if wait is null then
    perform private.emit_event(call.client_id, call.livemode, 'wallet_call.failed', jsonb_build_object(
      'id', call.id, 'action', call.action, 'transaction_id', call.request->>'transaction_id',
      'round_id', call.request->>'round_id', 'amount', call.request->>'amount', 'attempts', call.attempts,
      'last_error', call.last_error));
  end if;
  return query select 'wallet_pending', null::json, null::text;
end;
$$;
revoke execute on function private.finish_wallet_call from public, anon, authenticated, service_role;

-- ============================================================================================
-- The engine's calls, as the sportsbook migration's, with seamless mode
-- ============================================================================================

drop function private.sportsbook_move(public.game_round, public.sportsbook_bet, public.game_session, numeric, text, jsonb);
create function private.sportsbook_move(
  round public.game_round, bet public.sportsbook_bet, s public.game_session, new_payout numeric, transaction_id text,
  entry jsonb, out refusal text, out moved_bet public.sportsbook_bet, out ledger_id uuid, out balance text,
  out owed_added numeric, out call_action text, out call_amount numeric
)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  delta numeric := new_payout - bet.payout;
  forgiven numeric := 0;
  credit numeric := 0;
  taken numeric := 0;
  withheld numeric := 0;
  available numeric;
  debtor public.sportsbook_bet;
  take numeric;
  takes jsonb := '[]';
  item jsonb;
  movement public.transaction;
  seamless boolean := round.wallet_mode = 'seamless';
begin
  owed_added := 0;
  -- Seamless: the operator's wallet holds the balance, and answers the call this makes.
  if seamless then
    null;
  elsif s.livemode then
    select w.balance into available from public.wallet w where w.client_id = s.client_id and w.currency_code = round.currency_code;
  else
    select p.balance into available from public.sandbox_player p
    where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = round.currency_code;
  end if;
  if delta <> 0 and available is null and not s.livemode and not seamless then
    refusal := 'test_player_unknown';
    return;
  end if;
  if delta > 0 then
    forgiven := least(delta, bet.owed);
    credit := delta - forgiven;
    if credit > 0 and coalesce(available, 0) + credit >= 1e16 then
      refusal := 'amount_too_large';
      return;
    end if;
  elsif delta < 0 then
    -- Seamless: the whole clawback is asked of the operator's wallet; what it refuses for funds is
    -- owed then (private.sportsbook_finish_call).
    taken := case when seamless then -delta else least(-delta, greatest(coalesce(available, 0), 0)) end;
    owed_added := -delta - taken;
  end if;
  -- The player's owed clawbacks of other bets come first out of what this one pays.
  if credit > 0 then
    for debtor in
      select * from public.sportsbook_bet b
      where b.client_id = bet.client_id and b.livemode = bet.livemode and b.player_id = bet.player_id
        and b.currency_code = bet.currency_code and b.owed > 0 and b.round_id <> bet.round_id
        and exists (select 1 from public.game_round r where r.id = b.round_id and r.wallet_mode = round.wallet_mode)
      order by b.placed_at, b.round_id
      for update
    loop
      exit when withheld = credit;
      take := least(credit - withheld, debtor.owed);
      withheld := withheld + take;
      takes := takes || jsonb_build_object('round_id', debtor.round_id, 'amount', take);
    end loop;
  end if;
  -- The loss tally counts the change of what the bet pays, as it comes; then the balance, last.
  if delta <> 0 then
    perform private.count_loss(bet.client_id, bet.livemode, bet.player_id, bet.currency_code, -delta, false);
  end if;
  if seamless then
    -- One call: the payout less what it withheld for other bets' owed clawbacks, or the clawback.
    if credit - withheld > 0 then
      call_action := 'credit';
      call_amount := credit - withheld;
    elsif taken > 0 then
      call_action := 'clawback';
      call_amount := taken;
    end if;
  elsif credit > 0 then
    if s.livemode and available is null then
      insert into public.wallet (client_id, currency_code) values (s.client_id, round.currency_code)
      on conflict on constraint wallet_client_id_currency_code_key do nothing;
    end if;
    movement := private.move_money(s, round.currency_code, 'win', credit,
                                   format('sportsbook bet %s, payout %s', round.provider_round_id, transaction_id));
    ledger_id := movement.id;
    balance := movement.balance_after::text;
  elsif taken > 0 then
    movement := private.move_money(s, round.currency_code, 'adjustment', -taken,
                                   format('sportsbook bet %s, clawback %s', round.provider_round_id, transaction_id));
    ledger_id := movement.id;
    balance := movement.balance_after::text;
  end if;
  for item in select * from jsonb_array_elements(takes) loop
    take := (item->>'amount')::numeric;
    if not seamless then
      movement := private.move_money(s, round.currency_code, 'adjustment', -take,
        format('sportsbook bet %s, owed clawback taken from the payout %s of bet %s',
               (select r.provider_round_id from public.game_round r where r.id = (item->>'round_id')::uuid),
               transaction_id, round.provider_round_id));
      balance := movement.balance_after::text;
    end if;
    update public.sportsbook_bet b
    set paid = b.paid - take, owed = b.owed - take,
        settlements = b.settlements || jsonb_build_object(
          'type', 'recovery', 'transaction_id', transaction_id, 'from_bet_id', round.provider_round_id,
          'moved', (-take)::numeric(20, 4)::text, 'owed', (b.owed - take)::text, 'created_at', now())
    where b.round_id = (item->>'round_id')::uuid;
  end loop;
  if balance is null and not seamless then
    balance := private.balance_of(s, round.currency_code);
  end if;
  update public.sportsbook_bet b
  set payout = new_payout,
      paid = b.paid + credit - taken,
      owed = b.owed - forgiven + owed_added,
      settlements = b.settlements || (entry || jsonb_build_object(
        'payout', new_payout::numeric(20, 4)::text, 'moved', (credit - taken)::numeric(20, 4)::text,
        'withheld', withheld::numeric(20, 4)::text, 'owed', (b.owed - forgiven + owed_added)::numeric(20, 4)::text,
        'created_at', now()))
  where b.round_id = bet.round_id
  returning b.* into moved_bet;
  update public.game_round r set total_win = new_payout where r.id = round.id;
end;
$$;
revoke execute on function private.sportsbook_move from public, anon, authenticated, service_role;

create or replace function private.sportsbook_give_back(
  round public.game_round, bet public.sportsbook_bet, transaction_id text, reason text,
  out refusal text, out ledger_id uuid, out balance text
)
language plpgsql
set search_path = ''
as $$
declare
  s public.game_session;
  movement public.transaction;
  available numeric;
begin
  select * into s from public.game_session gs where gs.id = round.session_id;
  -- Seamless: the caller queues the rollback of the stake's debit; no balance here.
  if round.wallet_mode = 'seamless' then
    null;
  elsif s.livemode then
    select w.balance into available from public.wallet w where w.client_id = s.client_id and w.currency_code = round.currency_code;
  else
    select p.balance into available from public.sandbox_player p
    where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = round.currency_code;
    if available is null then
      refusal := 'test_player_unknown';
      return;
    end if;
  end if;
  if coalesce(available, 0) + bet.stake >= 1e16 then
    refusal := 'amount_too_large';
    return;
  end if;
  perform private.count_loss(bet.client_id, bet.livemode, bet.player_id, bet.currency_code, -bet.stake, false);
  if round.wallet_mode <> 'seamless' then
    movement := private.move_money(s, round.currency_code, 'adjustment', bet.stake,
                                   format('sportsbook bet %s, discarded (%s): stake given back', round.provider_round_id, transaction_id));
    ledger_id := movement.id;
    balance := movement.balance_after::text;
  end if;
  update public.sportsbook_bet b
  set status = 'discarded',
      settlements = b.settlements || jsonb_build_object('type', 'discard', 'transaction_id', transaction_id,
                                                        'reason', reason, 'moved', bet.stake::text, 'created_at', now())
  where b.round_id = bet.round_id;
  update public.game_round r set status = 'cancelled', total_bet = 0 where r.id = round.id;
  perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.bet.discarded',
                             private.sportsbook_bet_json(round.id) || jsonb_build_object('reason', reason));
end;
$$;
revoke execute on function private.sportsbook_give_back from public, anon, authenticated, service_role;

create or replace function private.sportsbook_place(
  key_hash text, session_id uuid, bet_id text, transaction_id text, amount numeric, odds numeric,
  potential_payout numeric, selections jsonb, two_phase boolean, request_fingerprint text
) returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  c record;
  s public.game_session;
  replay record;
  refusal text;
  round public.game_round;
  bet public.sportsbook_bet;
  ledger public.transaction;
  answer json;
  seamless boolean;
  placed public.round_transaction;
begin
  select * into c from private.sportsbook_caller(key_hash, session_id);
  if c.provider_id is null then
    return query select 'invalid_provider_key', null::json;
    return;
  end if;
  s := c.session;
  if s.id is null then
    return query select 'unknown_session', null::json;
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended(c.provider_id::text || ' tx ' || transaction_id, 0));
  select * into replay from private.round_replay(c.provider_id, transaction_id, request_fingerprint);
  if replay.outcome is not null then
    return query select replay.outcome, replay.body;
    return;
  end if;
  -- The wallet mode, under its shared lock held to the end (a mode change waits for this bet).
  seamless := private.lock_wallet_mode(s.client_id, s.livemode, false) = 'seamless';
  if not c.sportsbook then
    return query select 'not_sportsbook', null::json;
    return;
  end if;
  if not c.client_active then
    return query select 'operator_suspended', null::json;
    return;
  end if;
  if s.status = 'closed' then
    return query select 'session_closed', null::json;
    return;
  end if;
  if s.status = 'created' and s.expires_at <= now() then
    return query select 'session_expired', null::json;
    return;
  end if;
  if c.may_refuse then
    refusal := private.player_refusal(s.client_id, s.livemode, s.player_id, s.id, s.currency_code, s.jurisdiction,
                                      s.created_at, amount);
    if refusal is not null then
      return query select refusal, null::json;
      return;
    end if;
  end if;

  -- One placement (or discard) of a bet_id at a time: the same lock a casino round's first bet takes.
  perform pg_advisory_xact_lock(hashtextextended(c.provider_id::text || ' round ' || bet_id, 0));
  if exists (select 1 from public.round_transaction t
             where t.provider_id = c.provider_id and t.kind = 'sportsbook_discard' and t.related_transaction_id = bet_id) then
    return query select 'bet_discarded', null::json;
    return;
  end if;
  if exists (select 1 from public.game_round r where r.provider_id = c.provider_id and r.provider_round_id = bet_id) then
    return query select 'duplicate_bet', null::json;
    return;
  end if;
  -- Seamless: the operator's wallet decides on the stake's debit.
  if not seamless then
    if c.available is null and not s.livemode then
      return query select 'test_player_unknown', null::json;
      return;
    end if;
    if c.test_refusal is not null then
      return query select c.test_refusal, null::json;
      return;
    end if;
    if coalesce(c.available, 0) < amount then
      return query select 'insufficient_funds',
                          json_build_object('balance', coalesce(c.available, 0)::numeric(20, 4)::text, 'currency', s.currency_code);
      return;
    end if;
  end if;
  if c.loss_limits is not null then
    refusal := private.count_loss(s.client_id, s.livemode, s.player_id, s.currency_code, amount, true);
    if refusal is not null then
      perform private.record_refusal(s.client_id, s.livemode, s.player_id, s.id, refusal, amount);
      return query select refusal, null::json;
      return;
    end if;
  end if;

  if s.status = 'created' then
    update public.game_session gs set status = 'active' where gs.id = s.id;
  end if;
  insert into public.game_round as r
    (provider_id, provider_round_id, client_id, livemode, session_id, player_id, game, currency_code, wallet_mode,
     total_bet, status, closed_at)
  values (c.provider_id, bet_id, s.client_id, s.livemode, s.id, s.player_id, s.game, s.currency_code,
          case when seamless then 'seamless' else 'transfer' end, amount, 'closed', now())
  returning r.* into round;
  insert into public.sportsbook_bet as b
    (round_id, client_id, livemode, player_id, currency_code, status, stake, odds, potential_payout, selections)
  values (round.id, s.client_id, s.livemode, s.player_id, s.currency_code,
          case when two_phase then 'reserved' else 'open' end, amount, odds, potential_payout, selections)
  returning b.* into bet;
  -- Seamless: the bet stands once the operator's wallet takes the stake's debit, made at once by
  -- the caller and never retried (private.sportsbook_finish_call).
  if seamless then
    insert into public.round_transaction as t
      (provider_id, transaction_id, kind, client_id, round_id, amount, request_fingerprint)
    values (c.provider_id, transaction_id, 'sportsbook_place', s.client_id, round.id, amount, request_fingerprint)
    returning t.* into placed;
    return query select q.outcome, q.body
                 from private.queue_wallet_call(placed, s, 'debit', private.sportsbook_call_fields(round, transaction_id, amount)) q;
    return;
  end if;
  -- The float's (or test player's) row is locked here, for the last writes and the commit.
  ledger := private.move_money(s, s.currency_code, 'bet', -amount, format('sportsbook bet %s, stake %s', bet_id, transaction_id));
  answer := private.sportsbook_answer(transaction_id, bet_id, bet.status, bet, ledger.balance_after::text, s.currency_code);
  insert into public.round_transaction
    (provider_id, transaction_id, kind, client_id, round_id, amount, ledger_transaction_id, request_fingerprint, response_body)
  values (c.provider_id, transaction_id, 'sportsbook_place', s.client_id, round.id, amount, ledger.id, request_fingerprint, answer);
  if not two_phase then
    perform private.emit_event(s.client_id, s.livemode, 'sportsbook.bet.placed', private.sportsbook_bet_json(round.id));
  end if;
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_place from public, anon, authenticated, service_role;

create or replace function private.sportsbook_commit(key_hash text, bet_id text, transaction_id text, request_fingerprint text)
returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  round public.game_round;
  bet public.sportsbook_bet;
  s public.game_session;
  answer json;
begin
  select * into began from private.sportsbook_start(key_hash, transaction_id, request_fingerprint);
  if began.outcome is not null then
    return query select began.outcome, began.body;
    return;
  end if;
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = bet_id
  for update;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  if bet.round_id is null then
    return query select 'unknown_bet', null::json;
    return;
  end if;
  -- Seamless: not while the stake waits for the operator's wallet.
  if round.wallet_mode = 'seamless' and private.debit_pending(round.id) then
    return query select 'transaction_pending', null::json;
    return;
  end if;
  if bet.status = 'discarded' then
    return query select 'bet_discarded', null::json;
    return;
  end if;
  if bet.status = 'reserved' then
    update public.sportsbook_bet b set status = 'open' where b.round_id = round.id returning b.* into bet;
    perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.bet.placed',
                               private.sportsbook_bet_json(round.id));
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  answer := private.sportsbook_answer(transaction_id, bet_id, bet.status, bet,
                                      private.sportsbook_balance(round, s), round.currency_code);
  insert into public.round_transaction
    (provider_id, transaction_id, kind, client_id, round_id, amount, request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'sportsbook_commit', round.client_id, round.id, 0,
          request_fingerprint, answer);
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_commit from public, anon, authenticated, service_role;

create or replace function private.sportsbook_discard(key_hash text, bet_id text, transaction_id text, request_fingerprint text)
returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  round public.game_round;
  bet public.sportsbook_bet;
  given record;
  s public.game_session;
  answer json;
  balance text;
  ledger_id uuid;
  refunded numeric := 0;
  discarded public.round_transaction;
  placement text;
begin
  select * into began from private.sportsbook_start(key_hash, transaction_id, request_fingerprint);
  if began.outcome is not null then
    return query select began.outcome, began.body;
    return;
  end if;
  -- The lock a placement of this bet_id takes: a tombstone and the bet it refuses never cross.
  perform pg_advisory_xact_lock(hashtextextended(began.provider_id::text || ' round ' || bet_id, 0));
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = bet_id
  for update;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  if bet.round_id is null then
    if exists (select 1 from public.game_round r where r.provider_id = began.provider_id and r.provider_round_id = bet_id) then
      return query select 'unknown_bet', null::json;
      return;
    end if;
    answer := private.sportsbook_answer(transaction_id, bet_id, 'discarded', null, null, null);
    insert into public.round_transaction
      (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, request_fingerprint, response_body)
    values (began.provider_id, transaction_id, 'sportsbook_discard', null, null, 0, bet_id, request_fingerprint, answer);
    return query select 'ok'::text, answer;
    return;
  end if;
  -- Seamless: not while the stake waits for the operator's wallet.
  if round.wallet_mode = 'seamless' and private.debit_pending(round.id) then
    return query select 'transaction_pending', null::json;
    return;
  end if;
  if bet.status not in ('reserved', 'discarded') then
    return query select 'bet_not_reserved', null::json;
    return;
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  if bet.status = 'reserved' then
    select * into given from private.sportsbook_give_back(round, bet, transaction_id, 'discarded');
    if given.refusal is not null then
      return query select given.refusal, null::json;
      return;
    end if;
    balance := given.balance;
    ledger_id := given.ledger_id;
    refunded := bet.stake;
  else
    balance := private.sportsbook_balance(round, s);
  end if;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  -- Seamless: the stake comes back with a rollback of its debit, answered once the operator takes it.
  if round.wallet_mode = 'seamless' and refunded > 0 then
    insert into public.round_transaction as t
      (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, request_fingerprint)
    values (began.provider_id, transaction_id, 'sportsbook_discard', round.client_id, round.id, refunded, bet_id,
            request_fingerprint)
    returning t.* into discarded;
    select t.transaction_id into placement from public.round_transaction t
    where t.round_id = round.id and t.kind = 'sportsbook_place';
    return query select q.outcome, q.body from private.queue_wallet_call(discarded, s, 'rollback',
      private.sportsbook_call_fields(round, transaction_id, refunded)
      || jsonb_build_object('rolled_back_transaction_id', placement)) q;
    return;
  end if;
  answer := private.sportsbook_answer(transaction_id, bet_id, 'discarded', bet, balance, round.currency_code);
  insert into public.round_transaction
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, ledger_transaction_id,
     request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'sportsbook_discard', round.client_id, round.id, refunded, bet_id,
          ledger_id, request_fingerprint, answer);
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_discard from public, anon, authenticated, service_role;

create or replace function private.sportsbook_settle(
  key_hash text, bet_id text, transaction_id text, result text, payout numeric, request_fingerprint text
) returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  round public.game_round;
  bet public.sportsbook_bet;
  moved record;
  s public.game_session;
  was text;
  answer json;
  settled public.round_transaction;
begin
  select * into began from private.sportsbook_start(key_hash, transaction_id, request_fingerprint);
  if began.outcome is not null then
    return query select began.outcome, began.body;
    return;
  end if;
  -- An unsettle named this settlement before it came: it stays undone.
  if exists (select 1 from public.round_transaction t
             where t.provider_id = began.provider_id and t.kind = 'sportsbook_unsettle'
               and t.related_transaction_id = transaction_id) then
    return query select 'settlement_cancelled', null::json;
    return;
  end if;
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = bet_id
  for update;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  if bet.round_id is null then
    return query select 'unknown_bet', null::json;
    return;
  end if;
  perform private.sportsbook_lock_debts(round);
  select * into bet from public.sportsbook_bet b where b.round_id = round.id for update;
  -- Seamless: not while the stake waits for the operator's wallet.
  if round.wallet_mode = 'seamless' and private.debit_pending(round.id) then
    return query select 'transaction_pending', null::json;
    return;
  end if;
  was := bet.status;
  if was in ('reserved', 'discarded', 'closed') then
    return query select 'bet_' || was, null::json;
    return;
  end if;
  if payout > bet.potential_payout then
    return query select 'invalid_settlement',
                        json_build_object('reason', 'payout_above_potential', 'potential_payout', bet.potential_payout::text);
    return;
  end if;
  if (result = 'lost' and payout <> 0) or (result = 'won' and payout = 0) or (result = 'void' and payout <> bet.stake) then
    return query select 'invalid_settlement',
                        json_build_object('reason', 'result_payout_mismatch', 'stake', bet.stake::text);
    return;
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  select * into moved from private.sportsbook_move(round, bet, s, payout, transaction_id,
    jsonb_build_object('type', 'settlement', 'transaction_id', transaction_id, 'result', result));
  if moved.refusal is not null then
    return query select moved.refusal, null::json;
    return;
  end if;
  update public.sportsbook_bet b
  set status = 'settled', result = sportsbook_settle.result, settlement_transaction_id = transaction_id, settled_at = now()
  where b.round_id = round.id
  returning b.* into bet;
  answer := private.sportsbook_answer(transaction_id, bet_id, 'settled', bet, moved.balance, round.currency_code);
  -- Seamless: a call to make (the answer waits for it), or none (the answer now, with no balance).
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, ledger_transaction_id, request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'sportsbook_settle', round.client_id, round.id, payout,
          moved.ledger_id, request_fingerprint, case when moved.call_action is null then answer end)
  returning t.* into settled;
  perform private.emit_event(bet.client_id, bet.livemode,
                             case when was = 'open' then 'sportsbook.bet.settled' else 'sportsbook.bet.resettled' end,
                             private.sportsbook_bet_json(round.id));
  if moved.owed_added > 0 then
    perform private.sportsbook_report_owed(bet, round, moved.owed_added);
  end if;
  if moved.call_action is not null then
    return query select * from private.sportsbook_queue_move(settled, s, round, moved.call_action, moved.call_amount);
    return;
  end if;
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_settle from public, anon, authenticated, service_role;

create or replace function private.sportsbook_unsettle(
  key_hash text, bet_id text, transaction_id text, settlement_transaction_id text, request_fingerprint text
) returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  round public.game_round;
  bet public.sportsbook_bet;
  moved record;
  named public.round_transaction;
  s public.game_session;
  answer json;
  balance text;
  ledger_id uuid;
  cancelled numeric;
  owed_added numeric := 0;
  call_action text;
  call_amount numeric;
  unsettled public.round_transaction;
begin
  select * into began from private.sportsbook_start(key_hash, transaction_id, request_fingerprint, settlement_transaction_id);
  if began.outcome is not null then
    return query select began.outcome, began.body;
    return;
  end if;
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = bet_id
  for update;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  if bet.round_id is null then
    if settlement_transaction_id is null
       or exists (select 1 from public.game_round r where r.provider_id = began.provider_id and r.provider_round_id = bet_id) then
      return query select 'unknown_bet', null::json;
      return;
    end if;
    answer := private.sportsbook_answer(transaction_id, bet_id, null, null, null, null);
    insert into public.round_transaction
      (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, request_fingerprint, response_body)
    values (began.provider_id, transaction_id, 'sportsbook_unsettle', null, null, 0, settlement_transaction_id,
            request_fingerprint, answer);
    return query select 'ok'::text, answer;
    return;
  end if;
  perform private.sportsbook_lock_debts(round);
  select * into bet from public.sportsbook_bet b where b.round_id = round.id for update;
  -- Seamless: not while the stake waits for the operator's wallet.
  if round.wallet_mode = 'seamless' and private.debit_pending(round.id) then
    return query select 'transaction_pending', null::json;
    return;
  end if;
  if bet.status in ('reserved', 'discarded', 'closed') then
    return query select 'bet_' || bet.status, null::json;
    return;
  end if;
  if settlement_transaction_id is not null then
    select * into named from public.round_transaction t
    where t.provider_id = began.provider_id and t.transaction_id = settlement_transaction_id;
    if named.id is not null and (named.kind <> 'sportsbook_settle' or named.round_id <> round.id) then
      return query select 'unknown_transaction', null::json;
      return;
    end if;
  elsif bet.status <> 'settled' then
    return query select 'bet_not_settled', null::json;
    return;
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  if settlement_transaction_id is null or bet.settlement_transaction_id = settlement_transaction_id then
    select * into moved from private.sportsbook_move(round, bet, s, 0, transaction_id,
      jsonb_build_object('type', 'unsettlement', 'transaction_id', transaction_id, 'result', null));
    if moved.refusal is not null then
      return query select moved.refusal, null::json;
      return;
    end if;
    cancelled := bet.payout;
    update public.sportsbook_bet b
    set status = 'open', result = null, settlement_transaction_id = null
    where b.round_id = round.id
    returning b.* into bet;
    balance := moved.balance;
    ledger_id := moved.ledger_id;
    owed_added := moved.owed_added;
    call_action := moved.call_action;
    call_amount := moved.call_amount;
  else
    balance := private.sportsbook_balance(round, s);
  end if;
  answer := private.sportsbook_answer(transaction_id, bet_id, bet.status, bet, balance, round.currency_code);
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, ledger_transaction_id,
     request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'sportsbook_unsettle', round.client_id, round.id,
          coalesce(cancelled, 0), settlement_transaction_id, ledger_id, request_fingerprint,
          case when call_action is null then answer end)
  returning t.* into unsettled;
  if cancelled is not null then
    perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.bet.unsettled',
                               private.sportsbook_bet_json(round.id));
    if owed_added > 0 then
      perform private.sportsbook_report_owed(bet, round, owed_added);
    end if;
  end if;
  if call_action is not null then
    return query select * from private.sportsbook_queue_move(unsettled, s, round, call_action, call_amount);
    return;
  end if;
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_unsettle from public, anon, authenticated, service_role;

create or replace function private.sportsbook_close(key_hash text, bet_id text, transaction_id text, request_fingerprint text)
returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  began record;
  round public.game_round;
  bet public.sportsbook_bet;
  s public.game_session;
  answer json;
begin
  select * into began from private.sportsbook_start(key_hash, transaction_id, request_fingerprint);
  if began.outcome is not null then
    return query select began.outcome, began.body;
    return;
  end if;
  select * into round from public.game_round r
  where r.provider_id = began.provider_id and r.provider_round_id = bet_id
  for update;
  select * into bet from public.sportsbook_bet b where b.round_id = round.id;
  if bet.round_id is null then
    return query select 'unknown_bet', null::json;
    return;
  end if;
  if bet.status in ('reserved', 'discarded') then
    return query select 'bet_' || bet.status, null::json;
    return;
  end if;
  if bet.status = 'open' then
    return query select 'bet_not_settled', null::json;
    return;
  end if;
  if bet.status = 'settled' then
    update public.sportsbook_bet b set status = 'closed', closed_at = now()
    where b.round_id = round.id
    returning b.* into bet;
    perform private.emit_event(bet.client_id, bet.livemode, 'sportsbook.bet.closed',
                               private.sportsbook_bet_json(round.id));
  end if;
  select * into s from public.game_session gs where gs.id = round.session_id;
  answer := private.sportsbook_answer(transaction_id, bet_id, 'closed', bet,
                                      private.sportsbook_balance(round, s), round.currency_code);
  insert into public.round_transaction
    (provider_id, transaction_id, kind, client_id, round_id, amount, request_fingerprint, response_body)
  values (began.provider_id, transaction_id, 'sportsbook_close', round.client_id, round.id, 0,
          request_fingerprint, answer);
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_close from public, anon, authenticated, service_role;

create or replace function private.sportsbook_discard_expired(batch int default 100) returns int
language plpgsql
set search_path = ''
as $$
declare
  after interval := make_interval(mins => coalesce(
    (select (s.value #>> '{}')::int from public.app_setting s where s.key = 'sportsbook.reserve_minutes'), 15));
  expired record;
  round public.game_round;
  bet public.sportsbook_bet;
  given record;
  done int := 0;
  tx text;
  s public.game_session;
  discard public.round_transaction;
begin
  for expired in
    select b.round_id from public.sportsbook_bet b
    where b.status = 'reserved' and b.placed_at < now() - after
    order by b.placed_at
    limit sportsbook_discard_expired.batch
  loop
    select * into round from public.game_round r where r.id = expired.round_id for update skip locked;
    continue when round.id is null;
    select * into bet from public.sportsbook_bet b where b.round_id = round.id;
    continue when bet.status <> 'reserved';
    -- Seamless: a stake still waiting for the operator's wallet is not reserved yet.
    continue when round.wallet_mode = 'seamless' and private.debit_pending(round.id);
    tx := 'cgs-discard-' || round.id;
    select * into given from private.sportsbook_give_back(round, bet, tx, 'expired');
    -- A bet whose stake cannot be given back now (its test player is gone) stays for staff.
    continue when given.refusal is not null;
    insert into public.round_transaction as t
      (provider_id, transaction_id, kind, client_id, round_id, amount, related_transaction_id, ledger_transaction_id,
       request_fingerprint, response_body)
    values (round.provider_id, tx, 'sportsbook_discard', round.client_id, round.id, bet.stake, round.provider_round_id,
            given.ledger_id, encode(extensions.digest(tx, 'sha256'), 'hex'),
            private.sportsbook_answer(tx, round.provider_round_id, 'discarded',
                                      (select b from public.sportsbook_bet b where b.round_id = round.id),
                                      given.balance, round.currency_code))
    returning t.* into discard;
    -- Seamless: the stake comes back with a rollback of its debit, which the runner sends.
    if round.wallet_mode = 'seamless' then
      select * into s from public.game_session gs where gs.id = round.session_id;
      perform private.queue_wallet_call(discard, s, 'rollback',
        private.sportsbook_call_fields(round, tx, bet.stake) || jsonb_build_object('rolled_back_transaction_id',
          (select t.transaction_id from public.round_transaction t where t.round_id = round.id and t.kind = 'sportsbook_place')),
        false);
    end if;
    done := done + 1;
  end loop;
  return done;
end;
$$;
revoke execute on function private.sportsbook_discard_expired from public, anon, authenticated, service_role;
