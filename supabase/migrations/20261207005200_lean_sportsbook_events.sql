-- The sportsbook's placement and settlement, leaner (issue 35's benchmark: place+settle pairs at 0.8
-- of casino bet+win pairs). Same rules, fewer reads:
-- - An event's bet is built from the rows the call holds (private.sportsbook_bet_view: the round and
--   the bet as the call wrote them, and the provider's slug), where private.sportsbook_bet_json read
--   the bet, its round and its provider again, joined: a placement's `sportsbook.bet.placed` and a
--   settlement's `.settled` / `.resettled` carry the same object, read from what is in hand.
--   private.sportsbook_bet_json, for every other caller and the bets API, builds it the same way, so
--   the object has one definition.
-- - private.sportsbook_caller is private.round_caller (the lean caller migrations: one statement per
--   table the session needs, where one join of seven read and locked all of them) and the game's
--   category: the same columns and answers.
-- Replaces private.sportsbook_bet_json (the plpgsql helpers migration), private.sportsbook_caller
-- (the sportsbook migration), private.sportsbook_place (the sportsbook seamless migration) and
-- private.sportsbook_settle (the lean sportsbook settle migration); the last two are statement for
-- statement theirs but for the event's object.

-- A bet as the bets API shows it and its events carry it, with every settlement, from its round and
-- its row.
create function private.sportsbook_bet_view(round public.game_round, bet public.sportsbook_bet) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  slug text;
begin
  select gp.slug into slug from public.game_provider gp where gp.id = round.provider_id;
  return jsonb_build_object(
    'id', round.id, 'bet_id', round.provider_round_id, 'provider', slug, 'game_id', slug || ':' || round.game,
    'session_id', round.session_id, 'player_id', round.player_id, 'currency', round.currency_code,
    'wallet_mode', round.wallet_mode, 'status', bet.status, 'stake', bet.stake::text, 'odds', trim_scale(bet.odds)::text,
    'potential_payout', bet.potential_payout::text, 'selections', bet.selections, 'result', bet.result,
    'payout', bet.payout::text, 'paid', bet.paid::text, 'owed', bet.owed::text, 'livemode', round.livemode,
    'placed_at', bet.placed_at, 'settled_at', bet.settled_at, 'closed_at', bet.closed_at, 'settlements', bet.settlements);
end;
$$;
revoke execute on function private.sportsbook_bet_view from public, anon, authenticated, service_role;

-- The same, by the bet's round id (null for no bet).
create or replace function private.sportsbook_bet_json(round_id uuid) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  round public.game_round;
  bet public.sportsbook_bet;
begin
  select * into bet from public.sportsbook_bet b where b.round_id = sportsbook_bet_json.round_id;
  if bet.round_id is null then
    return null;
  end if;
  select * into round from public.game_round r where r.id = sportsbook_bet_json.round_id;
  return private.sportsbook_bet_view(round, bet);
end;
$$;
revoke execute on function private.sportsbook_bet_json from public, anon, authenticated, service_role;

-- The caller of a placement: round_caller's reads, and whether the session's game is a sportsbook.
create or replace function private.sportsbook_caller(key_hash text, session_id uuid)
returns table (
  provider_id uuid, session public.game_session, sportsbook boolean, client_active boolean, may_refuse boolean,
  loss_limits jsonb, available numeric, test_refusal text
)
language plpgsql stable
set search_path = ''
as $$
declare
  c record;
  s public.game_session;
begin
  select * into c from private.round_caller(key_hash, session_id);
  if c.provider_id is null then
    return;
  end if;
  s := c.session;
  provider_id := c.provider_id;
  session := s;
  client_active := c.client_active;
  may_refuse := c.may_refuse;
  loss_limits := c.loss_limits;
  available := c.available;
  test_refusal := c.test_refusal;
  if s.id is not null then
    sportsbook := exists (select 1 from public.game g where g.provider_id = s.provider_id and g.code = s.game and g.category = 'sportsbook');
  end if;
  return next;
end;
$$;
revoke execute on function private.sportsbook_caller from public, anon, authenticated, service_role;

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
    perform private.emit_event(s.client_id, s.livemode, 'sportsbook.bet.placed', private.sportsbook_bet_view(round, bet));
  end if;
  return query select 'ok'::text, answer;
end;
$$;
revoke execute on function private.sportsbook_place from public, anon, authenticated, service_role;

create or replace function private.sportsbook_settle(
  key_hash text, bet_id text, transaction_id text, result text, payout numeric, request_fingerprint text
) returns table (outcome text, body json)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  provider uuid;
  replay record;
  round public.game_round;
  bet public.sportsbook_bet;
  moved record;
  s public.game_session;
  was text;
  answer json;
  settled public.round_transaction;
begin
  -- As private.sportsbook_start, with the one lock a settlement takes.
  provider := private.sportsbook_provider(key_hash);
  if provider is null then
    return query select 'invalid_provider_key'::text, null::json;
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended(provider::text || ' tx ' || transaction_id, 0));
  select * into replay from private.round_replay(provider, transaction_id, request_fingerprint);
  if replay.outcome is not null then
    return query select replay.outcome, replay.body;
    return;
  end if;
  -- An unsettle named this settlement before it came: it stays undone.
  if exists (select 1 from public.round_transaction t
             where t.provider_id = provider and t.kind = 'sportsbook_unsettle'
               and t.related_transaction_id = transaction_id) then
    return query select 'settlement_cancelled', null::json;
    return;
  end if;
  select * into round from public.game_round r
  where r.provider_id = provider and r.provider_round_id = bet_id
  for update;
  -- A round that is no bet (a casino round) takes its debts' lock for nothing, and is refused.
  if round.id is not null then
    perform private.sportsbook_lock_debts(round);
    select * into bet from public.sportsbook_bet b where b.round_id = round.id for update;
  end if;
  if bet.round_id is null then
    return query select 'unknown_bet', null::json;
    return;
  end if;
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
  bet := moved.moved_bet;
  answer := private.sportsbook_answer(transaction_id, bet_id, 'settled', bet, moved.balance, round.currency_code);
  -- Seamless: a call to make (the answer waits for it), or none (the answer now, with no balance).
  insert into public.round_transaction as t
    (provider_id, transaction_id, kind, client_id, round_id, amount, ledger_transaction_id, request_fingerprint, response_body)
  values (provider, transaction_id, 'sportsbook_settle', round.client_id, round.id, payout,
          moved.ledger_id, request_fingerprint, case when moved.call_action is null then answer end)
  returning t.* into settled;
  perform private.emit_event(bet.client_id, bet.livemode,
                             case when was = 'open' then 'sportsbook.bet.settled' else 'sportsbook.bet.resettled' end,
                             private.sportsbook_bet_view(round, bet));
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
