-- Responsible gaming: what an operator's player chose or was given (self-exclusion, a cool-off,
-- loss limits, stake limits, a session time limit), per client, key mode and player_id, set with
-- PUT /v3/players/{player_id}/restrictions. A restriction takes effect at once: a new session is
-- refused (private.create_game_session asks private.player_refusal), and so is a bet in a session
-- already open (the round engine asks it too), while wins and rollbacks of rounds already played
-- still settle. A self-exclusion or cool-off cannot be lifted or shortened before it ends, as
-- regulators require. Every change and every refusal is kept (public.player_restriction_audit,
-- append-only: no role may change or remove a row through the API) and is an event.
-- Loss limits hold net losses (bets less wins and bets given back) per UTC day, week (from Monday)
-- and month, counted from when a limit exists: the engine keeps a running tally per player,
-- currency and period (private.player_loss), locked after the round and the float, so concurrent
-- bets of one player cannot overshoot, and refuses the bet that would cross a limit.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.player_restriction (
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  player_id text not null,
  self_excluded_until timestamptz,
  self_excluded_indefinitely boolean not null default false,
  cool_off_until timestamptz,
  -- { "EUR": { "day": "50.0000", "week": null, "month": "500.0000" } }: net losses per UTC period.
  loss_limits jsonb not null default '{}',
  -- { "EUR": "2.0000" }: the largest bet, per currency.
  stake_limits jsonb not null default '{}',
  session_time_limit_minutes int,
  updated_at timestamptz not null default now(),
  primary key (client_id, livemode, player_id),
  constraint player_restriction_player_id_length check (char_length(player_id) between 1 and 128),
  constraint player_restriction_loss_limits_object check (jsonb_typeof(loss_limits) = 'object'),
  constraint player_restriction_stake_limits_object check (jsonb_typeof(stake_limits) = 'object'),
  constraint player_restriction_session_time_range check (session_time_limit_minutes between 1 and 1440)
);
comment on table public.player_restriction is
  'Responsible-gaming restrictions of an operator''s player (self-exclusion, cool-off, limits), enforced at session creation and every bet.';

create table public.player_restriction_audit (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  player_id text not null,
  -- restrictions_changed, session_refused or bet_refused, with what was set or why.
  action text not null,
  detail jsonb not null,
  created_at timestamptz not null default now(),
  constraint player_restriction_audit_action_check check (action in ('restrictions_changed', 'session_refused', 'bet_refused'))
);
comment on table public.player_restriction_audit is
  'Every change of a player''s restrictions and every refusal they caused; append-only.';
create index player_restriction_audit_client_id_idx on public.player_restriction_audit (client_id, created_at desc);

-- The running tally behind loss limits: a player's net loss in a currency over the current UTC day,
-- week and month, one row (one write per bet or win), each period starting afresh when its start
-- moves. Kept only for players with a limit in that currency; no API role reaches it.
create table private.player_loss (
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  player_id text not null,
  currency_code text not null,
  day_start date not null,
  day_loss numeric(20, 4) not null default 0,
  week_start date not null,
  week_loss numeric(20, 4) not null default 0,
  month_start date not null,
  month_loss numeric(20, 4) not null default 0,
  primary key (client_id, livemode, player_id, currency_code)
);
comment on table private.player_loss is 'Net losses per player and currency over the current UTC day, week and month, for loss limits.';

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.player_restriction enable row level security;
alter table public.player_restriction_audit enable row level security;
alter table private.player_loss enable row level security;

-- ============================================================================================
-- Grants: read-only for the API roles; the endpoint and the engine write as the owner.
-- ============================================================================================
grant select on public.player_restriction, public.player_restriction_audit to authenticated, staff, service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
create function private.player_restriction_json(r public.player_restriction) returns text
language sql immutable
set search_path = ''
as $$
  select json_build_object(
    'player_id', r.player_id, 'self_excluded_until', r.self_excluded_until,
    'self_excluded_indefinitely', r.self_excluded_indefinitely, 'cool_off_until', r.cool_off_until,
    'loss_limits', r.loss_limits, 'stake_limits', r.stake_limits,
    'session_time_limit_minutes', r.session_time_limit_minutes, 'livemode', r.livemode, 'updated_at', r.updated_at)::text;
$$;
revoke execute on function private.player_restriction_json from public, anon, authenticated, service_role;

-- Why a player may not play now, or null: `player_restricted` (self-excluded or cooling off), and
-- for a bet (`amount` given) in a session begun at `started`, `stake_limit_exceeded` (the player's
-- stake limit in the currency, or the session's jurisdiction's maximum stake) and
-- `session_time_exceeded`. A refusal is kept in the audit and is an event.
create function private.player_refusal(
  client_id uuid, livemode boolean, player_id text, session_id uuid, currency text, jurisdiction text,
  started timestamptz default null, amount numeric default null
) returns text
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  r public.player_restriction;
  refusal text;
  limit_amount numeric;
begin
  select * into r from public.player_restriction pr
  where pr.client_id = client_id and pr.livemode = livemode and pr.player_id = player_id;
  if r.player_id is not null and (r.self_excluded_indefinitely or r.self_excluded_until > now() or r.cool_off_until > now()) then
    refusal := 'player_restricted';
  elsif amount is not null then
    limit_amount := least(
      (r.stake_limits->>currency)::numeric,
      (select j.max_stake from public.jurisdiction j where j.code = jurisdiction and j.max_stake_currency = currency));
    if amount > limit_amount then
      refusal := 'stake_limit_exceeded';
    elsif r.session_time_limit_minutes is not null and now() - started > make_interval(mins => r.session_time_limit_minutes) then
      refusal := 'session_time_exceeded';
    end if;
  end if;
  if refusal is not null then
    perform private.record_refusal(client_id, livemode, player_id, session_id, refusal, amount);
  end if;
  return refusal;
end;
$$;
revoke execute on function private.player_refusal from public, anon, authenticated, service_role;

-- A refusal, kept in the audit and told as an event: of a session (no amount) or of a bet.
create function private.record_refusal(
  client_id uuid, livemode boolean, player_id text, session_id uuid, reason text, amount numeric
) returns void
language plpgsql
set search_path = ''
as $$
begin
  insert into public.player_restriction_audit (client_id, livemode, player_id, action, detail)
  values (client_id, livemode, player_id, case when amount is null then 'session_refused' else 'bet_refused' end,
          jsonb_strip_nulls(jsonb_build_object('reason', reason, 'session_id', session_id, 'amount', amount::numeric(20, 4)::text)));
  perform private.emit_event(client_id, livemode, 'player.refused', jsonb_strip_nulls(jsonb_build_object(
    'player_id', player_id, 'reason', reason, 'session_id', session_id,
    'refused', case when amount is null then 'session' else 'bet' end, 'amount', amount::numeric(20, 4)::text)));
end;
$$;
revoke execute on function private.record_refusal from public, anon, authenticated, service_role;

-- Counts `amount` into the player's loss tally in this currency (day, week and month at once) when
-- the player has a loss limit in it: a bet adds, a win or a bet given back subtracts. `bet`: the
-- count is refused (`loss_limit_reached`, nothing counted) when it would take a period past its
-- limit. Called last, after the round and the float are locked, so every call takes its locks in
-- one order.
create function private.count_loss(
  client_id uuid, livemode boolean, player_id text, currency text, amount numeric, bet boolean
) returns text
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  limits jsonb;
  tally private.player_loss;
  utc timestamp := now() at time zone 'UTC';
  day_now numeric;
  week_now numeric;
  month_now numeric;
begin
  select r.loss_limits->currency into limits from public.player_restriction r
  where r.client_id = client_id and r.livemode = livemode and r.player_id = player_id;
  if limits is null or limits = '{}'::jsonb then
    return null;
  end if;
  insert into private.player_loss as l (client_id, livemode, player_id, currency_code, day_start, week_start, month_start)
  values (client_id, livemode, player_id, currency, utc::date, date_trunc('week', utc)::date, date_trunc('month', utc)::date)
  on conflict on constraint player_loss_pkey do nothing;
  select * into tally from private.player_loss l
  where (l.client_id, l.livemode, l.player_id, l.currency_code) = (client_id, livemode, player_id, currency)
  for update;
  -- Each period's tally as of now (a period that has moved on starts from nothing), with this counted.
  day_now := case when tally.day_start = utc::date then tally.day_loss else 0 end + amount;
  week_now := case when tally.week_start = date_trunc('week', utc)::date then tally.week_loss else 0 end + amount;
  month_now := case when tally.month_start = date_trunc('month', utc)::date then tally.month_loss else 0 end + amount;
  if bet and (day_now > (limits->>'day')::numeric or week_now > (limits->>'week')::numeric
              or month_now > (limits->>'month')::numeric) then
    return 'loss_limit_reached';
  end if;
  update private.player_loss l
  set day_start = utc::date, day_loss = day_now, week_start = date_trunc('week', utc)::date,
      week_loss = week_now, month_start = date_trunc('month', utc)::date, month_loss = month_now
  where (l.client_id, l.livemode, l.player_id, l.currency_code) = (client_id, livemode, player_id, currency);
  return null;
end;
$$;
revoke execute on function private.count_loss from public, anon, authenticated, service_role;

-- GET /v3/players/{player_id}/restrictions: the key check and the read (no restrictions: all
-- empty). `authorized` false for a key that does not authenticate.
create function private.read_player_restrictions(key_hash text, player_id text)
returns table (authorized boolean, restrictions text)
language sql stable
set search_path = ''
as $$
  select a.key_id is not null,
         case when a.key_id is not null then private.player_restriction_json(coalesce(r,
           row(a.client_id, a.livemode, read_player_restrictions.player_id, null, false, null, '{}', '{}', null, null)::public.player_restriction)) end
  from (select 1) one
  left join private.authenticate_api_key(read_player_restrictions.key_hash) a on true
  left join public.player_restriction r
    on r.client_id = a.client_id and r.livemode = a.livemode and r.player_id = read_player_restrictions.player_id;
$$;
revoke execute on function private.read_player_restrictions from public, anon, authenticated, service_role;

-- PUT /v3/players/{player_id}/restrictions: the restrictions as a whole, replacing what was set.
-- Outcomes: updated, unauthorized, exclusion_active (a self-exclusion or cool-off would end
-- sooner than it does now: refused, nothing written).
create function private.put_player_restrictions(key_hash text, player_id text, restrictions jsonb)
returns table (outcome text, body text)
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  caller record;
  current public.player_restriction;
  wanted public.player_restriction;
  shown text;
begin
  select * into caller from private.authenticate_api_key(key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  -- One change at a time per player: the check below and the write see one state.
  perform pg_advisory_xact_lock(hashtextextended(caller.client_id::text || ' player ' || caller.livemode::text || ' ' || player_id, 0));
  select * into current from public.player_restriction r
  where r.client_id = caller.client_id and r.livemode = caller.livemode and r.player_id = put_player_restrictions.player_id;
  -- Amounts as stored everywhere: four places ("50" is "50.0000").
  wanted := row(caller.client_id, caller.livemode, player_id,
    (restrictions->>'self_excluded_until')::timestamptz, coalesce((restrictions->>'self_excluded_indefinitely')::boolean, false),
    (restrictions->>'cool_off_until')::timestamptz,
    coalesce((select jsonb_object_agg(c.key, (
               select coalesce(jsonb_object_agg(p.key, to_jsonb((p.value #>> '{}')::numeric(20, 4)::text)), '{}')
               from jsonb_each(c.value) p where jsonb_typeof(p.value) <> 'null'))
             from jsonb_each(restrictions->'loss_limits') c), '{}'),
    coalesce((select jsonb_object_agg(c.key, to_jsonb((c.value #>> '{}')::numeric(20, 4)::text))
             from jsonb_each(restrictions->'stake_limits') c), '{}'),
    (restrictions->>'session_time_limit_minutes')::int, now())::public.player_restriction;
  if (current.self_excluded_indefinitely and not wanted.self_excluded_indefinitely)
     or (current.self_excluded_until > now() and not wanted.self_excluded_indefinitely
         and coalesce(wanted.self_excluded_until, '-infinity') < current.self_excluded_until)
     or (current.cool_off_until > now() and coalesce(wanted.cool_off_until, '-infinity') < current.cool_off_until) then
    return query select 'exclusion_active', null::text;
    return;
  end if;
  insert into public.player_restriction as r values (wanted.*)
  on conflict on constraint player_restriction_pkey do update
    set self_excluded_until = excluded.self_excluded_until, self_excluded_indefinitely = excluded.self_excluded_indefinitely,
        cool_off_until = excluded.cool_off_until, loss_limits = excluded.loss_limits, stake_limits = excluded.stake_limits,
        session_time_limit_minutes = excluded.session_time_limit_minutes, updated_at = excluded.updated_at;
  shown := private.player_restriction_json(wanted);
  insert into public.player_restriction_audit (client_id, livemode, player_id, action, detail)
  values (caller.client_id, caller.livemode, player_id, 'restrictions_changed', shown::jsonb);
  perform private.emit_event(caller.client_id, caller.livemode, 'player.restrictions_updated', shown::jsonb);
  return query select 'updated', shown;
end;
$$;
revoke execute on function private.put_player_restrictions from public, anon, authenticated, service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own players' restrictions"
  on public.player_restriction for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all players' restrictions"
  on public.player_restriction for select to staff
  using (true);

create policy "clients read their own restriction audit"
  on public.player_restriction_audit for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read the restriction audit"
  on public.player_restriction_audit for select to staff
  using (true);
