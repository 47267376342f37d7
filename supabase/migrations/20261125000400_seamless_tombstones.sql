-- Seamless tombstones: a rollback of a bet nobody has seen reaches the operator again.
--
-- Replaces private.round_rollback (the round engine migration), whose check "the bet this names
-- still waits for the operator's debit" asked the state of no row when the bet had never arrived,
-- took it for a debit under way, and answered `409 transaction_pending` to every such rollback in
-- seamless mode: the rollback was never recorded nor sent, so the bet arriving after it would have
-- been taken. The check now asks only of a bet that exists; the rest of the function is unchanged.

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
