-- Reports at size (issue 36), slice 3: a live client's closed days at the report's own grains.
--
-- A year by day and provider of one operator of 100 (10,000,000 round transactions) is 1,465 cells
-- from 2,000 roll-up rows (private.ggr_day, per day, provider, game, currency and player): after
-- slice 2, most of its 16 ms of Postgres CPU was spent grouping those rows into cells again and
-- writing each cell's figures, on every read, for days that never change. Now the roll-up also
-- keeps each closed day at the three grains a report by day asks for (a cell per day and currency,
-- per day, provider and currency, per day, game and currency: private.ggr_day_cell), each with its
-- players counted at that grain and its figures already written as the report writes them. A report
-- by day and not by player (with any filters) reads its closed days' cells from there, a row each,
-- and groups only the days after; its totals, which count distinct players over the whole range,
-- are still summed from the roll-up's rows.
--
-- Never stale, never counted twice: a day's cells are written once, by private.roll_up_ggr, in the
-- transaction that writes its rows and moves the client's mark past it, from those rows; a closed
-- day never changes afterwards (the roll-up's rule: a late movement is recorded in its own day).
-- A report reads a day from the cells or from the rows by the same mark, never both. Clients rolled
-- up before this migration have their days' cells written here, from their rows.
--
-- New: private.ggr_day_cell, private.roll_up_ggr_cells. Replaces private.roll_up_ggr (of
-- 20261126000300_reports.sql) and private.ggr_report (of 20261127004001_report_cells_as_text.sql).

create table private.ggr_day_cell (
  client_id uuid not null references auth.users (id) on delete cascade,
  -- 'day': a cell per day and currency; 'provider': per day, provider and currency; 'game': per
  -- day, provider, game and currency.
  grain text not null,
  day date not null,
  provider_id uuid,
  game text,
  currency_code text not null,
  -- The cell's JSON after its keys, as the report writes it: currency, money, rounds and players
  -- (who bet in this cell: not a sum over finer cells).
  figures text not null,
  constraint ggr_day_cell_grain_check check (
    grain in ('day', 'provider', 'game') and (provider_id is null) = (grain = 'day') and (game is null) = (grain <> 'game'))
);
comment on table private.ggr_day_cell is
  'A live client''s closed days summed at the report''s day grains (day, provider, game; each per currency), figures as written.';
create unique index ggr_day_cell_key on private.ggr_day_cell (client_id, grain, day, provider_id, game, currency_code) nulls not distinct;
alter table private.ggr_day_cell enable row level security;
revoke all on private.ggr_day_cell from public, anon, authenticated, service_role;

-- Writes a client's cells of the days from_day to to_day from its rows in private.ggr_day (those
-- days rolled up in the same transaction).
create function private.roll_up_ggr_cells(client_id uuid, from_day date, to_day date) returns void
language plpgsql
set search_path = ''
as $$
begin
  insert into private.ggr_day_cell (client_id, grain, day, provider_id, game, currency_code, figures)
  select roll_up_ggr_cells.client_id,
         case when grouping(d.provider_id) = 1 then 'day' when grouping(d.game) = 1 then 'provider' else 'game' end,
         d.day, d.provider_id, d.game, d.currency_code,
         -- As private.ggr_report writes figures.
         '"currency":' || to_json(d.currency_code)::text
         || ',"bets":"' || round(sum(d.bets), 4)::text || '","wins":"' || round(sum(d.wins), 4)::text
         || '","free_round_wins":"' || round(sum(d.free_round_wins), 4)::text
         || '","rolled_back":"' || round(sum(d.rolled_back), 4)::text || '","voided":"' || round(sum(d.voided), 4)::text
         || '","ggr":"' || round(sum(d.bets) - sum(d.rolled_back) - sum(d.voided) - sum(d.wins), 4)::text
         || '","rounds":' || sum(d.rounds) || ',"players":' || count(distinct d.player_id) filter (where d.bet_count > 0) || '}'
  from private.ggr_day d
  where d.client_id = roll_up_ggr_cells.client_id and d.day >= roll_up_ggr_cells.from_day and d.day <= roll_up_ggr_cells.to_day
  group by grouping sets ((d.day, d.currency_code), (d.day, d.provider_id, d.currency_code),
                          (d.day, d.provider_id, d.game, d.currency_code));
end;
$$;
revoke execute on function private.roll_up_ggr_cells from public, anon, authenticated, service_role;

create or replace function private.roll_up_ggr(client_id uuid) returns date
language plpgsql
set search_path = ''
as $$
declare
  closed date := ((now() - interval '1 hour') at time zone 'UTC')::date - 1;
  through date;
  waiting timestamptz;
  first timestamptz;
begin
  select g.through into through from private.ggr_rolled_up g where g.client_id = roll_up_ggr.client_id;
  if through >= closed then
    return through;
  end if;
  -- One roll-up of a client at a time; the second finds the work done.
  perform pg_advisory_xact_lock(hashtextextended(roll_up_ggr.client_id::text || ' ggr roll-up', 0));
  select g.through into through from private.ggr_rolled_up g where g.client_id = roll_up_ggr.client_id;
  if through >= closed then
    return through;
  end if;
  select min(c.created_at) into waiting from public.wallet_call c
  where c.status = 'pending' and c.action = 'debit' and c.client_id = roll_up_ggr.client_id and c.livemode;
  if waiting is not null then
    closed := least(closed, (waiting at time zone 'UTC')::date - 1);
  end if;
  if through is null then
    select min(t.created_at) into first from public.round_transaction t where t.client_id = roll_up_ggr.client_id;
    if first is null then
      return null;
    end if;
    through := (first at time zone 'UTC')::date - 1;
  end if;
  if through < closed then
    insert into private.ggr_day
    select roll_up_ggr.client_id, c.*
    from private.ggr_cells(roll_up_ggr.client_id, true, (through + 1)::timestamp at time zone 'UTC',
                           (closed + 1)::timestamp at time zone 'UTC') c;
    -- The same days at the report's grains, in the same transaction as their rows and the mark.
    perform private.roll_up_ggr_cells(roll_up_ggr.client_id, through + 1, closed);
    through := closed;
  end if;
  insert into private.ggr_rolled_up as g (client_id, through) values (roll_up_ggr.client_id, through)
  on conflict on constraint ggr_rolled_up_pkey do update set through = excluded.through;
  return through;
end;
$$;
revoke execute on function private.roll_up_ggr from public, anon, authenticated, service_role;

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
  through date;
  -- The last day whose cells are read from private.ggr_day_cell; after it, from the roll-up's rows.
  split date;
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
  return query
  with filtered as materialized (
    select case when by_day then r.day end as g_day,
           case when by_provider then gp.slug end as g_provider,
           case when by_game then gp.slug || ':' || r.game end as g_game,
           r.currency_code as g_currency,
           case when by_player then r.player_id end as g_player,
           r.*
    from private.ggr_rows(caller.client_id, caller.livemode, ggr_report.from_day, ggr_report.to_day) r
    join public.game_provider gp on gp.id = r.provider_id
    where (ggr_report.currency is null or r.currency_code = ggr_report.currency)
      and (ggr_report.provider is null or gp.slug = ggr_report.provider)
      and (ggr_report.game_id is null or gp.slug || ':' || r.game = ggr_report.game_id)
  ), grouped as materialized (
    -- The days up to split: a row of the grain's roll-up each.
    select false as total, case when by_day then c.day end as day, case when by_provider then gp.slug end as provider,
           case when by_game then gp.slug || ':' || c.game end as game_id, c.currency_code as currency, null::text as player_id,
           c.figures
    from private.ggr_day_cell c
    left join public.game_provider gp on gp.id = c.provider_id
    where c.client_id = caller.client_id and c.grain = cell_grain and c.day >= ggr_report.from_day and c.day <= split
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
           || '","rounds":' || x.rounds || ',"players":' || x.players || '}'
    from (
      select false as total, k.g_day as day, k.g_provider as provider, k.g_game as game_id, k.g_currency as currency,
             k.g_player as player_id, sum(k.bets) as bets, sum(k.wins) as wins, sum(k.free_round_wins) as free_round_wins,
             sum(k.rolled_back) as rolled_back, sum(k.voided) as voided, sum(k.rounds) as rounds,
             count(distinct k.player_id) filter (where k.bet_count > 0) as players
      from filtered k
      where k.day > split
      group by k.g_day, k.g_provider, k.g_game, k.g_currency, k.g_player
      union all
      select true, null, null, null, k.g_currency, null, sum(k.bets), sum(k.wins), sum(k.free_round_wins), sum(k.rolled_back),
             sum(k.voided), sum(k.rounds), count(distinct k.player_id) filter (where k.bet_count > 0)
      from filtered k
      group by k.g_currency
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
  ), counted as (
    select count(*) filter (where not g.total) as cells from grouped g
  )
  -- The size is known before any JSON is written: a report too large writes none.
  select case when n.cells > ggr_report.max_cells then 'too_large' else 'ok' end,
         case when n.cells <= ggr_report.max_cells then (
           select '{"object":"ggr_report","livemode":' || caller.livemode::text
                  || ',"first_day":"' || to_char(ggr_report.from_day, 'YYYY-MM-DD')
                  || '","last_day":"' || to_char(ggr_report.to_day, 'YYYY-MM-DD')
                  || '","group_by":' || to_json(ggr_report.group_by)::text
                  || ',"data":[' || coalesce(string_agg(c.cell, ',' order by c.day, c.provider, c.game_id, c.currency, c.player_id)
                                               filter (where not c.total), '')
                  || '],"totals":[' || coalesce(string_agg(c.cell, ',' order by c.currency) filter (where c.total), '') || ']}'
           from cells c) end
  from counted n;
end;
$$;
revoke execute on function private.ggr_report from public, anon, authenticated, service_role;

-- The days already rolled up.
select private.roll_up_ggr_cells(g.client_id, '-infinity'::date, g.through) from private.ggr_rolled_up g;
