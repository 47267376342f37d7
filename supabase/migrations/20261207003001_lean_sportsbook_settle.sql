-- The sportsbook's settlement, leaner (issue 35's benchmark: place+settle pairs at 0.8 of casino
-- bet+win pairs, one fixture's 10,000 settlements under 10 s). Same rules, fewer writes and statements:
-- - private.sportsbook_move writes the bet's state with its money in one update: a settlement's
--   status, result, settlement and settled_at (an unsettlement's `open`, no result) in the row version
--   that moves its payout. A settlement wrote the bet twice, and the second version was not HOT (the
--   status is in the reserved bets' index predicate), so every index of the bet took an entry more.
-- - private.sportsbook_settle takes its one transaction lock itself (sportsbook_start sorts the
--   locks of two ids, which only an unsettle naming a settlement has), and reads the bet once, locked,
--   after the player's debts' lock.
-- Replaces private.sportsbook_move and private.sportsbook_settle (the sportsbook seamless migration).
-- private.sportsbook_unsettle, unchanged, still sets the state again after the move: the same values.

create or replace function private.sportsbook_move(
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
  settling boolean := entry->>'type' = 'settlement';
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
  -- The bet's state with its money, in one row version: a settlement puts it in force, an
  -- unsettlement takes it off.
  update public.sportsbook_bet b
  set payout = new_payout,
      status = case when settling then 'settled' else 'open' end,
      result = case when settling then entry->>'result' end,
      settlement_transaction_id = case when settling then transaction_id end,
      settled_at = case when settling then now() else b.settled_at end,
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

