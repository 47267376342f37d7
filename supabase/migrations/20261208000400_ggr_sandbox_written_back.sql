-- Reports: a test bet's money a sandbox reset wrote back (issue 36, with issue 35's
-- 20261207004900_sandbox_reset_unsent_calls.sql). The reset takes off a seamless test bet what its
-- payout and clawback calls the wallet never took would have moved (a credit never made comes off
-- `paid`, a clawback never taken goes back; paid - owed = payout kept) and writes no round
-- transaction, so the GGR report, which reads a bet's payouts from its settlements' transactions,
-- went on counting the payout the wallet never paid (and not the one a clawback never took back),
-- apart from the test ledger, the reconciliation and the bet itself.
--
-- The rule, in test mode: a payout or clawback call a reset wrote back moved nothing, so it is no
-- change of the payout:
-- - each such call (the bet's `credit` or `clawback` the wallet never accepted, on a bet with a
--   `sandbox_reset` line that carries its `payout`) counts less what it would have moved, in the
--   day of its transaction, where its reconciliation line shows it moved nothing: a day's
--   sportsbook GGR stays what its lines moved, turned over (as before the reset, calls accepted);
-- - the reset writes back no more than the bet's bounds let it (its payout never below 0 nor above
--   its potential payout: only calls taken out of order reach them), so what it wrote back (its
--   line's `moved`) less what those calls would have moved counts in the reset's day: the payouts
--   over the days are still the bet's payout in force.
-- A reset line without `payout` is of a reset before resets wrote money back: its calls were not
-- written back, and nothing changes. Live bets are never reset. Closed days are rolled up in live
-- mode alone, so this is read where test mode's days are read: with the raw rows, in ggr_rows.
--
-- Adds private.ggr_written_back. Replaces private.ggr_rows (of 20261207005100_ggr_sportsbook.sql):
-- in test mode, its rows and private.ggr_cells's; the rest unchanged.

-- ============================================================================================
-- Helper functions
-- ============================================================================================

-- A client's test bets' money a reset wrote back, recorded between starts and ends: each as a
-- change of the payouts (sportsbook_payouts), in its day, as the header says.
create function private.ggr_written_back(client_id uuid, starts timestamptz, ends timestamptz)
returns table (day date, provider_id uuid, game text, currency_code text, player_id text, sportsbook_payouts numeric)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  with written as materialized (
    -- The bets a reset wrote back, with its line (one a bet: a bet a reset ended takes no call and
    -- is never ended again). Placed before ends: a bet's calls come after its placement.
    select b.round_id, r.provider_id, r.game, r.currency_code, r.player_id, (x->>'created_at')::timestamptz as reset_at,
           (x->>'moved')::numeric as moved
    from public.sportsbook_bet b
    join public.game_round r on r.id = b.round_id
    cross join lateral jsonb_path_query(b.settlements, '$[*] ? (@.type == "sandbox_reset" && exists (@.payout))') x
    where b.client_id = ggr_written_back.client_id and not b.livemode and b.placed_at < ggr_written_back.ends
  ), unsent as materialized (
    -- Their calls the wallet never took, by transaction: what each would have moved (a credit its
    -- amount, a clawback less its amount), as private.sportsbook_unsent reads them for the reset.
    select w.round_id, t.created_at,
           sum(case c.action when 'credit' then 1 else -1 end * (c.request->>'amount')::numeric) as amount
    from written w
    join public.round_transaction t on t.round_id = w.round_id
    join public.wallet_call c on c.round_transaction_id = t.id and c.action in ('credit', 'clawback') and c.status <> 'accepted'
    group by w.round_id, t.id, t.created_at
  )
  select (u.created_at at time zone 'UTC')::date, w.provider_id, w.game, w.currency_code, w.player_id, -u.amount
  from unsent u
  join written w on w.round_id = u.round_id
  where u.created_at >= ggr_written_back.starts and u.created_at < ggr_written_back.ends
  union all
  select (w.reset_at at time zone 'UTC')::date, w.provider_id, w.game, w.currency_code, w.player_id, k.amount
  from written w
  cross join lateral (select w.moved + coalesce((select sum(u.amount) from unsent u where u.round_id = w.round_id), 0) as amount) k
  where w.reset_at >= ggr_written_back.starts and w.reset_at < ggr_written_back.ends and k.amount <> 0;
end;
$$;
revoke execute on function private.ggr_written_back from public, anon, authenticated, service_role;

-- A client's play of one mode on the days from_day to to_day, at the roll-up's grain: the days
-- rolled up read from private.ggr_day (rolled up first, live mode), the others summed from the raw
-- rows, and in test mode what resets wrote back. What every report and statement reads.
create or replace function private.ggr_rows(client_id uuid, livemode boolean, from_day date, to_day date)
returns table (
  day date, provider_id uuid, game text, currency_code text, player_id text,
  bets numeric, bet_count bigint, wins numeric, free_round_wins numeric, rolled_back numeric, voided numeric, rounds bigint,
  sportsbook_stakes numeric, sportsbook_bet_count bigint, sportsbook_refunded numeric, sportsbook_payouts numeric
)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_column
declare
  through date;
  live_from date;
begin
  if ggr_rows.livemode then
    through := private.roll_up_ggr(ggr_rows.client_id);
  end if;
  live_from := greatest(ggr_rows.from_day, coalesce(through + 1, ggr_rows.from_day));
  return query
    select d.day, d.provider_id, d.game, d.currency_code, d.player_id, d.bets, d.bet_count, d.wins, d.free_round_wins, d.rolled_back,
           d.voided, d.rounds, d.sportsbook_stakes, d.sportsbook_bet_count, d.sportsbook_refunded, d.sportsbook_payouts
    from private.ggr_day d
    where ggr_rows.livemode and d.client_id = ggr_rows.client_id and d.day >= ggr_rows.from_day
      and d.day <= least(ggr_rows.to_day, through)
    union all
    select c.day, c.provider_id, c.game, c.currency_code, c.player_id, c.bets, c.bet_count, c.wins, c.free_round_wins, c.rolled_back,
           c.voided, c.rounds, c.sportsbook_stakes, c.sportsbook_bet_count, c.sportsbook_refunded, c.sportsbook_payouts
    from private.ggr_cells(ggr_rows.client_id, ggr_rows.livemode, live_from::timestamp at time zone 'UTC',
                           (ggr_rows.to_day + 1)::timestamp at time zone 'UTC') c
    where live_from <= ggr_rows.to_day
    union all
    -- In test mode, what resets wrote back: changes of the payouts alone.
    select w.day, w.provider_id, w.game, w.currency_code, w.player_id, 0::numeric, 0::bigint, 0::numeric, 0::numeric, 0::numeric,
           0::numeric, 0::bigint, 0::numeric, 0::bigint, 0::numeric, w.sportsbook_payouts
    from private.ggr_written_back(ggr_rows.client_id, live_from::timestamp at time zone 'UTC',
                                  (ggr_rows.to_day + 1)::timestamp at time zone 'UTC') w
    where not ggr_rows.livemode and live_from <= ggr_rows.to_day;
end;
$$;
revoke execute on function private.ggr_rows from public, anon, authenticated, service_role;
