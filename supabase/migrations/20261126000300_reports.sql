-- Reports and reconciliation (issue 36): what an operator played, won and owes.
--
-- - GGR (GET /v3/reports/ggr): per UTC day, provider, game, currency and player, what the round
--   engine's rows say, each movement in the day it happened: bets (those that moved money: in
--   seamless mode, those the operator's wallet accepted), wins paid (a held win in the day staff
--   released it; a rejected one never), bets rolled back by the provider, bets voided by staff
--   (resolve_round's `cgs-cancel-` rollbacks), rounds opened, players who bet. GGR is bets less
--   rolled back, voided and won. Money is never summed across currencies: each cell is of one.
-- - Reconciliation (GET /v3/reconciliation/transactions): every round transaction of a time range
--   with what it moved and, in seamless mode, where its wallet call stands.
--
-- The bet path pays nothing for this: no trigger, no roll-up row touched by a bet. A live client's
-- closed days (ended more than an hour ago, no debit of theirs still waiting for the operator's
-- wallet) are rolled up into private.ggr_day when a report first needs them, one client at a time,
-- off the hot path; today, and the days not rolled up yet, are summed from the raw rows. Test mode
-- is always summed from the raw rows (its data is small).
--
-- Replaces round_transaction_client_id_idx (the round engine's index on client_id, for its foreign
-- key) with round_transaction_client_created_idx, whose first column it is: the bet path keeps one
-- index on the client, and a client's rows of a time range are an index range.

-- ============================================================================================
-- Tables (private: the API reaches them only through the report functions)
-- ============================================================================================
create table private.ggr_day (
  client_id uuid not null references auth.users (id) on delete cascade,
  day date not null,
  provider_id uuid not null,
  game text not null,
  currency_code text not null,
  player_id text not null,
  bets numeric not null,
  bet_count bigint not null,
  wins numeric not null,
  free_round_wins numeric not null,
  rolled_back numeric not null,
  voided numeric not null,
  rounds bigint not null,
  constraint ggr_day_pkey primary key (client_id, day, provider_id, game, currency_code, player_id)
);
comment on table private.ggr_day is
  'A live client''s closed days, summed per provider, game, currency and player (private.ggr_cells), for reports.';

create table private.ggr_rolled_up (
  client_id uuid primary key references auth.users (id) on delete cascade,
  -- Every live day up to this one is in private.ggr_day.
  through date not null
);
comment on table private.ggr_rolled_up is 'How far each live client''s days are rolled up into private.ggr_day.';

alter table private.ggr_day enable row level security;
alter table private.ggr_rolled_up enable row level security;
revoke all on private.ggr_day, private.ggr_rolled_up from public, anon, authenticated, service_role;

-- ============================================================================================
-- Indexes
-- ============================================================================================
drop index if exists public.round_transaction_client_id_idx;
create index round_transaction_client_created_idx on public.round_transaction (client_id, created_at, id);
-- Held wins released, by the day they were paid.
create index held_win_released_idx on public.held_win (client_id, decided_at) where status = 'released';

-- ============================================================================================
-- Helper functions
-- ============================================================================================

-- A client's play of one mode in [starts, ends), summed per UTC day, provider, game, currency and
-- player, from the raw rows: the one definition of every report figure.
create function private.ggr_cells(client_id uuid, livemode boolean, starts timestamptz, ends timestamptz)
returns table (
  day date, provider_id uuid, game text, currency_code text, player_id text,
  bets numeric, bet_count bigint, wins numeric, free_round_wins numeric, rolled_back numeric, voided numeric, rounds bigint
)
language sql stable
set search_path = ''
as $$
  select m.day, m.provider_id, m.game, m.currency_code, m.player_id,
         sum(m.bets), sum(m.bet_count)::bigint, sum(m.wins), sum(m.free_round_wins), sum(m.rolled_back), sum(m.voided),
         sum(m.rounds)::bigint
  from (
    -- Movements, in the day they were recorded. A bet counts once it moved money (seamless: the
    -- operator's wallet accepted its debit; a refused one is deleted, a failed one never moved).
    -- A free round (game_round.free_round_grant_id) moves no money but its wins: what each paid
    -- (the float's movement, or the credit call's amount; max_win may cap it below what the
    -- provider reported, and a lump-sum game pays only its payout) is free_round_wins.
    select (t.created_at at time zone 'UTC')::date as day, r.provider_id, r.game, r.currency_code, r.player_id,
           case when t.kind = 'bet' and r.free_round_grant_id is null and (r.wallet_mode = 'transfer' or c.status = 'accepted')
                then t.amount else 0 end as bets,
           case when t.kind = 'bet' and r.free_round_grant_id is null and (r.wallet_mode = 'transfer' or c.status = 'accepted')
                then 1 else 0 end as bet_count,
           case when t.kind = 'win' and r.free_round_grant_id is null and h.round_transaction_id is null then t.amount else 0 end
             as wins,
           case when t.kind = 'win' and r.free_round_grant_id is not null
                then coalesce(l.amount, (fc.request->>'amount')::numeric, 0) else 0 end as free_round_wins,
           case when t.kind = 'rollback' and r.free_round_grant_id is null and t.transaction_id is distinct from 'cgs-cancel-' || t.related_id
                then t.amount else 0 end as rolled_back,
           case when t.kind = 'rollback' and r.free_round_grant_id is null and t.transaction_id = 'cgs-cancel-' || t.related_id
                then t.amount else 0 end as voided,
           0 as rounds
    from public.round_transaction t
    join public.game_round r on r.id = t.round_id
    left join public.wallet_call c on t.kind = 'bet' and c.round_transaction_id = t.id and c.action = 'debit'
    left join public.held_win h on t.kind = 'win' and h.round_transaction_id = t.id
    left join public.transaction l on r.free_round_grant_id is not null and t.kind = 'win' and l.id = t.ledger_transaction_id
    left join public.wallet_call fc on r.free_round_grant_id is not null and t.kind = 'win' and fc.round_transaction_id = t.id
      and fc.action = 'credit'
    where t.client_id = ggr_cells.client_id and t.created_at >= ggr_cells.starts and t.created_at < ggr_cells.ends
      and r.livemode = ggr_cells.livemode
    union all
    -- A held win counts in the day staff released it.
    select (h.decided_at at time zone 'UTC')::date, r.provider_id, r.game, r.currency_code, r.player_id, 0, 0, h.amount, 0, 0, 0, 0
    from public.held_win h
    join public.game_round r on r.id = h.round_id
    where h.client_id = ggr_cells.client_id and h.status = 'released' and h.decided_at >= ggr_cells.starts
      and h.decided_at < ggr_cells.ends and h.livemode = ggr_cells.livemode
    union all
    -- Rounds, in the day they opened; the sportsbook's bets (rounds of a sportsbook game) apart.
    select (r.opened_at at time zone 'UTC')::date, r.provider_id, r.game, r.currency_code, r.player_id, 0, 0, 0, 0, 0, 0, 1
    from public.game_round r
    where r.client_id = ggr_cells.client_id and r.livemode = ggr_cells.livemode and r.opened_at >= ggr_cells.starts
      and r.opened_at < ggr_cells.ends
      and not exists (select 1 from public.game g
                      where g.provider_id = r.provider_id and g.code = r.game and g.category = 'sportsbook')
  ) m
  group by m.day, m.provider_id, m.game, m.currency_code, m.player_id;
$$;
revoke execute on function private.ggr_cells from public, anon, authenticated, service_role;

-- Rolls a live client's closed days up into private.ggr_day and returns the last day rolled up
-- (null: none yet). A day is closed an hour after it ended, and once no debit of the client's made
-- on or before it waits for the operator's wallet (its bet counts only when accepted). Nothing is
-- recorded in a closed day afterwards: a late rollback or release is recorded in its own day.
create function private.roll_up_ggr(client_id uuid) returns date
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
    through := closed;
  end if;
  insert into private.ggr_rolled_up as g (client_id, through) values (roll_up_ggr.client_id, through)
  on conflict on constraint ggr_rolled_up_pkey do update set through = excluded.through;
  return through;
end;
$$;
revoke execute on function private.roll_up_ggr from public, anon, authenticated, service_role;

-- A client's play of one mode on the days from_day to to_day, at the roll-up's grain: the days
-- rolled up read from private.ggr_day (rolled up first, live mode), the others summed from the raw
-- rows. What every report and statement reads.
create function private.ggr_rows(client_id uuid, livemode boolean, from_day date, to_day date)
returns table (
  day date, provider_id uuid, game text, currency_code text, player_id text,
  bets numeric, bet_count bigint, wins numeric, free_round_wins numeric, rolled_back numeric, voided numeric, rounds bigint
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
           d.voided, d.rounds
    from private.ggr_day d
    where ggr_rows.livemode and d.client_id = ggr_rows.client_id and d.day >= ggr_rows.from_day
      and d.day <= least(ggr_rows.to_day, through)
    union all
    select c.day, c.provider_id, c.game, c.currency_code, c.player_id, c.bets, c.bet_count, c.wins, c.free_round_wins, c.rolled_back,
           c.voided, c.rounds
    from private.ggr_cells(ggr_rows.client_id, ggr_rows.livemode, live_from::timestamp at time zone 'UTC',
                           (ggr_rows.to_day + 1)::timestamp at time zone 'UTC') c
    where live_from <= ggr_rows.to_day;
end;
$$;
revoke execute on function private.ggr_rows from public, anon, authenticated, service_role;

-- Money as the API writes it: four decimals, whatever the sum's scale.
create function private.money_text(amount numeric) returns text
language sql immutable
set search_path = ''
as $$
  select round(coalesce(amount, 0), 4)::text;
$$;
revoke execute on function private.money_text from public, anon, authenticated, service_role;

-- ============================================================================================
-- The operator API's reads, each one call with the key check.
-- ============================================================================================

-- GET /v3/reports/ggr: the caller's report in its key's mode, from_day to to_day (UTC, inclusive),
-- in cells of one currency grouped by any of day, provider, game, player; with each currency's
-- totals. Outcomes: unauthorized, too_large (more than max_cells cells), ok (report: the JSON).
create function private.ggr_report(
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
begin
  select * into caller from private.authenticate_api_key(ggr_report.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized'::text, null::text;
    return;
  end if;
  return query
  with raw as (
    select * from private.ggr_rows(caller.client_id, caller.livemode, ggr_report.from_day, ggr_report.to_day)
  ), keyed as (
    select case when by_day then r.day end as g_day,
           case when by_provider then gp.slug end as g_provider,
           case when by_game then gp.slug || ':' || r.game end as g_game,
           r.currency_code as g_currency,
           case when by_player then r.player_id end as g_player,
           r.*
    from raw r
    join public.game_provider gp on gp.id = r.provider_id
    where (ggr_report.currency is null or r.currency_code = ggr_report.currency)
      and (ggr_report.provider is null or gp.slug = ggr_report.provider)
      and (ggr_report.game_id is null or gp.slug || ':' || r.game = ggr_report.game_id)
  ), grouped as materialized (
    select grouping(k.g_day, k.g_provider, k.g_game, k.g_player) <> 0 as total, k.g_day as day, k.g_provider as provider,
           k.g_game as game_id, k.g_currency as currency, k.g_player as player_id,
           sum(k.bets) as bets, sum(k.wins) as wins, sum(k.free_round_wins) as free_round_wins, sum(k.rolled_back) as rolled_back,
           sum(k.voided) as voided,
           sum(k.rounds) as rounds, count(distinct k.player_id) filter (where k.bet_count > 0) as players
    from keyed k
    group by grouping sets ((k.g_day, k.g_provider, k.g_game, k.g_currency, k.g_player), (k.g_currency))
  ), cells as (
    select x.*,
           jsonb_strip_nulls(jsonb_build_object('day', x.day, 'provider', x.provider, 'game_id', x.game_id, 'player_id', x.player_id))
           || jsonb_build_object(
                'currency', x.currency, 'bets', private.money_text(x.bets), 'wins', private.money_text(x.wins),
                'free_round_wins', private.money_text(x.free_round_wins), 'rolled_back', private.money_text(x.rolled_back),
                'voided', private.money_text(x.voided),
                'ggr', private.money_text(x.bets - x.rolled_back - x.voided - x.wins),
                'rounds', x.rounds, 'players', x.players) as cell
    from grouped x
  )
  -- The size is known before any JSON is written: a report too large writes none.
  select case when (select count(*) from grouped g where not g.total) > ggr_report.max_cells then 'too_large' else 'ok' end,
         case when (select count(*) from grouped g where not g.total) <= ggr_report.max_cells then (
           select json_build_object(
                    'object', 'ggr_report', 'livemode', caller.livemode, 'first_day', ggr_report.from_day, 'last_day', ggr_report.to_day,
                    'group_by', to_json(ggr_report.group_by),
                    'data', coalesce(jsonb_agg(c.cell order by c.day, c.provider, c.game_id, c.currency, c.player_id)
                                       filter (where not c.total), '[]'),
                    'totals', coalesce(jsonb_agg(c.cell order by c.currency) filter (where c.total), '[]'))::text
           from cells c) end;
end;
$$;
revoke execute on function private.ggr_report from public, anon, authenticated, service_role;

-- One line of reconciliation: a round transaction as the operator matches it against its own
-- wallet. `moved` is what it moved in the round's wallet (the float or test balance, or the
-- operator's seamless wallet once it accepted the call), signed as the wallet saw it.
create view private.reconciliation_line as
  select t.id, t.client_id, t.created_at, coalesce(r.livemode, c.livemode) as livemode,
         coalesce(r.currency_code, c.request->>'currency') as currency_code, t.kind, t.amount, m.moved,
         json_build_object(
           'id', t.id, 'created_at', t.created_at, 'provider', gp.slug, 'transaction_id', t.transaction_id, 'type', t.kind,
           'round_id', coalesce(r.provider_round_id, c.request->>'round_id'), 'round', r.id,
           'session_id', coalesce(r.session_id, (c.request->>'session_id')::uuid),
           'player_id', coalesce(r.player_id, c.request->>'player_id'),
           'game_id', coalesce(gp.slug || ':' || r.game, c.request->>'game_id'),
           'currency', coalesce(r.currency_code, c.request->>'currency'), 'amount', t.amount::text, 'moved', m.moved::text,
           'related_transaction_id', t.related_transaction_id, 'wallet_mode', coalesce(r.wallet_mode, 'seamless'),
           'ledger_transaction_id', t.ledger_transaction_id, 'review', h.status,
           'wallet_call', case when c.id is not null then json_build_object(
             'id', c.id, 'action', c.action, 'status', c.status, 'attempts', c.attempts,
             'balance', c.balance::text, 'completed_at', c.completed_at) end) as line
  from public.round_transaction t
  left join public.game_round r on r.id = t.round_id
  join public.game_provider gp on gp.id = t.provider_id
  left join public.wallet_call c on c.round_transaction_id = t.id
    and c.action = case t.kind when 'bet' then 'debit' when 'win' then 'credit' else 'rollback' end
  left join public.held_win h on t.kind = 'win' and h.round_transaction_id = t.id
  left join public.transaction fl on r.free_round_grant_id is not null and t.kind = 'win' and fl.id = t.ledger_transaction_id
  cross join lateral (
    select (case
              -- A free round moves no money but what its wins paid.
              when r.free_round_grant_id is not null then
                case when t.kind <> 'win' then 0
                     when r.wallet_mode = 'seamless' then case when c.status = 'accepted' then (c.request->>'amount')::numeric else 0 end
                     else coalesce(fl.amount, 0) end
              when coalesce(r.wallet_mode, 'seamless') = 'seamless' then
                case when c.status = 'accepted' then case when t.kind = 'bet' then -t.amount else t.amount end else 0 end
              when t.kind = 'bet' then -t.amount
              when t.kind = 'win' and h.status is distinct from 'held' and h.status is distinct from 'rejected' then t.amount
              when t.kind = 'rollback' then t.amount
              else 0
            end)::numeric(20, 4) as moved
  ) m
  -- The casino's kinds: the sportsbook's calls are reconciled apart (not yet).
  where t.kind in ('bet', 'win', 'rollback');
revoke all on private.reconciliation_line from public, anon, authenticated, service_role;

-- GET /v3/reconciliation/transactions: the caller's round transactions in its key's mode recorded in
-- [starts, ends), oldest first, a page after (after_at, after_id); with `totals`, a last row of
-- kind `totals` holding each currency's totals over the whole range (without, a last row of kind `end`). A transfer-mode rollback of a
-- bet nobody had seen (a tombstone) moved nothing and belongs to no round, so no mode: it is left
-- out; a seamless one is the operator's call, and listed. `authorized` false (nothing else set)
-- for a key that does not authenticate.
create function private.reconciliation_page(
  key_hash text, starts timestamptz, ends timestamptz, after_at timestamptz, after_id uuid, page_size int, totals boolean
) returns table (authorized boolean, kind text, id uuid, "position" text, line text)
language plpgsql stable
set search_path = ''
as $$
declare
  caller record;
begin
  select * into caller from private.authenticate_api_key(reconciliation_page.key_hash);
  if caller.key_id is null then
    return query select false, null::text, null::uuid, null::text, null::text;
    return;
  end if;
  return query
  select true, 'line'::text, l.id, to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), l.line::text
  from private.reconciliation_line l
  where l.client_id = caller.client_id and l.created_at >= reconciliation_page.starts and l.created_at < reconciliation_page.ends
    and (reconciliation_page.after_at is null
         or (l.created_at, l.id) > (reconciliation_page.after_at, reconciliation_page.after_id))
    and l.livemode = caller.livemode
  order by l.created_at, l.id
  limit reconciliation_page.page_size;
  if reconciliation_page.totals then
    return query
    select true, 'totals'::text, null::uuid, null::text, coalesce(json_agg(x.total order by x.currency_code), '[]')::text
    from (
      select l.currency_code, json_build_object(
               'currency', l.currency_code, 'transactions', count(*),
               'bets', private.money_text(sum(l.amount) filter (where l.kind = 'bet')),
               'wins', private.money_text(sum(l.amount) filter (where l.kind = 'win')),
               'rollbacks', private.money_text(sum(l.amount) filter (where l.kind = 'rollback')),
               'moved', private.money_text(sum(l.moved))) as total
      from private.reconciliation_line l
      where l.client_id = caller.client_id and l.created_at >= reconciliation_page.starts
        and l.created_at < reconciliation_page.ends and l.livemode = caller.livemode
      group by l.currency_code
    ) x;
  else
    -- The key worked: one row says so even when the range holds no line.
    return query select true, 'end'::text, null::uuid, null::text, null::text;
  end if;
end;
$$;
revoke execute on function private.reconciliation_page from public, anon, authenticated, service_role;

-- ============================================================================================
-- Statements: what a client owes for a month of play. Staff set each client's fee rate (its
-- contract); a month's statement is its GGR per provider and currency, and the fee due on each:
-- the GGR times the rate, rounded to four places, nothing on a line whose GGR is not positive (a
-- loss is not carried to another line or month). A month is issued once all its days are rolled
-- up (an hour after it ends) and the client has a contract: its lines are then written once, with
-- the rate of that moment, and never change. Until then a statement is read live, `open`, at the
-- rate now. Clients read their own statements and contract, staff all; staff write contracts; the
-- lines are written only by the issuing function.
-- ============================================================================================
create table public.client_contract (
  client_id uuid primary key references auth.users (id) on delete cascade,
  -- The share of positive GGR the client pays, 0 to 1 (0.15 is 15 %).
  fee_rate numeric(7, 6) not null,
  constraint client_contract_fee_rate_range check (fee_rate >= 0 and fee_rate <= 1)
);
comment on table public.client_contract is
  'Each client''s contract terms set by staff: the fee rate its monthly statements charge on positive GGR.';

create table public.monthly_statement (
  client_id uuid not null references auth.users (id) on delete cascade,
  -- The month's first day.
  month date not null,
  provider_id uuid not null references public.game_provider (id),
  currency_code text not null references public.currency (code),
  bets numeric not null,
  wins numeric not null,
  free_round_wins numeric not null,
  rolled_back numeric not null,
  voided numeric not null,
  ggr numeric not null,
  fee_rate numeric(7, 6) not null,
  amount_due numeric not null,
  issued_at timestamptz not null default now(),
  constraint monthly_statement_pkey primary key (client_id, month, provider_id, currency_code),
  constraint monthly_statement_month_first_day check (extract(day from month) = 1),
  constraint monthly_statement_amount_due_nonnegative check (amount_due >= 0)
);
comment on table public.monthly_statement is
  'Issued monthly statements, a line per provider and currency: GGR, the fee rate then, the amount due. Written once.';
create index monthly_statement_provider_id_idx on public.monthly_statement (provider_id);
create index monthly_statement_currency_code_idx on public.monthly_statement (currency_code);

alter table public.client_contract enable row level security;
alter table public.monthly_statement enable row level security;

grant select on public.client_contract to authenticated;
grant select, insert, update, delete on public.client_contract to staff;
grant all on public.client_contract to service_role;
grant select on public.monthly_statement to authenticated, staff, service_role;

-- Issues the client's statement for the month starting `month` if it can be (the month rolled up,
-- a contract): true when it is issued, now or before. Once per client and month.
create function private.issue_statement(client_id uuid, month date) returns boolean
language plpgsql
set search_path = ''
as $$
declare
  month_end date := (issue_statement.month + interval '1 month')::date - 1;
  rate numeric;
begin
  -- Rolled up through the month's end (a client that never played: once the month is closed).
  if month_end > coalesce(private.roll_up_ggr(issue_statement.client_id),
                          ((now() - interval '1 hour') at time zone 'UTC')::date - 1) then
    return false;
  end if;
  select c.fee_rate into rate from public.client_contract c where c.client_id = issue_statement.client_id;
  if rate is null then
    return false;
  end if;
  perform pg_advisory_xact_lock(hashtextextended(issue_statement.client_id::text || ' statement ' || issue_statement.month, 0));
  if not exists (select 1 from public.monthly_statement s
                 where s.client_id = issue_statement.client_id and s.month = issue_statement.month) then
    insert into public.monthly_statement
      (client_id, month, provider_id, currency_code, bets, wins, free_round_wins, rolled_back, voided, ggr, fee_rate, amount_due)
    select issue_statement.client_id, issue_statement.month, d.provider_id, d.currency_code, sum(d.bets), sum(d.wins),
           sum(d.free_round_wins), sum(d.rolled_back), sum(d.voided), sum(d.bets - d.rolled_back - d.voided - d.wins), rate,
           round(greatest(sum(d.bets - d.rolled_back - d.voided - d.wins), 0) * rate, 4)
    from private.ggr_day d
    where d.client_id = issue_statement.client_id and d.day >= issue_statement.month and d.day <= month_end
    group by d.provider_id, d.currency_code;
  end if;
  return true;
end;
$$;
revoke execute on function private.issue_statement from public, anon, authenticated, service_role;

-- GET /v3/statements/{month}: the caller's statement for the month starting `month` in its key's
-- mode (a test key's is of its test play, never issued). Outcomes: unauthorized, not_found (a month
-- not begun), found (statement: the JSON).
create function private.read_statement(key_hash text, month date) returns table (outcome text, statement text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  issued boolean := false;
  rate numeric;
  month_end date := (read_statement.month + interval '1 month')::date - 1;
begin
  select * into caller from private.authenticate_api_key(read_statement.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized'::text, null::text;
    return;
  elsif read_statement.month > (now() at time zone 'UTC')::date then
    return query select 'not_found'::text, null::text;
    return;
  end if;
  if caller.livemode then
    issued := private.issue_statement(caller.client_id, read_statement.month);
  end if;
  select c.fee_rate into rate from public.client_contract c where c.client_id = caller.client_id and caller.livemode;
  return query
  with lines as (
    select gp.slug as provider, s.currency_code, s.bets, s.wins, s.free_round_wins, s.rolled_back, s.voided, s.ggr, s.fee_rate,
           s.amount_due, s.issued_at
    from public.monthly_statement s
    join public.game_provider gp on gp.id = s.provider_id
    where issued and s.client_id = caller.client_id and s.month = read_statement.month
    union all
    select gp.slug, r.currency_code, sum(r.bets), sum(r.wins), sum(r.free_round_wins), sum(r.rolled_back), sum(r.voided),
           sum(r.bets - r.rolled_back - r.voided - r.wins), rate,
           round(greatest(sum(r.bets - r.rolled_back - r.voided - r.wins), 0) * rate, 4), null
    from private.ggr_rows(caller.client_id, caller.livemode, read_statement.month, month_end) r
    join public.game_provider gp on gp.id = r.provider_id
    where not issued
    group by gp.slug, r.currency_code
  )
  select 'found'::text, json_build_object(
    'object', 'statement', 'month', to_char(read_statement.month, 'YYYY-MM'), 'livemode', caller.livemode,
    'status', case when issued then 'issued' else 'open' end,
    'fee_rate', coalesce((select max(l.fee_rate) from lines l), rate)::numeric(7, 6)::text,
    'issued_at', (select max(l.issued_at) from lines l),
    'lines', coalesce((select json_agg(json_build_object(
               'provider', l.provider, 'currency', l.currency_code, 'bets', private.money_text(l.bets),
               'wins', private.money_text(l.wins), 'free_round_wins', private.money_text(l.free_round_wins),
               'rolled_back', private.money_text(l.rolled_back), 'voided', private.money_text(l.voided),
               'ggr', private.money_text(l.ggr),
               'amount_due', case when l.fee_rate is not null then private.money_text(l.amount_due) end)
               order by l.provider, l.currency_code) from lines l), '[]'),
    'totals', coalesce((select json_agg(json_build_object(
                'currency', t.currency_code, 'ggr', private.money_text(t.ggr),
                'amount_due', case when t.priced then private.money_text(t.amount_due) end) order by t.currency_code)
              from (select l.currency_code, sum(l.ggr) as ggr, sum(l.amount_due) as amount_due, bool_and(l.fee_rate is not null) as priced
                    from lines l group by l.currency_code) t), '[]'))::text;
end;
$$;
revoke execute on function private.read_statement from public, anon, authenticated, service_role;

-- Staff issue the month's statements of every client with a contract whose month is rolled up:
-- how many are issued (now or before).
create function private.issue_statements(month date) returns int
language plpgsql
-- security definer: staff may not write statements themselves; this is the one way they are issued.
security definer
set search_path = ''
as $$
begin
  perform private.require_staff('issue statements');
  if extract(day from issue_statements.month) <> 1 then
    raise exception 'month must be a month''s first day' using errcode = '22023';
  end if;
  return (select count(*) filter (where private.issue_statement(c.client_id, issue_statements.month))::int
          from public.client_contract c);
end;
$$;
revoke execute on function private.issue_statements from public, anon, authenticated;
grant execute on function private.issue_statements to staff, service_role;

create function public.issue_statements(month date) returns int
language sql
set search_path = ''
as $$
  select private.issue_statements(issue_statements.month);
$$;
comment on function public.issue_statements(date) is
  'Staff: issues the month''s statements (month: its first day) of every client with a contract, once the month is rolled up.';
revoke execute on function public.issue_statements(date) from public, anon;
grant execute on function public.issue_statements(date) to authenticated, staff, service_role;

create policy "clients read their own contract"
  on public.client_contract for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all contracts"
  on public.client_contract for select to staff
  using (true);

create policy "staff create contracts"
  on public.client_contract for insert to staff
  with check ((select private.is_staff()));

create policy "staff update contracts"
  on public.client_contract for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete contracts"
  on public.client_contract for delete to staff
  using ((select private.is_staff()));

create policy "clients read their own statements"
  on public.monthly_statement for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all statements"
  on public.monthly_statement for select to staff
  using (true);
