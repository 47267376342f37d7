-- Free rounds (issue 34), first part: the catalogue's free-round terms, operators' campaigns and
-- their grants to players, and the operator API's calls over them (../shared/design/
-- bonuses-and-sportsbook.md). An operator gives players a number of rounds of a game at a fixed
-- stake that costs them nothing; the provider plays them (the round engine, a later migration) and
-- what they win is real money.
--
-- Replaces event_type_format (the webhooks migration): an event type may have three parts
-- (`free_rounds.grant.created`), as the design names them.
--
-- Time decides what a status column cannot: a campaign is scheduled before valid_from, active until
-- valid_until, ended after it, whatever a job has recorded yet; a grant not finished by its campaign's
-- valid_until is expired. So expiry needs no sweeper to be correct (private.free_round_grant_status),
-- and a scheduled job only records it and tells the operator. Clients read their own campaigns and
-- grants, staff all; only the API's functions write them. The catalogue's terms are staff's, read by
-- anyone for active games, as games are.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.game_free_rounds (
  game_id uuid primary key references public.game (id) on delete cascade,
  -- per_round: each free round's win is credited when reported; lump_sum: free bets and wins are
  -- tracking only, and one payout at the end is the grant's credit. One mode per game, so a grant's
  -- winnings are credited once by construction.
  payout_mode text not null,
  -- The provider's limits: rounds a grant may hold, and days a campaign may run.
  max_rounds int not null,
  max_validity_days int not null default 30,
  -- The stakes a free round may have, per currency: {"EUR": [0.1, 0.2], ...} (its form held by
  -- private.check_free_round_stakes).
  stakes jsonb not null,
  updated_at timestamptz not null default now(),
  constraint game_free_rounds_payout_mode_check check (payout_mode in ('per_round', 'lump_sum')),
  constraint game_free_rounds_max_rounds_range check (max_rounds between 1 and 1000),
  constraint game_free_rounds_max_validity_days_range check (max_validity_days between 1 and 30)
);
comment on table public.game_free_rounds is
  'The catalogue''s free-round terms of a game that supports them: payout mode, the provider''s limits, stakes per currency.';

create table public.free_round_campaign (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  -- The operator's id: one campaign per client, mode and external_id.
  external_id text not null,
  name text not null,
  -- One provider; its games' codes, in the order given.
  provider_id uuid not null references public.game_provider (id),
  games text[] not null,
  currency_code text not null references public.currency (code),
  bet_amount numeric(20, 4) not null,
  -- Rounds each player is given.
  rounds int not null,
  valid_from timestamptz not null,
  valid_until timestamptz not null,
  -- The most a grant pays in total; null: no cap.
  max_win numeric(20, 4),
  -- What the creating request meant: the same again answers this campaign, another is a conflict.
  request_fingerprint text not null,
  created_at timestamptz not null default now(),
  cancelled_at timestamptz,
  -- When a job recorded its end (free_rounds.campaign.ended); its end is valid_until regardless.
  ended_recorded_at timestamptz,
  constraint free_round_campaign_external_id_key unique (client_id, livemode, external_id),
  constraint free_round_campaign_external_id_length check (char_length(external_id) between 1 and 128),
  constraint free_round_campaign_name_length check (char_length(btrim(name)) between 1 and 200),
  constraint free_round_campaign_games_count check (cardinality(games) between 1 and 50 and array_position(games, null) is null),
  constraint free_round_campaign_bet_amount_positive check (bet_amount > 0),
  constraint free_round_campaign_rounds_range check (rounds between 1 and 1000),
  constraint free_round_campaign_validity check (valid_until > valid_from and valid_until <= valid_from + interval '30 days'),
  constraint free_round_campaign_max_win_positive check (max_win > 0),
  constraint free_round_campaign_fingerprint_format check (request_fingerprint ~ '^[0-9a-f]{64}$')
);
comment on table public.free_round_campaign is
  'An operator''s free-round campaign: games of one provider, a stake in a currency, rounds per player, a validity window.';
-- The client's read (its policy) and the API's list, newest first.
create index free_round_campaign_client_id_idx on public.free_round_campaign (client_id, livemode, created_at desc, id desc);
create index free_round_campaign_provider_id_idx on public.free_round_campaign (provider_id);
create index free_round_campaign_currency_code_idx on public.free_round_campaign (currency_code);

create table public.free_round_grant (
  id uuid primary key default gen_random_uuid(),
  campaign_id uuid not null references public.free_round_campaign (id) on delete cascade,
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  player_id text not null,
  rounds_total int not null,
  rounds_used int not null default 0,
  -- What its rounds won and was paid, and what max_win kept back.
  total_win numeric(20, 4) not null default 0,
  capped_win numeric(20, 4) not null default 0,
  -- The game it plays: locked to the first one played when the campaign lists several.
  game text,
  -- Recorded: pending, in_progress (a round played), completed (every round played and settled),
  -- expired (recorded by a job; time alone makes it so), cancelled. See private.free_round_grant_status.
  status text not null default 'pending',
  -- Its campaign's valid_until: no free bet from then on.
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint free_round_grant_campaign_player_key unique (campaign_id, player_id),
  constraint free_round_grant_player_id_length check (char_length(player_id) between 1 and 128),
  constraint free_round_grant_rounds check (rounds_total between 1 and 1000 and rounds_used between 0 and rounds_total),
  constraint free_round_grant_wins_nonnegative check (total_win >= 0 and capped_win >= 0),
  constraint free_round_grant_status_check check (status in ('pending', 'in_progress', 'completed', 'expired', 'cancelled'))
);
comment on table public.free_round_grant is
  'A campaign''s rounds given to one player: rounds used and left, what they won, the game they are locked to.';
create index free_round_grant_client_id_idx on public.free_round_grant (client_id, livemode, created_at desc, id desc);
create index free_round_grant_player_idx on public.free_round_grant (client_id, livemode, player_id);

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.game_free_rounds enable row level security;
alter table public.free_round_campaign enable row level security;
alter table public.free_round_grant enable row level security;

-- ============================================================================================
-- Grants: the catalogue's terms as the catalogue's; campaigns and grants read-only for the API roles.
-- ============================================================================================
grant select on public.game_free_rounds to anon, authenticated;
grant select, insert, update, delete on public.game_free_rounds to staff;
grant all on public.game_free_rounds to service_role;
grant select on public.free_round_campaign, public.free_round_grant to authenticated, staff, service_role;

-- ============================================================================================
-- Triggers
-- ============================================================================================
-- A game's free-round stakes: an object of ISO 4217 codes, each a non-empty array of amounts above
-- 0 with at most 4 decimals within numeric(20,4), as JSON numbers. A trigger, not a check: a check
-- calling a function needs every writer (staff) to hold execute on it, and a validator is no API.
create function private.check_free_round_stakes() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  currency text;
  amounts jsonb;
  amount jsonb;
  valid boolean := jsonb_typeof(new.stakes) = 'object' and new.stakes <> '{}'::jsonb;
begin
  if valid then
    for currency, amounts in select * from jsonb_each(new.stakes) loop
      valid := valid and currency ~ '^[A-Z]{3}$' and jsonb_typeof(amounts) = 'array' and jsonb_array_length(amounts) > 0;
      exit when not valid;
      for amount in select * from jsonb_array_elements(amounts) loop
        valid := jsonb_typeof(amount) = 'number' and amount::text::numeric > 0 and amount::text::numeric < 1e16
                 and amount::text::numeric = round(amount::text::numeric, 4);
        exit when not valid;
      end loop;
      exit when not valid;
    end loop;
  end if;
  if not valid then
    raise exception 'stakes must map currency codes to arrays of amounts above 0 with at most 4 decimals'
      using errcode = '23514', constraint = 'game_free_rounds_stakes_format', table = 'game_free_rounds';
  end if;
  return new;
end;
$$;
revoke execute on function private.check_free_round_stakes() from public, anon, authenticated, service_role;

create trigger game_free_rounds_check_stakes
  before insert or update of stakes on public.game_free_rounds
  for each row execute function private.check_free_round_stakes();

create trigger game_free_rounds_set_updated_at
  before update on public.game_free_rounds
  for each row execute function private.set_updated_at();

create trigger free_round_grant_set_updated_at
  before update on public.free_round_grant
  for each row execute function private.set_updated_at();

-- Events of three parts (free_rounds.grant.created): the rule replaced is the webhooks migration's.
alter table public.event drop constraint event_type_format;
alter table public.event add constraint event_type_format check (type ~ '^[a-z_]+(\.[a-z_]+){1,2}$');

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- A campaign's status at an instant: its clock decides, a cancellation apart.
create function private.free_round_campaign_status(c public.free_round_campaign, at timestamptz) returns text
language sql immutable
set search_path = ''
as $$
  select case when c.cancelled_at is not null then 'cancelled'
              when at >= c.valid_until then 'ended'
              when at >= c.valid_from then 'active'
              else 'scheduled' end;
$$;
revoke execute on function private.free_round_campaign_status from public, anon, authenticated, service_role;

-- A grant's status at an instant: one not finished by its expiry is expired, recorded or not. The
-- engine asks this too, so a grant past valid_until takes no free bet whatever the column says.
create function private.free_round_grant_status(status text, expires_at timestamptz, at timestamptz) returns text
language sql immutable
set search_path = ''
as $$
  select case when status in ('pending', 'in_progress') and at >= expires_at then 'expired' else status end;
$$;
revoke execute on function private.free_round_grant_status from public, anon, authenticated, service_role;

-- A campaign as the operator API shows it, with its grants counted by status, the rounds played and
-- what they paid.
create function private.free_round_campaign_json(c public.free_round_campaign, at timestamptz) returns text
language sql stable
set search_path = ''
as $$
  select json_build_object(
    'id', c.id, 'external_id', c.external_id, 'name', c.name,
    'game_ids', (select json_agg(gp.slug || ':' || g.code order by g.i) from unnest(c.games) with ordinality g (code, i)),
    'currency', c.currency_code, 'bet_amount', c.bet_amount::text, 'rounds', c.rounds,
    'valid_from', c.valid_from, 'valid_until', c.valid_until, 'max_win', c.max_win::text,
    'status', private.free_round_campaign_status(c, at), 'livemode', c.livemode,
    'grants', json_build_object('pending', s.pending, 'in_progress', s.in_progress, 'completed', s.completed,
                                'expired', s.expired, 'cancelled', s.cancelled),
    'rounds_played', s.rounds_played, 'total_paid', s.total_paid::text,
    'created_at', c.created_at, 'cancelled_at', c.cancelled_at)::text
  from public.game_provider gp,
  lateral (
    select count(*) filter (where t.status = 'pending')::int as pending,
           count(*) filter (where t.status = 'in_progress')::int as in_progress,
           count(*) filter (where t.status = 'completed')::int as completed,
           count(*) filter (where t.status = 'expired')::int as expired,
           count(*) filter (where t.status = 'cancelled')::int as cancelled,
           coalesce(sum(t.rounds_used), 0)::int as rounds_played,
           coalesce(sum(t.total_win), 0)::numeric(20, 4) as total_paid
    from (select private.free_round_grant_status(g.status, g.expires_at, at) as status, g.rounds_used, g.total_win
          from public.free_round_grant g where g.campaign_id = c.id) t
  ) s
  where gp.id = c.provider_id;
$$;
revoke execute on function private.free_round_campaign_json from public, anon, authenticated, service_role;

-- A grant as the operator API shows it: rounds_left is what can still be played (none once it is
-- over), game_id the game it is locked to (null until its first round).
create function private.free_round_grant_json(g public.free_round_grant, at timestamptz) returns text
language sql stable
set search_path = ''
as $$
  select json_build_object(
    'id', g.id, 'campaign_id', g.campaign_id, 'campaign_external_id', c.external_id, 'player_id', g.player_id,
    'game_id', case when g.game is not null then gp.slug || ':' || g.game end,
    'currency', c.currency_code, 'bet_amount', c.bet_amount::text,
    'rounds_total', g.rounds_total, 'rounds_used', g.rounds_used,
    'rounds_left', case when private.free_round_grant_status(g.status, g.expires_at, at) in ('pending', 'in_progress')
                        then g.rounds_total - g.rounds_used else 0 end,
    'total_win', g.total_win::text, 'status', private.free_round_grant_status(g.status, g.expires_at, at),
    'expires_at', g.expires_at, 'livemode', g.livemode, 'created_at', g.created_at, 'updated_at', g.updated_at)::text
  from public.free_round_campaign c
  join public.game_provider gp on gp.id = c.provider_id
  where c.id = g.campaign_id;
$$;
revoke execute on function private.free_round_grant_json from public, anon, authenticated, service_role;

-- What a campaign's creating request means, whatever its spelling ("10.5" or "10.50", any offset,
-- players in any order or repeated): the same request again replays, another is a conflict. An
-- absent valid_from is part of the meaning (it is "now" each time).
create function private.free_round_campaign_fingerprint(
  name text, game_ids text[], currency text, bet_amount numeric, rounds int, valid_from timestamptz,
  valid_until timestamptz, max_win numeric, player_ids text[]
) returns text
language sql stable
set search_path = ''
as $$
  select encode(extensions.digest(jsonb_build_object(
    'name', name, 'game_ids', to_jsonb(game_ids), 'currency', currency, 'bet_amount', trim_scale(bet_amount),
    'rounds', rounds, 'valid_from', extract(epoch from valid_from), 'valid_until', extract(epoch from valid_until),
    'max_win', trim_scale(max_win),
    'player_ids', (select coalesce(jsonb_agg(distinct p order by p), '[]'::jsonb) from unnest(player_ids) p))::text, 'sha256'), 'hex');
$$;
revoke execute on function private.free_round_campaign_fingerprint from public, anon, authenticated, service_role;

-- The outbox: a grant made, started, completed, expired or cancelled; a campaign cancelled or its
-- end recorded. Each is written with the change (private.emit_event).
create function private.event_for_free_round_grant() returns trigger
language plpgsql
-- security definer: runs inside the API's and the engine's writes, which may not write the outbox themselves.
security definer
set search_path = ''
as $$
begin
  perform private.emit_event(new.client_id, new.livemode,
    'free_rounds.grant.' || case when tg_op = 'INSERT' then 'created' when new.status = 'in_progress' then 'started' else new.status end,
    private.free_round_grant_json(new, now())::jsonb);
  return null;
end;
$$;
revoke execute on function private.event_for_free_round_grant() from public, anon, authenticated, service_role;

create function private.event_for_free_round_campaign() returns trigger
language plpgsql
-- security definer: as event_for_free_round_grant.
security definer
set search_path = ''
as $$
begin
  perform private.emit_event(new.client_id, new.livemode,
    case when old.cancelled_at is null and new.cancelled_at is not null then 'free_rounds.campaign.cancelled'
         else 'free_rounds.campaign.ended' end,
    private.free_round_campaign_json(new, now())::jsonb);
  return null;
end;
$$;
revoke execute on function private.event_for_free_round_campaign() from public, anon, authenticated, service_role;

create trigger free_round_grant_created_event
  after insert on public.free_round_grant
  for each row execute function private.event_for_free_round_grant();

create trigger free_round_grant_status_event
  after update of status on public.free_round_grant
  for each row when (old.status is distinct from new.status and new.status <> 'pending')
  execute function private.event_for_free_round_grant();

create trigger free_round_campaign_event
  after update of cancelled_at, ended_recorded_at on public.free_round_campaign
  for each row when ((old.cancelled_at is null and new.cancelled_at is not null)
                     or (old.ended_recorded_at is null and new.ended_recorded_at is not null and new.cancelled_at is null))
  execute function private.event_for_free_round_campaign();

-- ============================================================================================
-- The operator API (POST/GET /v3/free-rounds/campaigns, GET .../{id}, POST .../{id}/cancel,
-- POST .../{id}/players, GET /v3/free-rounds/grants, GET .../grants/{id}): one call each with the
-- key check, in the key's mode. Security invoker: the endpoint calls them as the database owner.
-- ============================================================================================
-- The games a campaign names, in its order, each with what judging it needs: null id for a game
-- the catalogue does not have (or a test-only provider's, for a live key).
create function private.free_round_games(game_ids text[], currency text, livemode boolean)
returns table (i int, game_id text, pointer text, id uuid, code text, status text, currencies text[], provider_id uuid,
               provider_status text, supported boolean, max_rounds int, max_validity_days int, stakes jsonb)
language sql stable
set search_path = ''
as $$
  select n.i::int, n.game_id, '#/game_ids/' || (n.i - 1), g.id, g.code, g.status, g.currencies, gp.id, gp.status,
         f.game_id is not null, f.max_rounds, f.max_validity_days, f.stakes -> free_round_games.currency
  from unnest(free_round_games.game_ids) with ordinality n (game_id, i)
  left join public.game_provider gp on gp.slug = split_part(n.game_id, ':', 1)
    and (not free_round_games.livemode or not gp.test_only)
  left join public.game g on g.provider_id = gp.id and g.code = split_part(n.game_id, ':', 2)
  left join public.game_free_rounds f on f.game_id = g.id;
$$;
revoke execute on function private.free_round_games from public, anon, authenticated, service_role;

-- Outcomes: created, replayed (the same external_id and request), conflict (the same external_id,
-- another request), unauthorized, or a refusal with its reasons in `problems` ({pointer, code} and,
-- for a stake, the game and its allowed stakes): reference_unavailable (unknown_game,
-- game_unavailable, currency_not_supported, unknown_currency, currency_unavailable),
-- invalid_validity (valid_until_not_after_valid_from, valid_until_passed), mixed_providers,
-- not_supported, stake_not_allowed, limit_exceeded (rounds_above_limit, validity_above_limit).
-- Nothing is written unless it is created.
create function private.create_free_round_campaign(
  key_hash text, external_id text, name text, game_ids text[], currency text, bet_amount numeric, rounds int,
  valid_from timestamptz, valid_until timestamptz, max_win numeric, player_ids text[]
) returns table (outcome text, campaign text, problems jsonb)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  fingerprint text := private.free_round_campaign_fingerprint(create_free_round_campaign.name, create_free_round_campaign.game_ids,
    create_free_round_campaign.currency, create_free_round_campaign.bet_amount, create_free_round_campaign.rounds,
    create_free_round_campaign.valid_from, create_free_round_campaign.valid_until, create_free_round_campaign.max_win,
    create_free_round_campaign.player_ids);
  starts timestamptz := coalesce(create_free_round_campaign.valid_from, now());
  found public.free_round_campaign;
  refused jsonb := '[]'::jsonb;
  currency_active boolean;
  provider uuid;
  limits record;
begin
  select * into caller from private.authenticate_api_key(create_free_round_campaign.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text, null::jsonb;
    return;
  end if;
  select c.* into found from public.free_round_campaign c
  where c.client_id = caller.client_id and c.livemode = caller.livemode and c.external_id = create_free_round_campaign.external_id;
  if found.id is not null then
    return query select case when found.request_fingerprint = fingerprint then 'replayed' else 'conflict' end,
                        private.free_round_campaign_json(found, now()), null::jsonb;
    return;
  end if;

  if create_free_round_campaign.valid_until <= starts then
    return query select 'invalid_validity', null::text,
      '[{"pointer": "#/valid_until", "code": "valid_until_not_after_valid_from"}]'::jsonb;
    return;
  elsif create_free_round_campaign.valid_until <= now() then
    return query select 'invalid_validity', null::text, '[{"pointer": "#/valid_until", "code": "valid_until_passed"}]'::jsonb;
    return;
  end if;

  -- The currency and each game, as a session's are judged (a test-only provider's games exist for
  -- test keys alone).
  select c.is_active into currency_active from public.currency c where c.code = create_free_round_campaign.currency;
  if currency_active is null then
    refused := refused || jsonb_build_object('pointer', '#/currency', 'code', 'unknown_currency');
  elsif not currency_active then
    refused := refused || jsonb_build_object('pointer', '#/currency', 'code', 'currency_unavailable');
  end if;
  select refused || coalesce(jsonb_agg(jsonb_build_object('pointer', e.pointer,
           'code', case when e.id is null then 'unknown_game'
                        when e.status <> 'active' or e.provider_status <> 'active' then 'game_unavailable'
                        else 'currency_not_supported' end) order by e.i), '[]'::jsonb)
  into refused
  from private.free_round_games(create_free_round_campaign.game_ids, create_free_round_campaign.currency, caller.livemode) e
  where e.id is null or e.status <> 'active' or e.provider_status <> 'active'
     or (cardinality(e.currencies) > 0 and not (create_free_round_campaign.currency = any (e.currencies)));
  if refused <> '[]'::jsonb then
    return query select 'reference_unavailable', null::text, refused;
    return;
  end if;

  if (select count(distinct e.provider_id) from private.free_round_games(create_free_round_campaign.game_ids, create_free_round_campaign.currency, caller.livemode) e) > 1 then
    return query select 'mixed_providers', null::text, '[{"pointer": "#/game_ids", "code": "mixed_providers"}]'::jsonb;
    return;
  end if;
  select e.provider_id into provider
  from private.free_round_games(create_free_round_campaign.game_ids, create_free_round_campaign.currency, caller.livemode) e limit 1;

  select coalesce(jsonb_agg(jsonb_build_object('pointer', e.pointer, 'code', 'free_rounds_not_supported') order by e.i), '[]'::jsonb)
  into refused from private.free_round_games(create_free_round_campaign.game_ids, create_free_round_campaign.currency, caller.livemode) e where not e.supported;
  if refused <> '[]'::jsonb then
    return query select 'not_supported', null::text, refused;
    return;
  end if;

  select coalesce(jsonb_agg(jsonb_build_object('pointer', '#/bet_amount', 'code', 'stake_not_allowed', 'game_id', e.game_id,
                                               'allowed', coalesce(e.stakes, '[]'::jsonb)) order by e.i), '[]'::jsonb)
  into refused from private.free_round_games(create_free_round_campaign.game_ids, create_free_round_campaign.currency, caller.livemode) e
  where not exists (select from jsonb_array_elements_text(e.stakes) a where a::numeric = create_free_round_campaign.bet_amount);
  if refused <> '[]'::jsonb then
    return query select 'stake_not_allowed', null::text, refused;
    return;
  end if;

  select min(e.max_rounds) as rounds, min(e.max_validity_days) as days into limits from private.free_round_games(create_free_round_campaign.game_ids, create_free_round_campaign.currency, caller.livemode) e;
  refused := '[]'::jsonb;
  if create_free_round_campaign.rounds > limits.rounds then
    refused := refused || jsonb_build_object('pointer', '#/rounds', 'code', 'rounds_above_limit', 'limit', limits.rounds);
  end if;
  if create_free_round_campaign.valid_until > starts + make_interval(days => limits.days) then
    refused := refused || jsonb_build_object('pointer', '#/valid_until', 'code', 'validity_above_limit', 'limit', limits.days);
  end if;
  if refused <> '[]'::jsonb then
    return query select 'limit_exceeded', null::text, refused;
    return;
  end if;

  insert into public.free_round_campaign as c (client_id, livemode, external_id, name, provider_id, games, currency_code,
    bet_amount, rounds, valid_from, valid_until, max_win, request_fingerprint)
  values (caller.client_id, caller.livemode, create_free_round_campaign.external_id, create_free_round_campaign.name, provider,
    array(select e.code from private.free_round_games(create_free_round_campaign.game_ids, create_free_round_campaign.currency, caller.livemode) e order by e.i), create_free_round_campaign.currency, create_free_round_campaign.bet_amount,
    create_free_round_campaign.rounds, starts, create_free_round_campaign.valid_until, create_free_round_campaign.max_win,
    fingerprint)
  on conflict on constraint free_round_campaign_external_id_key do nothing
  returning c.* into found;
  if found.id is null then
    -- Another request with this external_id committed first: answered as a repeat of it.
    select c.* into found from public.free_round_campaign c
    where c.client_id = caller.client_id and c.livemode = caller.livemode and c.external_id = create_free_round_campaign.external_id;
    return query select case when found.request_fingerprint = fingerprint then 'replayed' else 'conflict' end,
                        private.free_round_campaign_json(found, now()), null::jsonb;
    return;
  end if;
  insert into public.free_round_grant (campaign_id, client_id, livemode, player_id, rounds_total, expires_at)
  select found.id, found.client_id, found.livemode, p, found.rounds, found.valid_until
  from (select distinct p from unnest(coalesce(create_free_round_campaign.player_ids, '{}')) p) players
  order by p;
  return query select 'created', private.free_round_campaign_json(found, now()), null::jsonb;
end;
$$;
revoke execute on function private.create_free_round_campaign from public, anon, authenticated, service_role;

-- One of the caller's campaigns, read (`read`), cancelled (`cancel`) or given to players (`grant`,
-- with `player_ids`). Outcomes: found (with the campaign, or for `grant` how many grants were made
-- and how many existed), not_found, unauthorized, and for `cancel` and `grant`: campaign_ended;
-- for `grant`: campaign_cancelled. A cancel ends the grants not started; a grant in play keeps its
-- open round (the engine takes no new free bet of a cancelled campaign). Cancelling a cancelled
-- campaign answers it as it is.
create function private.free_round_campaign_call(key_hash text, campaign_id uuid, action text, player_ids text[] default null)
returns table (outcome text, body text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  found public.free_round_campaign;
  made int;
begin
  select * into caller from private.authenticate_api_key(free_round_campaign_call.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  if action = 'read' then
    select c.* into found from public.free_round_campaign c
    where c.id = free_round_campaign_call.campaign_id and c.client_id = caller.client_id and c.livemode = caller.livemode;
  else
    -- The row lock orders a cancel and a grant of the same campaign.
    select c.* into found from public.free_round_campaign c
    where c.id = free_round_campaign_call.campaign_id and c.client_id = caller.client_id and c.livemode = caller.livemode
    for update;
  end if;
  if found.id is null then
    return query select 'not_found', null::text;
    return;
  end if;
  if action = 'read' or (action = 'cancel' and found.cancelled_at is not null) then
    return query select 'found', private.free_round_campaign_json(found, now());
    return;
  end if;
  if action not in ('cancel', 'grant') then
    raise exception 'unknown campaign action %', action using errcode = '22023';
  end if;
  if found.cancelled_at is not null then
    return query select 'campaign_cancelled', null::text;
    return;
  end if;
  if now() >= found.valid_until then
    return query select 'campaign_ended', null::text;
    return;
  end if;
  if action = 'cancel' then
    update public.free_round_grant g set status = 'cancelled' where g.campaign_id = found.id and g.status = 'pending';
    update public.free_round_campaign c set cancelled_at = now() where c.id = found.id returning c.* into found;
    return query select 'found', private.free_round_campaign_json(found, now());
    return;
  end if;
  with added as (
    insert into public.free_round_grant (campaign_id, client_id, livemode, player_id, rounds_total, expires_at)
    select found.id, found.client_id, found.livemode, p, found.rounds, found.valid_until
    from (select distinct p from unnest(free_round_campaign_call.player_ids) p) players
    order by p
    on conflict on constraint free_round_grant_campaign_player_key do nothing
    returning 1
  )
  select count(*) into made from added;
  return query select 'found', json_build_object('campaign_id', found.id, 'created', made,
    'unchanged', (select count(distinct p) from unnest(free_round_campaign_call.player_ids) p) - made)::text;
end;
$$;
revoke execute on function private.free_round_campaign_call from public, anon, authenticated, service_role;

-- GET /v3/free-rounds/campaigns: the caller's campaigns in its key's mode, newest first, by keyset on
-- (created_at, id), optionally of one status.
create function private.list_free_round_campaigns(
  key_hash text, status text, before_created timestamptz, before_id uuid, page_size int
) returns table (authorized boolean, id uuid, "position" text, campaign text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select a.key_id is not null, c.id, to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
         private.free_round_campaign_json(c, now())
  from (select 1) one
  left join private.authenticate_api_key(list_free_round_campaigns.key_hash) a on true
  left join lateral (
    select c.* from public.free_round_campaign c
    where c.client_id = a.client_id and c.livemode = a.livemode
      and (list_free_round_campaigns.status is null or private.free_round_campaign_status(c, now()) = list_free_round_campaigns.status)
      and (list_free_round_campaigns.before_created is null
           or (c.created_at, c.id) < (list_free_round_campaigns.before_created, list_free_round_campaigns.before_id))
    order by c.created_at desc, c.id desc
    limit list_free_round_campaigns.page_size
  ) c on true;
end;
$$;
revoke execute on function private.list_free_round_campaigns from public, anon, authenticated, service_role;

-- GET /v3/free-rounds/grants: the caller's grants in its key's mode, newest first, by keyset on
-- (created_at, id), filtered by player, campaign and status (as time makes it).
create function private.list_free_round_grants(
  key_hash text, player_id text, campaign_id uuid, status text, before_created timestamptz, before_id uuid, page_size int
) returns table (authorized boolean, id uuid, "position" text, "grant" text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select a.key_id is not null, g.id, to_char(g.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
         private.free_round_grant_json(g, now())
  from (select 1) one
  left join private.authenticate_api_key(list_free_round_grants.key_hash) a on true
  left join lateral (
    select g.* from public.free_round_grant g
    where g.client_id = a.client_id and g.livemode = a.livemode
      and (list_free_round_grants.player_id is null or g.player_id = list_free_round_grants.player_id)
      and (list_free_round_grants.campaign_id is null or g.campaign_id = list_free_round_grants.campaign_id)
      and (list_free_round_grants.status is null
           or private.free_round_grant_status(g.status, g.expires_at, now()) = list_free_round_grants.status)
      and (list_free_round_grants.before_created is null
           or (g.created_at, g.id) < (list_free_round_grants.before_created, list_free_round_grants.before_id))
    order by g.created_at desc, g.id desc
    limit list_free_round_grants.page_size
  ) g on true;
end;
$$;
revoke execute on function private.list_free_round_grants from public, anon, authenticated, service_role;

create function private.read_free_round_grant(key_hash text, grant_id uuid)
returns table (outcome text, "grant" text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select case when a.key_id is null then 'unauthorized' when g.id is null then 'not_found' else 'found' end,
         case when g.id is not null then private.free_round_grant_json(g, now()) end
  from (select 1) one
  left join private.authenticate_api_key(read_free_round_grant.key_hash) a on true
  left join public.free_round_grant g on g.id = read_free_round_grant.grant_id and g.client_id = a.client_id
    and g.livemode = a.livemode;
end;
$$;
revoke execute on function private.read_free_round_grant from public, anon, authenticated, service_role;

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "anyone reads the free-round terms of active games"
  on public.game_free_rounds for select to anon, authenticated
  using (exists (select 1 from public.game g where g.id = game_id and g.status = 'active'));

create policy "staff read all free-round terms"
  on public.game_free_rounds for select to staff
  using (true);

create policy "staff create free-round terms"
  on public.game_free_rounds for insert to staff
  with check ((select private.is_staff()));

create policy "staff update free-round terms"
  on public.game_free_rounds for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete free-round terms"
  on public.game_free_rounds for delete to staff
  using ((select private.is_staff()));

create policy "clients read their own free-round campaigns"
  on public.free_round_campaign for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all free-round campaigns"
  on public.free_round_campaign for select to staff
  using (true);

create policy "clients read their own free-round grants"
  on public.free_round_grant for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all free-round grants"
  on public.free_round_grant for select to staff
  using (true);

-- ============================================================================================
-- Reference data: the demo provider's games support free rounds (the sandbox), one of them paying
-- a grant's winnings in one sum at its end.
-- ============================================================================================
insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
select g.id, t.payout_mode, t.max_rounds, 30, t.stakes::jsonb
from public.game g
join public.game_provider gp on gp.id = g.provider_id and gp.slug = 'cgs-sandbox'
join (values
  ('lucky-sevens', 'per_round', 100,
   '{"EUR": [0.1, 0.2, 0.5, 1], "USD": [0.1, 0.2, 0.5, 1], "GBP": [0.1, 0.2, 0.5, 1], "SEK": [1, 2, 5, 10], "CAD": [0.1, 0.2, 0.5, 1]}'),
  ('fruit-stand', 'per_round', 100,
   '{"EUR": [0.1, 0.2, 0.5, 1], "USD": [0.1, 0.2, 0.5, 1], "GBP": [0.1, 0.2, 0.5, 1], "SEK": [1, 2, 5, 10], "CAD": [0.1, 0.2, 0.5, 1]}'),
  ('high-roller', 'lump_sum', 50,
   '{"EUR": [1, 2, 5], "USD": [1, 2, 5], "GBP": [1, 2, 5], "SEK": [10, 20, 50], "CAD": [1, 2, 5]}')
) as t (code, payout_mode, max_rounds, stakes) on t.code = g.code;
