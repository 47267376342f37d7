-- The rest of the request paths' language sql functions in plpgsql, for the reason the engine's
-- helpers are (`..._plpgsql_helpers.sql`): with its own search_path a language sql function is
-- never inlined, and Postgres 17 plans its body again at every call, once per row when it builds
-- a row's JSON (an events page, the jurisdictions list). Same bodies, same answers;
-- `#variable_conflict use_column` keeps a language sql body's reading of a bare name. The test
-- tests/data/function-language.test.ts names the language sql functions left, and why.

-- (Replaces the webhooks migration's.)
create or replace function private.event_json(e public.event) returns text
language plpgsql immutable
set search_path = ''
as $$
begin
  return json_build_object('id', e.id, 'type', e.type, 'created_at', e.created_at, 'livemode', e.livemode,
                           'data', e.data)::text;
end;
$$;

-- (Replaces the webhooks migration's.)
create or replace function private.retry_delay(failed_attempts int, retry_after_seconds int default null)
returns interval
language plpgsql volatile
set search_path = ''
as $$
declare
  s int[] := array[5, 300, 1800, 7200, 18000, 36000, 36000];
begin
  if failed_attempts is null or failed_attempts not between 1 and cardinality(s) then
    return null;
  end if;
  return make_interval(secs => greatest(s[failed_attempts] * (0.9 + random() * 0.2), coalesce(retry_after_seconds, 0)));
end;
$$;

-- (Replaces the game sessions migration's.)
create or replace function private.idempotency_lock(client_id uuid, livemode boolean, idempotency_key text) returns bigint
language plpgsql immutable
set search_path = ''
as $$
begin
  return pg_catalog.hashtextextended(client_id::text || '/' || livemode::text || '/' || idempotency_key, 0);
end;
$$;

-- (Replaces the compliance migration's.)
create or replace function private.jurisdiction_json(j public.jurisdiction) returns json
language plpgsql immutable
set search_path = ''
as $$
begin
  return json_build_object(
    'code', j.code, 'name', j.name, 'regulator', j.regulator, 'kyc_required', j.kyc_required,
    'countries', to_json(j.countries), 'blocked_countries', to_json(j.blocked_countries),
    'rules', json_build_object(
      'autoplay_allowed', j.autoplay_allowed, 'turbo_allowed', j.turbo_allowed, 'bonus_buy_allowed', j.bonus_buy_allowed,
      'min_round_ms', j.min_round_ms, 'show_net_position', j.show_net_position, 'show_session_time', j.show_session_time,
      'max_stake', j.max_stake::text, 'max_stake_currency', j.max_stake_currency,
      'reality_check_minutes', j.reality_check_minutes),
    'updated_at', j.updated_at);
end;
$$;

-- (Replaces the responsible gaming migration's.)
create or replace function private.player_restriction_json(r public.player_restriction) returns text
language plpgsql immutable
set search_path = ''
as $$
begin
  return json_build_object(
    'player_id', r.player_id, 'self_excluded_until', r.self_excluded_until,
    'self_excluded_indefinitely', r.self_excluded_indefinitely, 'cool_off_until', r.cool_off_until,
    'loss_limits', r.loss_limits, 'stake_limits', r.stake_limits,
    'session_time_limit_minutes', r.session_time_limit_minutes, 'livemode', r.livemode, 'updated_at', r.updated_at)::text;
end;
$$;

-- (Replaces the sandbox migration's.)
create or replace function private.sandbox_player_json(p public.sandbox_player) returns json
language plpgsql immutable
set search_path = ''
as $$
begin
  return json_build_object('player_id', p.player_id, 'currency', p.currency_code, 'balance', p.balance::text,
    'behaviour', p.behaviour, 'livemode', false, 'created_at', p.created_at);
end;
$$;

-- (Replaces the sandbox migration's.)
create or replace function private.sandbox_refusal(s public.game_session) returns text
language plpgsql stable
set search_path = ''
as $$
begin
  return (select case p.behaviour when 'failing_wallet' then 'wallet_failed' when 'slow_wallet' then 'wallet_timeout' end
          from public.sandbox_player p
          where p.client_id = s.client_id and p.player_id = s.player_id and p.currency_code = s.currency_code);
end;
$$;

-- (Replaces the seamless wallet migration's.)
create or replace function private.wallet_call_json(call_id uuid, attempt int, client_id uuid, livemode boolean, request jsonb)
returns json
language plpgsql stable
set search_path = ''
as $$
begin
  return (
    select json_build_object('call_id', call_id, 'attempt', attempt, 'url', w.url,
                             'secrets', array_remove(array[s.secret, case when s.previous_until > now() then s.previous_secret end], null),
                             'request', request)
    from public.wallet_setting w
    join private.wallet_secret s on s.client_id = w.client_id and s.livemode = w.livemode
    where w.client_id = wallet_call_json.client_id and w.livemode = wallet_call_json.livemode);
end;
$$;

-- (Replaces the seamless wallet migration's.)
create or replace function private.wallet_request(s public.game_session, action text, fields jsonb) returns jsonb
language plpgsql stable
set search_path = ''
as $$
begin
  return (
    select jsonb_build_object('action', action, 'session_id', s.id, 'player_id', s.player_id,
                              'game_id', gp.slug || ':' || s.game, 'currency', s.currency_code)
           || coalesce((select jsonb_object_agg(f.key, case when f.key in ('transaction_id', 'rolled_back_transaction_id', 'round_id')
                                                            then to_jsonb(gp.slug || ':' || (f.value #>> '{}')) else f.value end)
                        from jsonb_each(fields) f), '{}')
    from public.game_provider gp where gp.id = s.provider_id);
end;
$$;

-- (Replaces the game catalogue migration's.)
create or replace function private.read_game(key_hash text, provider text, code text)
returns table (outcome text, game text)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  select case when a.key_id is null then 'unauthorized' when g.game is null then 'not_found' else 'found' end, g.game
  from (select 1) one
  left join private.authenticate_api_key(read_game.key_hash) a on true
  left join lateral (
    select g.game
    from private.game_listing g
    where a.key_id is not null and g.provider_slug = read_game.provider and g.code = read_game.code and g.listed
      and (not a.livemode or not exists (
        select from public.game_provider gp where gp.id = g.provider_id and gp.test_only))
  ) g on true;
end;
$$;

-- (Replaces the game catalogue migration's.)
create or replace function private.list_providers(key_hash text)
returns table (authorized boolean, provider json)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  select a.key_id is not null, p.provider
  from (select 1) one
  left join private.authenticate_api_key(list_providers.key_hash) a on true
  left join lateral (
    select json_build_object('slug', gp.slug, 'name', gp.name, 'category', gp.category, 'logo_url', gp.logo_url,
                              'games_count', gp.games_count) as provider
    from public.game_provider gp
    where a.key_id is not null and gp.status = 'active' and (not a.livemode or not gp.test_only)
    order by gp.sort_order, gp.slug collate "C"
  ) p on true;
end;
$$;

-- (Replaces the game catalogue migration's.)
create or replace function private.list_currencies(key_hash text)
returns table (authorized boolean, currency json)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  select a.key_id is not null, c.currency
  from (select 1) one
  left join private.authenticate_api_key(list_currencies.key_hash) a on true
  left join lateral (
    select json_build_object('code', c.code, 'name', c.name, 'symbol', c.symbol) as currency
    from public.currency c
    where a.key_id is not null and c.is_active
    order by c.sort_order, c.code collate "C"
  ) c on true;
end;
$$;

-- (Replaces the game sessions migration's.)
create or replace function private.read_game_session(key_hash text, session_id uuid)
returns table (
  outcome text, id uuid, player_id text, game_id text, currency text, status text, livemode boolean,
  created_at timestamptz, expires_at timestamptz, jurisdiction text, kyc_status text, reality_check_minutes int
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  select case when a.client_id is null then 'unauthorized' when s.id is null then 'not_found' else 'found' end,
         s.id, s.player_id, gp.slug || ':' || s.game, s.currency_code, s.status, s.livemode, s.created_at, s.expires_at,
         s.jurisdiction, s.kyc_status, s.reality_check_minutes
  from (select 1) as one
  left join private.authenticate_api_key(read_game_session.key_hash) a on true
  left join public.game_session s
    on s.id = read_game_session.session_id and s.client_id = a.client_id and s.livemode = a.livemode
  left join public.game_provider gp on gp.id = s.provider_id;
end;
$$;
