-- The lean bet path, first part: what a bet and a win write, and no more.
--
-- Replaces private.move_money (the sandbox migration): a live round's movement went through
-- public.record_transaction, the staff RPC, whose staff check, argument checks and reference lookup
-- are for callers the engine is not (it has judged the amount, and holds or takes the wallet's row
-- lock). It now writes the ledger itself, the same two writes under the same row lock: the wallet's
-- balance, then the transaction with the balance after it.
--
-- Replaces private.event_for_transaction and its trigger (the wallet modes migration): every ledger
-- row was a `transaction.created` event, so a bet and its win wrote three events (two movements and
-- the round's close). A round's bets and wins are reported by the round's own events now
-- (`round.closed` and `round.cancelled` carry its totals, and GET /v3/rounds/{id} its transactions),
-- as aggregators report play; every other movement (deposits, withdrawals, fees, adjustments, a
-- rollback's refund) is still an event, and a bet that takes the float below the client's alert
-- still sends `wallet.balance_low`. A win can cross no alert, so its row fires no trigger at all.
--
-- Drops game_round_unreported_open_idx: the open-round index serves the stuck-round report as well
-- (rounds left open are few), and each round inserted wrote an entry in both.

-- ============================================================================================
-- Helper functions
-- ============================================================================================
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
    -- The update takes the wallet's row lock if the engine has not yet: the balance it writes is the
    -- one the ledger row records. The wallet's own check refuses an overdraw.
    update public.wallet w set balance = w.balance + move_money.amount
    where w.client_id = s.client_id and w.currency_code = move_money.currency
    returning w.balance into balance;
    if balance is null then
      raise exception 'the client has no % wallet', move_money.currency using errcode = '23503';
    end if;
    insert into public.transaction as t (client_id, type, currency_code, amount, balance_after, note, created_by)
    values (s.client_id, move_money.type, move_money.currency, move_money.amount, balance, move_money.note, null)
    returning t.* into moved;
    return moved;
  end if;
  update public.sandbox_player p set balance = p.balance + amount
  where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = currency
  returning p.balance into moved.balance_after;
  moved.amount := amount;
  return moved;
end;
$$;
revoke execute on function private.move_money from public, anon, authenticated, service_role;

-- The float is live money: its movements are live events, but for a round's bets and wins, which
-- the round's events report.
create or replace function private.event_for_transaction() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  threshold numeric;
begin
  if new.type not in ('bet', 'win') then
    perform private.emit_event(new.client_id, true, 'transaction.created', jsonb_build_object(
      'id', new.id, 'type', new.type, 'currency', new.currency_code, 'amount', new.amount::text,
      'balance_after', new.balance_after::text, 'reference', new.reference, 'note', new.note,
      'created_at', new.created_at));
  end if;
  -- A movement down across the client's alert for this currency: wallet.balance_low, once per crossing.
  if new.amount < 0 then
    select (w.low_balance_alerts->>new.currency_code)::numeric into threshold
    from public.wallet_setting w where w.client_id = new.client_id and w.livemode;
    if new.balance_after < threshold and new.balance_after - new.amount >= threshold then
      perform private.emit_event(new.client_id, true, 'wallet.balance_low', jsonb_build_object(
        'currency', new.currency_code, 'balance', new.balance_after::text, 'threshold', threshold::numeric(20, 4)::text,
        'transaction_id', new.id));
    end if;
  end if;
  return null;
end;
$$;
revoke execute on function private.event_for_transaction() from public, anon, authenticated, service_role;

-- ============================================================================================
-- Triggers
-- ============================================================================================
drop trigger transaction_event on public.transaction;
create trigger transaction_event
  after insert on public.transaction
  for each row when (new.type <> 'win')
  execute function private.event_for_transaction();

-- ============================================================================================
-- Indexes
-- ============================================================================================
drop index public.game_round_unreported_open_idx;
