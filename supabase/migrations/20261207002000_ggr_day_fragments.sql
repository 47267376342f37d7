-- Reports at size (issue 36), slice 4: a year by day, read as a year's worth of ready text.
--
-- After slice 3 a year by day and provider of one operator of 100 (10,000,000 round transactions)
-- still spent most of its Postgres time on days that never change: each closed cell's keys written
-- and the 1,460 cells joined, on every read; the totals summed again from the year's 2,000
-- roll-up rows (private.ggr_day), players counted distinct among them. Now the roll-up also keeps,
-- for each closed day, what a report of it is made of:
--
-- - private.ggr_day_fragment: the day's cells as a report by day writes them, keys and all, joined
--   in the report's order, for each grouping by day without a player (day; day and provider; day
--   and game; day, provider and game: `currency` is every cell's key anyway), with their count. A
--   report of one of those groupings without filters joins its closed days' fragments, a row a
--   day, and writes only the days after.
-- - private.ggr_day_total: the day's figures per currency, as numbers: a report's totals add them
--   up for its closed days (two rows a day, not every roll-up row).
-- - private.ggr_player_days: the days each player bet, per currency, as a multirange: a report's
--   totals count the players whose days overlap its closed days, and those of its later days, once.
--
-- Never stale, never counted twice, as the cells (slice 3): written once by private.roll_up_ggr_cells
-- in the transaction that rolls the days up and moves the client's mark, from the same rows; a
-- report reads a day from them or from the rows by the same mark, never both. Reports with filters,
-- by player or not by day, and test mode, read as before. Clients rolled up before this migration
-- have their days' fragments, totals and players written here.
--
-- New: the three tables, private.roll_up_ggr_fragments. Replaces private.roll_up_ggr_cells and
-- private.ggr_report (both of 20261127004002_ggr_day_cells.sql).

-- ============================================================================================
-- Tables (private: the API reaches them only through the report functions)
-- ============================================================================================
create table private.ggr_day_fragment (
  client_id uuid not null references auth.users (id) on delete cascade,
  -- What the report groups by, but currency: 'day', 'day,provider', 'day,game', 'day,provider,game'.
  grouped_by text not null,
  day date not null,
  -- The day's cells, each a JSON object as the report writes it, comma-separated, in its order.
  cells text not null,
  cell_count int not null,
  constraint ggr_day_fragment_pkey primary key (client_id, grouped_by, day),
  constraint ggr_day_fragment_grouping_check check (grouped_by in ('day', 'day,provider', 'day,game', 'day,provider,game'))
);
comment on table private.ggr_day_fragment is
  'A live client''s closed day as a report by day writes it, per grouping: its cells'' JSON, joined in order.';

create table private.ggr_day_total (
  client_id uuid not null references auth.users (id) on delete cascade,
  day date not null,
  currency_code text not null,
  bets numeric not null,
  wins numeric not null,
  free_round_wins numeric not null,
  rolled_back numeric not null,
  voided numeric not null,
  rounds bigint not null,
  constraint ggr_day_total_pkey primary key (client_id, day, currency_code)
);
comment on table private.ggr_day_total is 'A live client''s closed days'' figures per currency, for reports'' totals.';

create table private.ggr_player_days (
  client_id uuid not null references auth.users (id) on delete cascade,
  currency_code text not null,
  player_id text not null,
  -- The closed days on which the player made a bet that moved money, in this currency.
  days datemultirange not null,
  constraint ggr_player_days_pkey primary key (client_id, currency_code, player_id)
);
comment on table private.ggr_player_days is 'The closed days each player of a live client bet on, per currency, for reports'' totals.';

alter table private.ggr_day_fragment enable row level security;
alter table private.ggr_day_total enable row level security;
alter table private.ggr_player_days enable row level security;
revoke all on private.ggr_day_fragment, private.ggr_day_total, private.ggr_player_days
  from public, anon, authenticated, service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================

-- Writes a client's fragments, day totals and players' days of the days from_day to to_day, from
-- its rows in private.ggr_day and its cells in private.ggr_day_cell (those days rolled up in the
-- same transaction).
create function private.roll_up_ggr_fragments(client_id uuid, from_day date, to_day date) returns void
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

  insert into private.ggr_day_total (client_id, day, currency_code, bets, wins, free_round_wins, rolled_back, voided, rounds)
  select roll_up_ggr_fragments.client_id, d.day, d.currency_code, sum(d.bets), sum(d.wins), sum(d.free_round_wins),
         sum(d.rolled_back), sum(d.voided), sum(d.rounds)
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
      select true, null, null, null, t.currency, null, sum(t.bets), sum(t.wins), sum(t.free_round_wins), sum(t.rolled_back),
             sum(t.voided), sum(t.rounds), coalesce(min(p.players), 0)
      from (
        select k.g_currency as currency, k.bets, k.wins, k.free_round_wins, k.rolled_back, k.voided, k.rounds from filtered k
        union all
        select d.currency_code, d.bets, d.wins, d.free_round_wins, d.rolled_back, d.voided, d.rounds
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

-- The days already rolled up.
select private.roll_up_ggr_fragments(g.client_id, '-infinity'::date, g.through) from private.ggr_rolled_up g;
