-- Reports (issue 36): the sportsbook apart. Until now a GGR report left the sportsbook out (its
-- calls are round transactions of kinds of their own, which no figure counted), so its stakes and
-- payouts were nowhere, and a cell of a sportsbook game showed only zeros. Now every cell and total
-- carries `sportsbook`: its figures, apart from the casino's, or null when they are all zero:
--
-- - bets: bets placed that moved money (transfer mode, or a seamless stake the operator's wallet
--   took), in the day they were placed; stakes: what they staked;
-- - refunded: stakes given back by a discard (the provider's, or the expiry of a reservation), in
--   the day of the discard. A seamless stake the wallet never answered (the bet discarded as
--   wallet_failed) is neither staked nor refunded;
-- - payouts: the change of the bets' payouts in force, in the day each settlement, resettlement and
--   unsettlement came (a fall is negative; a clawback counts when the payout falls, taken at once
--   or owed: paid - owed = payout always holds). Read from the bet's history of settlements, where
--   each entry is the payout it put in force: the change is that less the one before it;
-- - ggr: stakes - refunded - payouts.
--
-- Summed in private.ggr_cells, the one definition, so rolled-up days and today agree; the casino's
-- figures, rounds and players are unchanged (a sportsbook bet is in none of them). Money in
-- numeric, as the casino's. Closed days are written again: a client with live sportsbook bets is
-- rolled up again from its raw rows (by the delivery runner, or by its next report); every other
-- client's cells, fragments and totals are written again from its rolled-up rows, whose sportsbook
-- figures are zero.
--
-- Replaces private.ggr_cells (of 20261127004003_test_free_round_wins.sql), private.ggr_rows (of
-- 20261126000300_reports.sql), private.roll_up_ggr_cells, private.roll_up_ggr_fragments and
-- private.ggr_report (of 20261207002000_ggr_day_fragments.sql).

-- ============================================================================================
-- Tables
-- ============================================================================================
-- In private.ggr_cells's order: private.roll_up_ggr inserts its rows as they come.
alter table private.ggr_day
  add column sportsbook_stakes numeric not null default 0,
  add column sportsbook_bet_count bigint not null default 0,
  add column sportsbook_refunded numeric not null default 0,
  add column sportsbook_payouts numeric not null default 0;

alter table private.ggr_day_total
  add column sportsbook_stakes numeric not null default 0,
  add column sportsbook_bet_count bigint not null default 0,
  add column sportsbook_refunded numeric not null default 0,
  add column sportsbook_payouts numeric not null default 0;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
drop function private.ggr_rows(uuid, boolean, date, date);
drop function private.ggr_cells(uuid, boolean, timestamptz, timestamptz);

create function private.ggr_cells(client_id uuid, livemode boolean, starts timestamptz, ends timestamptz)
returns table (
  day date, provider_id uuid, game text, currency_code text, player_id text,
  bets numeric, bet_count bigint, wins numeric, free_round_wins numeric, rolled_back numeric, voided numeric, rounds bigint,
  sportsbook_stakes numeric, sportsbook_bet_count bigint, sportsbook_refunded numeric, sportsbook_payouts numeric
)
language plpgsql stable
set search_path = ''
-- Planned once per connection: its custom plans were made anew at each call, for a few rows.
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  return query
  select m.day, m.provider_id, m.game, m.currency_code, m.player_id,
         sum(m.bets), sum(m.bet_count)::bigint, sum(m.wins), sum(m.free_round_wins), sum(m.rolled_back), sum(m.voided),
         sum(m.rounds)::bigint, sum(m.sb_stakes), sum(m.sb_bet_count)::bigint, sum(m.sb_refunded), sum(m.sb_payouts)
  from (
    -- Movements, in the day they were recorded. A bet counts once it moved money (seamless: the
    -- operator's wallet accepted its debit; a refused one is deleted, a failed one never moved).
    -- A free round (game_round.free_round_grant_id) moves no money but its wins: what each paid
    -- (the float's or test float's movement, or the credit call's amount; max_win may cap it below what the
    -- provider reported, and a lump-sum game pays only its payout) is free_round_wins.
    -- A sportsbook bet's stake counts as a casino bet's does (its placement's debit, in seamless
    -- mode), a discard's refund as it is recorded, and a settlement's or unsettlement's change of
    -- the payout in force from the bet's history (its entry's payout less the entry's before it).
    select (t.created_at at time zone 'UTC')::date as day, r.provider_id, r.game, r.currency_code, r.player_id,
           case when t.kind = 'bet' and r.free_round_grant_id is null and (r.wallet_mode = 'transfer' or c.status = 'accepted')
                then t.amount else 0 end as bets,
           case when t.kind = 'bet' and r.free_round_grant_id is null and (r.wallet_mode = 'transfer' or c.status = 'accepted')
                then 1 else 0 end as bet_count,
           case when t.kind = 'win' and r.free_round_grant_id is null and h.round_transaction_id is null then t.amount else 0 end
             as wins,
           case when t.kind = 'win' and r.free_round_grant_id is not null
                then coalesce(l.amount, sl.amount, (fc.request->>'amount')::numeric, 0) else 0 end as free_round_wins,
           case when t.kind = 'rollback' and r.free_round_grant_id is null and t.transaction_id is distinct from 'cgs-cancel-' || t.related_id
                then t.amount else 0 end as rolled_back,
           case when t.kind = 'rollback' and r.free_round_grant_id is null and t.transaction_id = 'cgs-cancel-' || t.related_id
                then t.amount else 0 end as voided,
           0 as rounds,
           case when t.kind = 'sportsbook_place' and (r.wallet_mode = 'transfer' or c.status = 'accepted') then t.amount else 0 end
             as sb_stakes,
           case when t.kind = 'sportsbook_place' and (r.wallet_mode = 'transfer' or c.status = 'accepted') then 1 else 0 end
             as sb_bet_count,
           case when t.kind = 'sportsbook_discard' then t.amount else 0 end as sb_refunded,
           case when t.kind in ('sportsbook_settle', 'sportsbook_unsettle') then coalesce((
             select sum(e.after - e.before)
             from (select x->>'transaction_id' as transaction_id, (x->>'payout')::numeric as after,
                          lag((x->>'payout')::numeric, 1, 0::numeric) over (order by n) as before
                   from public.sportsbook_bet b, jsonb_array_elements(b.settlements) with ordinality a(x, n)
                   where b.round_id = t.round_id and x->>'type' in ('settlement', 'unsettlement')) e
             where e.transaction_id = t.transaction_id), 0) else 0 end as sb_payouts
    from public.round_transaction t
    join public.game_round r on r.id = t.round_id
    left join public.wallet_call c on t.kind in ('bet', 'sportsbook_place') and c.round_transaction_id = t.id and c.action = 'debit'
    left join public.held_win h on t.kind = 'win' and h.round_transaction_id = t.id
    left join public.transaction l on r.free_round_grant_id is not null and t.kind = 'win' and l.id = t.ledger_transaction_id
    -- In test mode the float's movement is the test ledger's line.
    left join public.sandbox_transaction sl on not r.livemode and r.free_round_grant_id is not null and t.kind = 'win'
      and sl.id = t.ledger_transaction_id
    left join public.wallet_call fc on r.free_round_grant_id is not null and t.kind = 'win' and fc.round_transaction_id = t.id
      and fc.action = 'credit'
    where t.client_id = ggr_cells.client_id and t.created_at >= ggr_cells.starts and t.created_at < ggr_cells.ends
      and r.livemode = ggr_cells.livemode
    union all
    -- A held win counts in the day staff released it.
    select (h.decided_at at time zone 'UTC')::date, r.provider_id, r.game, r.currency_code, r.player_id, 0, 0, h.amount, 0, 0, 0, 0,
           0, 0, 0, 0
    from public.held_win h
    join public.game_round r on r.id = h.round_id
    where h.client_id = ggr_cells.client_id and h.status = 'released' and h.decided_at >= ggr_cells.starts
      and h.decided_at < ggr_cells.ends and h.livemode = ggr_cells.livemode
    union all
    -- Rounds, in the day they opened; the sportsbook's bets (rounds of a sportsbook game) apart.
    select (r.opened_at at time zone 'UTC')::date, r.provider_id, r.game, r.currency_code, r.player_id, 0, 0, 0, 0, 0, 0, 1,
           0, 0, 0, 0
    from public.game_round r
    where r.client_id = ggr_cells.client_id and r.livemode = ggr_cells.livemode and r.opened_at >= ggr_cells.starts
      and r.opened_at < ggr_cells.ends
      and not exists (select 1 from public.game g
                      where g.provider_id = r.provider_id and g.code = r.game and g.category = 'sportsbook')
  ) m
  group by m.day, m.provider_id, m.game, m.currency_code, m.player_id;
end;
$$;
revoke execute on function private.ggr_cells from public, anon, authenticated, service_role;

-- A client's play of one mode on the days from_day to to_day, at the roll-up's grain: the days
-- rolled up read from private.ggr_day (rolled up first, live mode), the others summed from the raw
-- rows. What every report and statement reads.
create function private.ggr_rows(client_id uuid, livemode boolean, from_day date, to_day date)
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
    where live_from <= ggr_rows.to_day;
end;
$$;
revoke execute on function private.ggr_rows from public, anon, authenticated, service_role;

create or replace function private.roll_up_ggr_fragments(client_id uuid, from_day date, to_day date) returns void
language plpgsql
set search_path = ''
as $$
begin
  -- Each grouping's cells as private.ggr_report writes and orders them: day, provider, game_id,
  -- currency (the keys a grouping leaves out do not order it).
  insert into private.ggr_day_fragment (client_id, grouped_by, day, cells, cell_count)
  select roll_up_ggr_fragments.client_id, g.grouped_by, c.day,
         string_agg('{"day":"' || to_char(c.day, 'YYYY-MM-DD') || '",'
                    || case when g.by_provider then '"provider":' || to_json(gp.slug)::text || ',' else '' end
                    || case when g.by_game then '"game_id":' || to_json(gp.slug || ':' || c.game)::text || ',' else '' end
                    || c.figures, ','
                    order by case when g.by_provider then gp.slug end, case when g.by_game then gp.slug || ':' || c.game end,
                             c.currency_code),
         count(*)
  from (values ('day', 'day', false, false), ('day,provider', 'provider', true, false), ('day,game', 'game', false, true),
               ('day,provider,game', 'game', true, true)) g(grouped_by, grain, by_provider, by_game)
  join private.ggr_day_cell c on c.grain = g.grain
  left join public.game_provider gp on gp.id = c.provider_id
  where c.client_id = roll_up_ggr_fragments.client_id and c.day >= roll_up_ggr_fragments.from_day
    and c.day <= roll_up_ggr_fragments.to_day
  group by g.grouped_by, c.day;

  insert into private.ggr_day_total (client_id, day, currency_code, bets, wins, free_round_wins, rolled_back, voided, rounds,
                                     sportsbook_stakes, sportsbook_bet_count, sportsbook_refunded, sportsbook_payouts)
  select roll_up_ggr_fragments.client_id, d.day, d.currency_code, sum(d.bets), sum(d.wins), sum(d.free_round_wins),
         sum(d.rolled_back), sum(d.voided), sum(d.rounds), sum(d.sportsbook_stakes), sum(d.sportsbook_bet_count),
         sum(d.sportsbook_refunded), sum(d.sportsbook_payouts)
  from private.ggr_day d
  where d.client_id = roll_up_ggr_fragments.client_id and d.day >= roll_up_ggr_fragments.from_day
    and d.day <= roll_up_ggr_fragments.to_day
  group by d.day, d.currency_code;

  insert into private.ggr_player_days as p (client_id, currency_code, player_id, days)
  select roll_up_ggr_fragments.client_id, d.currency_code, d.player_id, range_agg(daterange(d.day, d.day, '[]'))
  from private.ggr_day d
  where d.client_id = roll_up_ggr_fragments.client_id and d.day >= roll_up_ggr_fragments.from_day
    and d.day <= roll_up_ggr_fragments.to_day and d.bet_count > 0
  group by d.currency_code, d.player_id
  on conflict on constraint ggr_player_days_pkey do update set days = p.days + excluded.days;
end;
$$;
revoke execute on function private.roll_up_ggr_fragments from public, anon, authenticated, service_role;

create or replace function private.roll_up_ggr_cells(client_id uuid, from_day date, to_day date) returns void
language plpgsql
set search_path = ''
as $$
begin
  insert into private.ggr_day_cell (client_id, grain, day, provider_id, game, currency_code, figures)
  select x.client_id, x.grain, x.day, x.provider_id, x.game, x.currency_code,
         -- As private.ggr_report writes figures.
         '"currency":' || to_json(x.currency_code)::text
         || ',"bets":"' || round(x.bets, 4)::text || '","wins":"' || round(x.wins, 4)::text
         || '","free_round_wins":"' || round(x.free_round_wins, 4)::text
         || '","rolled_back":"' || round(x.rolled_back, 4)::text || '","voided":"' || round(x.voided, 4)::text
         || '","ggr":"' || round(x.bets - x.rolled_back - x.voided - x.wins, 4)::text
         || '","rounds":' || x.rounds || ',"players":' || x.players
         || ',"sportsbook":' || case when x.sb_bet_count = 0 and x.sb_refunded = 0 and x.sb_payouts = 0 then 'null'
                                     else '{"bets":' || x.sb_bet_count || ',"stakes":"' || round(x.sb_stakes, 4)::text
                                          || '","refunded":"' || round(x.sb_refunded, 4)::text
                                          || '","payouts":"' || round(x.sb_payouts, 4)::text
                                          || '","ggr":"' || round(x.sb_stakes - x.sb_refunded - x.sb_payouts, 4)::text || '"}' end
         || '}'
  from (
    select roll_up_ggr_cells.client_id,
           case when grouping(d.provider_id) = 1 then 'day' when grouping(d.game) = 1 then 'provider' else 'game' end as grain,
           d.day, d.provider_id, d.game, d.currency_code, sum(d.bets) as bets, sum(d.wins) as wins,
           sum(d.free_round_wins) as free_round_wins, sum(d.rolled_back) as rolled_back, sum(d.voided) as voided,
           sum(d.rounds) as rounds, count(distinct d.player_id) filter (where d.bet_count > 0) as players,
           sum(d.sportsbook_stakes) as sb_stakes, sum(d.sportsbook_bet_count) as sb_bet_count,
           sum(d.sportsbook_refunded) as sb_refunded, sum(d.sportsbook_payouts) as sb_payouts
    from private.ggr_day d
    where d.client_id = roll_up_ggr_cells.client_id and d.day >= roll_up_ggr_cells.from_day and d.day <= roll_up_ggr_cells.to_day
    group by grouping sets ((d.day, d.currency_code), (d.day, d.provider_id, d.currency_code),
                            (d.day, d.provider_id, d.game, d.currency_code))
  ) x;
  -- And what a report by day reads of those days, from them and the same rows.
  perform private.roll_up_ggr_fragments(roll_up_ggr_cells.client_id, roll_up_ggr_cells.from_day, roll_up_ggr_cells.to_day);
end;
$$;
revoke execute on function private.roll_up_ggr_cells from public, anon, authenticated, service_role;

-- ============================================================================================
-- The operator API's read
-- ============================================================================================
create or replace function private.ggr_report(
  key_hash text, from_day date, to_day date, group_by text[], currency text, provider text, game_id text,
  max_cells int default 10000
) returns table (outcome text, report text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  by_day boolean := 'day' = any(group_by);
  by_provider boolean := 'provider' = any(group_by);
  by_game boolean := 'game' = any(group_by);
  by_player boolean := 'player' = any(group_by);
  -- The grain of private.ggr_day_cell whose rows are this report's cells: what it groups by, or a
  -- finer one its filters need (one provider's or game's rows of a day are that day's cell).
  cell_grain text := case when by_game or ggr_report.game_id is not null then 'game'
                     when by_provider or ggr_report.provider is not null then 'provider' else 'day' end;
  -- The private.ggr_day_fragment grouping (grouped_by) that is this report's closed days, written: one by day,
  -- not by player, without filters.
  fragment text := case when by_day and not by_player and ggr_report.currency is null and ggr_report.provider is null
                              and ggr_report.game_id is null
                        then 'day' || case when by_provider then ',provider' else '' end
                                   || case when by_game then ',game' else '' end end;
  through date;
  -- The last day read from the roll-up's cells or fragments; after it, from the roll-up's rows.
  split date;
  -- Whether the days up to split are read from the fragments (and the totals' from the days' totals).
  whole boolean;
  later_count bigint;
  later_cells text;
  totals text;
  fragments bigint;
  first_fragment date;
  closed_count bigint;
begin
  select * into caller from private.authenticate_api_key(ggr_report.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized'::text, null::text;
    return;
  end if;
  -- Cells of whole days without players are rolled up (a live client's closed days).
  if caller.livemode and by_day and not by_player then
    through := private.roll_up_ggr(caller.client_id);
  end if;
  -- (least() would skip a null through: none rolled up, no day is read from the cells.)
  split := case when through is null then ggr_report.from_day - 1 else least(ggr_report.to_day, through) end;
  whole := fragment is not null and split >= ggr_report.from_day;
  with filtered as materialized (
    -- The roll-up's rows: of the whole range, or only of the days after split when those up to it
    -- are read whole.
    select case when by_day then r.day end as g_day,
           case when by_provider then gp.slug end as g_provider,
           case when by_game then gp.slug || ':' || r.game end as g_game,
           r.currency_code as g_currency,
           case when by_player then r.player_id end as g_player,
           r.*
    from private.ggr_rows(caller.client_id, caller.livemode, case when whole then split + 1 else ggr_report.from_day end,
                          ggr_report.to_day) r
    join public.game_provider gp on gp.id = r.provider_id
    where (ggr_report.currency is null or r.currency_code = ggr_report.currency)
      and (ggr_report.provider is null or gp.slug = ggr_report.provider)
      and (ggr_report.game_id is null or gp.slug || ':' || r.game = ggr_report.game_id)
  ), players as (
    -- Each currency's players over the whole range: those of the rows read, and of the days read whole.
    select u.currency, count(*) as players
    from (
      select k.g_currency as currency, k.player_id from filtered k where k.bet_count > 0
      union
      select p.currency_code, p.player_id from private.ggr_player_days p
      where whole and p.client_id = caller.client_id and p.days && daterange(ggr_report.from_day, split, '[]')
    ) u
    group by u.currency
  ), grouped as materialized (
    -- The days up to split, when not read whole: a row of the grain's roll-up each.
    select false as total, case when by_day then c.day end as day, case when by_provider then gp.slug end as provider,
           case when by_game then gp.slug || ':' || c.game end as game_id, c.currency_code as currency, null::text as player_id,
           c.figures
    from private.ggr_day_cell c
    left join public.game_provider gp on gp.id = c.provider_id
    where not whole and c.client_id = caller.client_id and c.grain = cell_grain and c.day >= ggr_report.from_day
      and c.day <= split
      and (ggr_report.currency is null or c.currency_code = ggr_report.currency)
      and (ggr_report.provider is null or gp.slug = ggr_report.provider)
      and (ggr_report.game_id is null or gp.slug || ':' || c.game = ggr_report.game_id)
    union all
    -- The later days (all of them for a report the roll-up has no grain for), and the totals.
    select x.total, x.day, x.provider, x.game_id, x.currency, x.player_id,
           -- As private.roll_up_ggr_cells writes figures.
           '"currency":' || to_json(x.currency)::text
           || ',"bets":"' || round(x.bets, 4)::text || '","wins":"' || round(x.wins, 4)::text
           || '","free_round_wins":"' || round(x.free_round_wins, 4)::text
           || '","rolled_back":"' || round(x.rolled_back, 4)::text || '","voided":"' || round(x.voided, 4)::text
           || '","ggr":"' || round(x.bets - x.rolled_back - x.voided - x.wins, 4)::text
           || '","rounds":' || x.rounds || ',"players":' || x.players
           || ',"sportsbook":' || case when x.sb_bet_count = 0 and x.sb_refunded = 0 and x.sb_payouts = 0 then 'null'
                                       else '{"bets":' || x.sb_bet_count || ',"stakes":"' || round(x.sb_stakes, 4)::text
                                            || '","refunded":"' || round(x.sb_refunded, 4)::text
                                            || '","payouts":"' || round(x.sb_payouts, 4)::text
                                            || '","ggr":"' || round(x.sb_stakes - x.sb_refunded - x.sb_payouts, 4)::text || '"}' end
           || '}'
    from (
      select false as total, k.g_day as day, k.g_provider as provider, k.g_game as game_id, k.g_currency as currency,
             k.g_player as player_id, sum(k.bets) as bets, sum(k.wins) as wins, sum(k.free_round_wins) as free_round_wins,
             sum(k.rolled_back) as rolled_back, sum(k.voided) as voided, sum(k.rounds) as rounds,
             count(distinct k.player_id) filter (where k.bet_count > 0) as players,
             sum(k.sportsbook_stakes) as sb_stakes, sum(k.sportsbook_bet_count) as sb_bet_count,
             sum(k.sportsbook_refunded) as sb_refunded, sum(k.sportsbook_payouts) as sb_payouts
      from filtered k
      where k.day > split
      group by k.g_day, k.g_provider, k.g_game, k.g_currency, k.g_player
      union all
      select true, null, null, null, t.currency, null, sum(t.bets), sum(t.wins), sum(t.free_round_wins), sum(t.rolled_back),
             sum(t.voided), sum(t.rounds), coalesce(min(p.players), 0), sum(t.sb_stakes), sum(t.sb_bet_count),
             sum(t.sb_refunded), sum(t.sb_payouts)
      from (
        select k.g_currency as currency, k.bets, k.wins, k.free_round_wins, k.rolled_back, k.voided, k.rounds,
               k.sportsbook_stakes as sb_stakes, k.sportsbook_bet_count as sb_bet_count, k.sportsbook_refunded as sb_refunded,
               k.sportsbook_payouts as sb_payouts
        from filtered k
        union all
        select d.currency_code, d.bets, d.wins, d.free_round_wins, d.rolled_back, d.voided, d.rounds, d.sportsbook_stakes,
               d.sportsbook_bet_count, d.sportsbook_refunded, d.sportsbook_payouts
        from private.ggr_day_total d
        where whole and d.client_id = caller.client_id and d.day >= ggr_report.from_day and d.day <= split
      ) t
      left join players p on p.currency = t.currency
      group by t.currency
    ) x
  ), cells as (
    -- Each cell's JSON as text: the keys of its grouping, then its figures.
    select x.total, x.day, x.provider, x.game_id, x.currency, x.player_id,
           '{' || case when x.day is not null then '"day":"' || to_char(x.day, 'YYYY-MM-DD') || '",' else '' end
               || case when x.provider is not null then '"provider":' || to_json(x.provider)::text || ',' else '' end
               || case when x.game_id is not null then '"game_id":' || to_json(x.game_id)::text || ',' else '' end
               || case when x.player_id is not null then '"player_id":' || to_json(x.player_id)::text || ',' else '' end
               || x.figures as cell
    from grouped x
  )
  select count(*) filter (where not c.total),
         string_agg(c.cell, ',' order by c.day, c.provider, c.game_id, c.currency, c.player_id) filter (where not c.total),
         string_agg(c.cell, ',' order by c.currency) filter (where c.total)
  into later_count, later_cells, totals
  from cells c;
  select count(*), min(f.day), coalesce(sum(f.cell_count), 0) into fragments, first_fragment, closed_count
  from private.ggr_day_fragment f
  where whole and f.client_id = caller.client_id and f.grouped_by = fragment and f.day >= ggr_report.from_day and f.day <= split;
  -- The size is known before any JSON is written: a report too large writes none.
  if later_count + closed_count > ggr_report.max_cells then
    return query select 'too_large'::text, null::text;
    return;
  end if;
  -- The report in parts, in order (the caller joins them): a day read whole is a part, the text
  -- the roll-up wrote, never copied into one text here.
  return query select 'ok'::text, concat('{"object":"ggr_report","livemode":', caller.livemode::text,
                                         ',"first_day":"', to_char(ggr_report.from_day, 'YYYY-MM-DD'),
                                         '","last_day":"', to_char(ggr_report.to_day, 'YYYY-MM-DD'),
                                         '","group_by":', to_json(ggr_report.group_by)::text, ',"data":[');
  if fragments > 0 then
    return query select 'ok'::text, case when f.day = first_fragment then f.cells else ',' || f.cells end
                 from private.ggr_day_fragment f
                 where f.client_id = caller.client_id and f.grouped_by = fragment and f.day >= ggr_report.from_day
                   and f.day <= split
                 order by f.day;
  end if;
  return query select 'ok'::text, concat(case when fragments > 0 and later_count > 0 then ',' end, later_cells,
                                         '],"totals":[', totals, ']}');
end;
$$;
revoke execute on function private.ggr_report from public, anon, authenticated, service_role;

-- ============================================================================================
-- Closed days written again
-- ============================================================================================
-- A client with live sportsbook bets: its days rolled up again from the raw rows.
delete from private.ggr_day d
where exists (select 1 from public.sportsbook_bet b where b.client_id = d.client_id and b.livemode);
delete from private.ggr_rolled_up g
where exists (select 1 from public.sportsbook_bet b where b.client_id = g.client_id and b.livemode);
-- Every client's cells, fragments, day totals and players' days, from its rolled-up rows.
delete from private.ggr_day_cell;
delete from private.ggr_day_fragment;
delete from private.ggr_day_total;
delete from private.ggr_player_days;
select private.roll_up_ggr_cells(g.client_id, '-infinity'::date, g.through) from private.ggr_rolled_up g;
