-- Game sessions: what POST /v3/sessions records (spec 2.12, 4.1), the Idempotency-Key store behind
-- it, and the functions the endpoint calls (one per request). Clients read their own sessions, staff
-- read all; nobody writes through the API: the endpoint writes as the database owner.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.game_session (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.users (id) on delete cascade,
  -- Kept when the key is deleted: the session still happened.
  api_key_id uuid references public.api_key (id) on delete set null,
  player_id text not null,
  provider_id uuid not null references public.game_provider (id),
  game text not null,
  currency_code text not null references public.currency (code),
  -- The player's country, when the operator said it (a game restricted there is refused).
  country text,
  status text not null default 'created',
  -- The mode of the key that created it: only keys of that mode see it.
  livemode boolean not null,
  -- What it was made under (the compliance migration): its jurisdiction, the player's KYC status as
  -- the operator said it, and the reality-check interval, all carried in its launch token.
  jurisdiction text references public.jurisdiction (code) on update cascade,
  kyc_status text,
  reality_check_minutes int,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  constraint game_session_player_id_length check (char_length(player_id) between 1 and 128),
  constraint game_session_game_format check (game ~ '^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$'),
  constraint game_session_status_check check (status in ('created', 'active', 'closed')),
  constraint game_session_country_format check (country ~ '^[A-Z]{2}$'),
  constraint game_session_kyc_status_check check (kyc_status in ('unverified', 'pending', 'verified', 'rejected')),
  constraint game_session_reality_check_range check (reality_check_minutes between 1 and 1440),
  constraint game_session_expires_after_creation check (expires_at > created_at)
);
comment on table public.game_session is
  'A game session an operator created for a player (POST /v3/sessions). expires_at ends the launch '
  'window: the signed launch token is valid until then.';
comment on column public.game_session.game is 'The <game> part of game_id (<provider slug>:<game>).';
create index game_session_client_id_created_at_idx on public.game_session (client_id, livemode, created_at desc);
create index game_session_api_key_id_idx on public.game_session (api_key_id);
create index game_session_provider_id_idx on public.game_session (provider_id);
create index game_session_currency_code_idx on public.game_session (currency_code);
create index game_session_jurisdiction_idx on public.game_session (jurisdiction);

-- Stripe's Idempotency-Key semantics, per client and mode. Only completed responses are stored: a request
-- holds a transaction-scoped advisory lock on (client, key) while it runs, so "still in progress"
-- needs no row, and a crash mid-request can never leave a key stuck.
create table private.idempotency_key (
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  idempotency_key text not null,
  request_fingerprint text not null,
  response_status int not null,
  -- json, not jsonb: a replay repeats the first response's bytes, key order included.
  response_body json not null,
  created_at timestamptz not null default now(),
  primary key (client_id, livemode, idempotency_key),
  constraint idempotency_key_length check (char_length(idempotency_key) between 1 and 255),
  constraint idempotency_key_fingerprint_format check (request_fingerprint ~ '^[0-9a-f]{64}$')
);
comment on table private.idempotency_key is
  'First response per (client, mode, Idempotency-Key), replayed to retries for 24 hours; older rows are '
  'ignored, overwritten on reuse and removed by private.purge_idempotency_keys().';
create index idempotency_key_created_at_idx on private.idempotency_key (created_at);

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.game_session enable row level security;
-- private.idempotency_key needs none: its schema is not exposed and no API role has a grant on it.

-- ============================================================================================
-- Grants: read-only for the API roles; the endpoint writes as the owner.
-- ============================================================================================
grant select on public.game_session to authenticated, staff, service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- The advisory lock a request holds on its Idempotency-Key while it runs: one per client, mode and key.
create function private.idempotency_lock(client_id uuid, livemode boolean, idempotency_key text) returns bigint
language sql immutable
set search_path = ''
as $$
  select pg_catalog.hashtextextended(client_id::text || '/' || livemode::text || '/' || idempotency_key, 0);
$$;
revoke execute on function private.idempotency_lock from public, anon, authenticated, service_role;

-- One round trip per request: authenticate the key, honour the Idempotency-Key, check the provider,
-- the game in the catalogue, the currency and the country, record the session and remember the
-- response, all in one transaction. The caller
-- validated the shapes and built the 201 body (it signs the launch token), so this only decides.
-- request_fingerprint and response_body serve replays only: without an Idempotency-Key the caller
-- passes null for both rather than hashing and shipping a body nobody will read, and a created
-- session's body is not sent back (the caller has it).
-- Outcomes: created, replayed, unauthorized, in_progress, key_reused, unprocessable (with every
-- problem found: unknown_provider, provider_unavailable, unknown_game, game_unavailable,
-- unknown_currency, currency_unavailable, currency_not_supported, country_restricted).
create function private.create_game_session(
  key_hash text,
  -- The mode the key names (its prefix), in which the caller built the response: a key row of the
  -- other mode is refused rather than answered in the wrong one.
  livemode boolean,
  idempotency_key text,
  request_fingerprint text,
  session_id uuid,
  player_id text,
  provider_slug text,
  game text,
  currency_code text,
  country text,
  created_at timestamptz,
  expires_at timestamptz,
  response_body json,
  -- Compliance (the compliance migration): the session's jurisdiction, the player's KYC status,
  -- and the reality-check interval its token carries.
  jurisdiction text default null,
  kyc_status text default null,
  reality_check_minutes int default null
) returns table (outcome text, response_status int, body json, problems text[])
language plpgsql
set search_path = ''
as $$
#variable_conflict use_variable
declare
  key_id uuid;
  client_id uuid;
  provider_id uuid;
  provider_status text;
  game_status text;
  game_currencies text[];
  game_restricted text[];
  certified text[];
  currency_active boolean;
  stored private.idempotency_key;
  found_problems text[] := '{}';
begin
  select a.key_id, a.client_id into key_id, client_id
  from private.authenticate_api_key(create_game_session.key_hash) a
  where a.livemode = create_game_session.livemode;
  if key_id is null then
    return query select 'unauthorized', null::int, null::json, null::text[];
    return;
  end if;

  if create_game_session.idempotency_key is not null then
    -- A null fingerprint would compare as unknown and replay another request's response.
    if create_game_session.request_fingerprint is null or response_body is null then
      raise exception 'an Idempotency-Key needs the request fingerprint and the response body'
        using errcode = '22004';
    end if;
    if not pg_try_advisory_xact_lock(private.idempotency_lock(client_id, livemode, create_game_session.idempotency_key)) then
      return query select 'in_progress', null::int, null::json, null::text[];
      return;
    end if;
    select * into stored
    from private.idempotency_key i
    where i.client_id = client_id
      and i.livemode = livemode
      and i.idempotency_key = create_game_session.idempotency_key
      and i.created_at > now() - interval '24 hours';
    if stored.client_id is not null then
      if stored.request_fingerprint <> create_game_session.request_fingerprint then
        return query select 'key_reused', null::int, null::json, null::text[];
      else
        return query select 'replayed', stored.response_status, stored.response_body, null::text[];
      end if;
      return;
    end if;
  end if;

  -- A test-only provider does not exist for a live key.
  select gp.id, gp.status into provider_id, provider_status
  from public.game_provider gp where gp.slug = provider_slug and (not gp.test_only or not livemode);
  select c.is_active into currency_active
  from public.currency c where c.code = create_game_session.currency_code;
  if provider_id is null then
    found_problems := found_problems || 'unknown_provider'::text;
  elsif provider_status <> 'active' then
    found_problems := found_problems || 'provider_unavailable'::text;
  else
    select g.status, g.currencies, g.restricted_countries, coalesce(g.jurisdictions, gp.jurisdictions)
    into game_status, game_currencies, game_restricted, certified
    from public.game g join public.game_provider gp on gp.id = g.provider_id
    where g.provider_id = provider_id and g.code = create_game_session.game;
    if game_status is null then
      found_problems := found_problems || 'unknown_game'::text;
    elsif game_status <> 'active' then
      found_problems := found_problems || 'game_unavailable'::text;
    end if;
  end if;
  if currency_active is null then
    found_problems := found_problems || 'unknown_currency'::text;
  elsif not currency_active then
    found_problems := found_problems || 'currency_unavailable'::text;
  elsif game_status = 'active' and cardinality(game_currencies) > 0
        and not (create_game_session.currency_code = any (game_currencies)) then
    found_problems := found_problems || 'currency_not_supported'::text;
  end if;
  if game_status = 'active' and create_game_session.country = any (game_restricted) then
    found_problems := found_problems || 'country_restricted'::text;
  end if;
  found_problems := found_problems || array(
    select p from unnest(private.session_compliance(client_id, certified, create_game_session.jurisdiction,
                                                    create_game_session.country, create_game_session.kyc_status)) p
    where not (p = any (found_problems)));
  -- A request that is wrong is told so (422) before a player who may not play (403): restricted
  -- (the responsible-gaming migration), then not KYC-verified.
  if cardinality(array_remove(found_problems, 'kyc_required')) > 0 then
    return query select 'unprocessable', null::int, null::json, array_remove(found_problems, 'kyc_required');
    return;
  end if;
  if private.player_refusal(client_id, livemode, player_id, session_id, create_game_session.currency_code,
                            create_game_session.jurisdiction) is not null then
    return query select 'player_restricted', null::int, null::json, null::text[];
    return;
  end if;
  if found_problems = array['kyc_required'] then
    perform private.record_refusal(client_id, livemode, player_id, session_id, 'kyc_required', null);
    return query select 'kyc_required', null::int, null::json, null::text[];
    return;
  end if;

  insert into public.game_session
    (id, client_id, api_key_id, livemode, player_id, provider_id, game, currency_code, country, created_at, expires_at,
     jurisdiction, kyc_status, reality_check_minutes)
  values
    (session_id, client_id, key_id, livemode, player_id, provider_id, game, create_game_session.currency_code,
     create_game_session.country, create_game_session.created_at, create_game_session.expires_at,
     create_game_session.jurisdiction, create_game_session.kyc_status, create_game_session.reality_check_minutes);

  if create_game_session.idempotency_key is not null then
    insert into private.idempotency_key as i
      (client_id, livemode, idempotency_key, request_fingerprint, response_status, response_body)
    values
      (client_id, livemode, create_game_session.idempotency_key, create_game_session.request_fingerprint, 201,
       response_body)
    on conflict on constraint idempotency_key_pkey do update
      set request_fingerprint = excluded.request_fingerprint,
          response_status = excluded.response_status,
          response_body = excluded.response_body,
          created_at = excluded.created_at
      where i.created_at <= now() - interval '24 hours';
  end if;

  -- Last, so the row lock concurrent requests with one key meet is held as briefly as possible;
  -- at most one write a minute per key.
  update public.api_key k set last_used_at = now()
  where k.id = key_id and (k.last_used_at is null or k.last_used_at < now() - interval '1 minute');

  return query select 'created', 201, null::json, null::text[];
end;
$$;
comment on function private.create_game_session is
  'POST /v3/sessions in one call: key check, idempotency, provider/game/currency/country check, insert.';
revoke execute on function private.create_game_session from public, anon, authenticated, service_role;

-- GET /v3/sessions/{id} in one call: the key check and the read. Another client's session is
-- 'not_found', exactly like a session that does not exist, so ids reveal nothing; so is one of the
-- other mode.
create function private.read_game_session(key_hash text, session_id uuid)
returns table (
  outcome text, id uuid, player_id text, game_id text, currency text, status text, livemode boolean,
  created_at timestamptz, expires_at timestamptz, jurisdiction text, kyc_status text, reality_check_minutes int
)
language sql stable
set search_path = ''
as $$
  select case when a.client_id is null then 'unauthorized' when s.id is null then 'not_found' else 'found' end,
         s.id, s.player_id, gp.slug || ':' || s.game, s.currency_code, s.status, s.livemode, s.created_at, s.expires_at,
         s.jurisdiction, s.kyc_status, s.reality_check_minutes
  from (select 1) as one
  left join private.authenticate_api_key(read_game_session.key_hash) a on true
  left join public.game_session s
    on s.id = read_game_session.session_id and s.client_id = a.client_id and s.livemode = a.livemode
  left join public.game_provider gp on gp.id = s.provider_id;
$$;
comment on function private.read_game_session is
  'GET /v3/sessions/{id} in one call: outcome unauthorized, not_found (unknown or another client''s) or found.';
revoke execute on function private.read_game_session from public, anon, authenticated, service_role;

-- POST /v3/sessions/{id}/close: the operator ends a session (its player left): no more bets, while
-- wins and rollbacks of rounds already played still settle. Closing a closed session changes
-- nothing. Answers as read_game_session, after the change.
create function private.close_game_session(key_hash text, session_id uuid)
returns table (
  outcome text, id uuid, player_id text, game_id text, currency text, status text, livemode boolean,
  created_at timestamptz, expires_at timestamptz, jurisdiction text, kyc_status text, reality_check_minutes int
)
language plpgsql
set search_path = ''
as $$
begin
  update public.game_session s set status = 'closed'
  from private.authenticate_api_key(close_game_session.key_hash) a
  where s.id = close_game_session.session_id and s.client_id = a.client_id and s.livemode = a.livemode
    and s.status <> 'closed';
  return query select * from private.read_game_session(close_game_session.key_hash, close_game_session.session_id);
end;
$$;
revoke execute on function private.close_game_session from public, anon, authenticated, service_role;

-- GET /v3/sessions in one call: the key check and a page of the caller's sessions, newest first,
-- paged by keyset on (created_at, id). `authorized` is false (nothing else set) for a key that does
-- not authenticate; an authorized call with nothing to list returns no row. `expired` is a status
-- the API shows, not one stored: a created session past its launch window as of `as_of`.
-- `position` is created_at in RFC 3339, to the microsecond, for the next page's cursor.
create function private.list_game_sessions(
  key_hash text,
  player_id text,
  status text,
  as_of timestamptz,
  before_created timestamptz,
  before_id uuid,
  page_size int
) returns table (
  authorized boolean, id uuid, player_id text, game_id text, currency text, status text, livemode boolean,
  created_at timestamptz, expires_at timestamptz, jurisdiction text, kyc_status text, reality_check_minutes int,
  "position" text
)
language sql stable
set search_path = ''
as $$
  select a.client_id is not null, s.id, s.player_id, s.game_id, s.currency_code, s.status, a.livemode, s.created_at,
         s.expires_at, s.jurisdiction, s.kyc_status, s.reality_check_minutes,
         to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
  from (select 1) as one
  left join private.authenticate_api_key(list_game_sessions.key_hash) a on true
  left join lateral (
    select s.id, s.player_id, gp.slug || ':' || s.game as game_id, s.currency_code, s.status, s.created_at, s.expires_at,
           s.jurisdiction, s.kyc_status, s.reality_check_minutes
    from public.game_session s
    join public.game_provider gp on gp.id = s.provider_id
    where s.client_id = a.client_id and s.livemode = a.livemode
      and (list_game_sessions.player_id is null or s.player_id = list_game_sessions.player_id)
      and case list_game_sessions.status
            when 'created' then s.status = 'created' and s.expires_at > list_game_sessions.as_of
            when 'expired' then s.status = 'created' and s.expires_at <= list_game_sessions.as_of
            when 'active' then s.status = 'active'
            when 'closed' then s.status = 'closed'
            else true
          end
      and (list_game_sessions.before_created is null
           or (s.created_at, s.id) < (list_game_sessions.before_created, list_game_sessions.before_id))
    order by s.created_at desc, s.id desc
    limit list_game_sessions.page_size
  ) s on true;
$$;
comment on function private.list_game_sessions is
  'GET /v3/sessions in one call: the caller''s sessions newest first, filtered, one keyset page.';
revoke execute on function private.list_game_sessions from public, anon, authenticated, service_role;

-- Idempotency keys are promised for 24 hours; schedule this (pg_cron) to keep the table small.
create function private.purge_idempotency_keys() returns bigint
language sql
set search_path = ''
as $$
  with purged as (
    delete from private.idempotency_key where created_at <= now() - interval '24 hours' returning 1
  )
  select count(*) from purged;
$$;
revoke execute on function private.purge_idempotency_keys() from public, anon, authenticated, service_role;

-- ============================================================================================
-- Events: a session created, and closed
-- ============================================================================================
create function private.event_for_session() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.emit_event(new.client_id, new.livemode, case tg_op when 'INSERT' then 'session.created' else 'session.closed' end,
    jsonb_build_object(
    'id', new.id, 'player_id', new.player_id,
    'game_id', (select gp.slug from public.game_provider gp where gp.id = new.provider_id) || ':' || new.game,
    'currency', new.currency_code, 'status', new.status, 'livemode', new.livemode,
    'created_at', new.created_at, 'expires_at', new.expires_at));
  return null;
end;
$$;
revoke execute on function private.event_for_session() from public, anon, authenticated, service_role;

create trigger game_session_event
  after insert on public.game_session
  for each row execute function private.event_for_session();

create trigger game_session_closed_event
  after update of status on public.game_session
  for each row when (old.status <> 'closed' and new.status = 'closed')
  execute function private.event_for_session();

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own game sessions"
  on public.game_session for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all game sessions"
  on public.game_session for select to staff
  using (true);
