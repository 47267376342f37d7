-- A sandbox reset writes a seamless test bet's money back to what its wallet took (issue 35, review
-- of 20261207003000_sandbox_reset_sportsbook.sql): a bet's payout moves its `paid` when its call is
-- queued, and the reset ends the calls still due to the test wallet failed, so a bet settled while its
-- payout's credit waited ended `closed` with `paid` the credit the wallet never got (and a bet whose
-- clawback waited ended with `paid` less than the wallet kept).
--
-- The rule: what a test bet's payout and clawback calls the wallet never took would have moved did
-- not move, so the reset takes it off the bet. Those calls are the bet's `credit` and `clawback`
-- calls the reset ends (pending) and those that failed before it (their retries spent: after the
-- reset, sending one again would pay a new test player of the same id, or a new test wallet):
-- - `paid` is what the bet paid less what it owed (forgiven, as before) less the credits never made
--   plus the clawbacks never taken, and the payout is the same (`owed` 0, so paid - owed = payout):
--   the payout in force is what the bet paid in the end. The result stays the provider's last.
--   Never below 0 nor above the potential payout, a bet's bounds (only calls taken out of order, a
--   clawback taken before the credit it takes back, reach them).
-- - The bet's `sandbox_reset` line says it: `moved` is that correction (negative for a credit never
--   made, positive for a clawback never taken, as a `clawback_refused` line gives back what its
--   settlement's line took), `payout` the payout after it, `forgiven` what it owed. The lines'
--   `moved` less `forgiven` add up to `paid`.
-- - Every test bet with such a call is ended so, a closed one too (its status kept, not told again);
--   its round's `total_win` is the new payout. Once: a bet a reset ended takes no call after, and
--   a second reset finds its calls written back (its `sandbox_reset` line).
-- The calls themselves end failed in private.reset_sandbox, as before; nothing is sent, and no money
-- moves anywhere. A stake's debit and a discard's rollback are no payout: what the reset fails of them
-- leaves `paid` alone.
--
-- Replaces private.sportsbook_reset_sandbox (the sandbox reset sportsbook migration); the rest of
-- its rules are unchanged. Adds private.sportsbook_unsent, what a bet's calls still due would move.

-- What a bet's payout and clawback calls the wallet never took (pending, or failed with their
-- retries spent) would move: their credits less their clawbacks; null when it has none, or when a
-- reset already wrote them back (its `sandbox_reset` line: a bet so ended takes no call after it).
create function private.sportsbook_unsent(bet public.sportsbook_bet) returns numeric
language plpgsql stable
set search_path = ''
as $$
begin
  if bet.settlements @> '[{"type": "sandbox_reset"}]' then
    return null;
  end if;
  return (select sum(case c.action when 'credit' then (c.request->>'amount')::numeric
                                   else -(c.request->>'amount')::numeric end)
          from public.round_transaction t join public.wallet_call c on c.round_transaction_id = t.id
          where t.round_id = bet.round_id and c.status <> 'accepted' and c.action in ('credit', 'clawback'));
end;
$$;
revoke execute on function private.sportsbook_unsent from public, anon, authenticated, service_role;

create or replace function private.sportsbook_reset_sandbox(
  client_id uuid, out bets_discarded int, out bets_closed int, out fixtures_cleared int
)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  ending public.sportsbook_bet;
  status text;
  unsent numeric;
  kept numeric;
begin
  bets_discarded := 0;
  bets_closed := 0;
  perform private.sandbox_sportsbook_lock(client_id, true);
  -- The bets to end: those that could still change or owe, and those with a payout call still due.
  perform 1 from public.game_round r
  where r.id in (select b.round_id from public.sportsbook_bet b
                 where b.client_id = client_id and not b.livemode
                   and (b.status in ('reserved', 'open', 'settled') or b.owed > 0
                        or private.sportsbook_unsent(b) is not null))
  order by r.id
  for update;
  for ending in
    select * from public.sportsbook_bet b
    where b.client_id = client_id and not b.livemode
      and (b.status in ('reserved', 'open', 'settled') or b.owed > 0
           or private.sportsbook_unsent(b) is not null)
    order by b.placed_at, b.round_id
    for update
  loop
    status := case when ending.status in ('reserved', 'open') then 'discarded'
                   when ending.status = 'settled' then 'closed' else ending.status end;
    -- Behind the bet's round's lock: none of its calls is finished meanwhile.
    unsent := coalesce(private.sportsbook_unsent(ending), 0);
    kept := least(greatest(ending.paid - ending.owed - unsent, 0), ending.potential_payout);
    update public.sportsbook_bet b
    set status = status,
        closed_at = case when status = 'closed' then coalesce(b.closed_at, now()) end,
        payout = kept, paid = kept, owed = 0,
        settlements = b.settlements || jsonb_build_object(
          'type', 'sandbox_reset', 'transaction_id', 'cgs-reset-' || b.round_id,
          'payout', kept::numeric(20, 4)::text, 'moved', (kept - (b.paid - b.owed))::numeric(20, 4)::text, 'owed', '0.0000',
          'forgiven', b.owed::text, 'created_at', now())
    where b.round_id = ending.round_id;
    if ending.status in ('reserved', 'open') then
      update public.game_round r set status = 'cancelled', total_bet = 0, total_win = kept where r.id = ending.round_id;
      perform private.emit_event(ending.client_id, false, 'sportsbook.bet.discarded',
                                 private.sportsbook_bet_json(ending.round_id) || jsonb_build_object('reason', 'sandbox_reset'));
      bets_discarded := bets_discarded + 1;
    else
      update public.game_round r set total_win = kept where r.id = ending.round_id and r.total_win <> kept;
      if ending.status = 'settled' then
        perform private.emit_event(ending.client_id, false, 'sportsbook.bet.closed', private.sportsbook_bet_json(ending.round_id));
        bets_closed := bets_closed + 1;
      end if;
    end if;
  end loop;
  delete from private.sandbox_fixture_result f where f.client_id = client_id;
  get diagnostics fixtures_cleared = row_count;
end;
$$;
revoke execute on function private.sportsbook_reset_sandbox from public, anon, authenticated, service_role;
