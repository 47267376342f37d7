-- Webhooks, first part: the outbox. Every event is written in the same transaction as the change it
-- reports, by a trigger on that change's table, so an event never describes a change that rolled
-- back and no change loses its event; with it, one delivery row per endpoint that wants it. The
-- delivery runner, the endpoints' API and the event reads build on these tables.
--
-- An event is `{ id, type, created_at, livemode, data }` (Stripe's and Standard Webhooks' shape);
-- `data` is the object as the API shows it where the API shows one. Clients read their own events,
-- endpoints and deliveries, staff all; nobody writes them through PostgREST. An endpoint's signing
-- secret lives in private.webhook_secret, which no API role reads.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.webhook_endpoint (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  url text not null,
  -- The event types it wants; empty: all.
  event_types text[] not null default '{}',
  enabled boolean not null default true,
  description text,
  secret_prefix text not null,
  -- Since when every attempt to it has failed (null after a success): 5 days of it disable it.
  failing_since timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint webhook_endpoint_url_format check (url ~ '^https?://[^\s/?#]+[^\s]*$' and char_length(url) <= 2048),
  constraint webhook_endpoint_description_length check (char_length(description) <= 500)
);
comment on table public.webhook_endpoint is 'Where a client wants its events sent, and which.';
create index webhook_endpoint_client_id_idx on public.webhook_endpoint (client_id, livemode);

create table private.webhook_secret (
  endpoint_id uuid primary key references public.webhook_endpoint (id) on delete cascade,
  secret text not null,
  previous_secret text,
  previous_until timestamptz,
  constraint webhook_secret_format check (secret ~ '^whsec_[A-Za-z0-9+/]{43}=$')
);
comment on table private.webhook_secret is 'The secret signing deliveries to an endpoint, and the one before a rotation.';

create table public.event (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.users (id) on delete cascade,
  livemode boolean not null,
  type text not null,
  created_at timestamptz not null default now(),
  data jsonb not null,
  constraint event_type_format check (type ~ '^[a-z_]+\.[a-z_]+$')
);
comment on table public.event is 'What happened to a client''s objects, written with the change itself (the outbox).';
create index event_client_id_created_at_idx on public.event (client_id, livemode, created_at desc, id desc);

create table public.webhook_delivery (
  id uuid primary key default gen_random_uuid(),
  event_id uuid not null references public.event (id) on delete cascade,
  endpoint_id uuid not null references public.webhook_endpoint (id) on delete cascade,
  -- The event's client, so a client's read is an index condition like every other.
  client_id uuid not null references auth.users (id) on delete cascade,
  status text not null default 'pending',
  attempts int not null default 0,
  -- The attempts before the last redelivery: the retry schedule starts again after them.
  retry_base int not null default 0,
  next_attempt_at timestamptz not null default now(),
  delivered_at timestamptz,
  constraint webhook_delivery_event_endpoint_key unique (event_id, endpoint_id),
  constraint webhook_delivery_status_check check (status in ('pending', 'delivered', 'failed'))
);
comment on table public.webhook_delivery is 'One event to one endpoint: pending until a 2xx, failed when its retries run out.';
create index webhook_delivery_due_idx on public.webhook_delivery (next_attempt_at) where status = 'pending';
create index webhook_delivery_client_id_idx on public.webhook_delivery (client_id);
create index webhook_delivery_endpoint_id_idx on public.webhook_delivery (endpoint_id);

-- Every attempt at a delivery: when, what came back, how long it took.
create table public.webhook_attempt (
  delivery_id uuid not null references public.webhook_delivery (id) on delete cascade,
  attempt int not null,
  client_id uuid not null references auth.users (id) on delete cascade,
  attempted_at timestamptz not null default now(),
  status_code int,
  duration_ms int not null,
  error text,
  primary key (delivery_id, attempt),
  constraint webhook_attempt_error_length check (char_length(error) <= 500)
);
comment on table public.webhook_attempt is 'Each try at a delivery, for the operator to see what its endpoint answered.';
create index webhook_attempt_client_id_idx on public.webhook_attempt (client_id);

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.webhook_endpoint enable row level security;
alter table private.webhook_secret enable row level security;
alter table public.event enable row level security;
alter table public.webhook_delivery enable row level security;
alter table public.webhook_attempt enable row level security;

-- ============================================================================================
-- Grants: read-only for the API roles.
-- ============================================================================================
grant select on public.webhook_endpoint, public.event, public.webhook_delivery, public.webhook_attempt
  to authenticated, staff, service_role;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- The one way an event is written: the event, and a pending delivery to each enabled endpoint of
-- the client, in the event's mode, that wants its type.
create function private.emit_event(client_id uuid, livemode boolean, type text, data jsonb) returns uuid
language plpgsql
-- security definer: it runs inside whoever's change it reports (staff recording a transaction, the
-- API's owner creating a session), and none of them may write the outbox themselves.
security definer
set search_path = ''
as $$
declare
  event_id uuid;
begin
  insert into public.event (client_id, livemode, type, data)
  values (emit_event.client_id, emit_event.livemode, emit_event.type, emit_event.data)
  returning id into event_id;
  insert into public.webhook_delivery (event_id, endpoint_id, client_id)
  select event_id, e.id, e.client_id
  from public.webhook_endpoint e
  where e.client_id = emit_event.client_id and e.livemode = emit_event.livemode and e.enabled
    and (cardinality(e.event_types) = 0 or emit_event.type = any (e.event_types));
  return event_id;
end;
$$;
revoke execute on function private.emit_event from public, anon, authenticated, service_role;

-- An event as deliveries carry it and the API shows it.
create function private.event_json(e public.event) returns text
language sql immutable
set search_path = ''
as $$
  select json_build_object('id', e.id, 'type', e.type, 'created_at', e.created_at, 'livemode', e.livemode,
                           'data', e.data)::text;
$$;
revoke execute on function private.event_json from public, anon, authenticated, service_role;

create function private.event_for_api_key() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.emit_event(new.client_id, new.livemode,
    case when tg_op = 'INSERT' then 'api_key.created' else 'api_key.revoked' end,
    jsonb_build_object('id', new.id, 'label', new.label, 'key_prefix', new.key_prefix, 'livemode', new.livemode,
                       'status', new.status, 'created_at', new.created_at, 'revoked_at', new.revoked_at));
  return null;
end;
$$;
revoke execute on function private.event_for_api_key() from public, anon, authenticated, service_role;

-- A new Standard Webhooks signing secret: `whsec_` and 32 random bytes, base64 (wallet calls here,
-- webhook endpoints in the webhooks migration).
create function private.new_signing_secret() returns text
language sql volatile
set search_path = ''
as $$
  select 'whsec_' || encode(extensions.gen_random_bytes(32), 'base64');
$$;
revoke execute on function private.new_signing_secret() from public, anon, authenticated, service_role;

-- The retry schedule of everything the platform sends out and retries (webhook deliveries, seamless
-- credits and rollbacks): about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after the failed attempts
-- (Svix's schedule), a tenth either way so retries spread, and no sooner than the receiver's
-- Retry-After. Null after the last: retries are exhausted.
create function private.retry_delay(failed_attempts int, retry_after_seconds int default null)
returns interval
language sql volatile
set search_path = ''
as $$
  select make_interval(secs => greatest(s[failed_attempts] * (0.9 + random() * 0.2), coalesce(retry_after_seconds, 0)))
  from (select array[5, 300, 1800, 7200, 18000, 36000, 36000] as s) schedule
  where failed_attempts between 1 and cardinality(s);
$$;
revoke execute on function private.retry_delay from public, anon, authenticated, service_role;

-- The delivery runner's two calls (any number of runners at once): claim due deliveries, then say
-- how each went. A claim pushes the delivery's next attempt a lease ahead, so one that a crashed
-- runner never finished is due again then; SKIP LOCKED keeps two runners off one delivery.
-- Each claimed delivery comes with what to send: the endpoint's url, its secrets (the current one,
-- and the previous one during a rotation) and the event as JSON.
create function private.claim_deliveries(batch int, lease_seconds int)
returns table (delivery_id uuid, attempt int, event_id uuid, url text, secrets text[], payload text)
language plpgsql
set search_path = ''
as $$
begin
  return query
  with due as (
    select d.id from public.webhook_delivery d
    where d.status = 'pending' and d.next_attempt_at <= now()
    order by d.next_attempt_at
    limit claim_deliveries.batch
    for update skip locked
  ), claimed as (
    update public.webhook_delivery d
    set attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => claim_deliveries.lease_seconds)
    from due where d.id = due.id
    returning d.id, d.attempts, d.event_id, d.endpoint_id
  )
  select c.id, c.attempts, c.event_id, e.url,
         array_remove(array[s.secret, case when s.previous_until > now() then s.previous_secret end], null),
         private.event_json(ev)
  from claimed c
  join public.webhook_endpoint e on e.id = c.endpoint_id
  join private.webhook_secret s on s.endpoint_id = e.id
  join public.event ev on ev.id = c.event_id;
end;
$$;
revoke execute on function private.claim_deliveries from public, anon, authenticated, service_role;

-- After an attempt: a 2xx delivers; a 410 Gone disables the endpoint (Standard Webhooks) and fails
-- the delivery; anything else retries (private.retry_delay), then fails. An endpoint that has failed every attempt for 5 days is disabled, and the client told
-- by an `endpoint.disabled` event to its other endpoints. An attempt already finished, or a claim a
-- later one replaced, changes nothing.
create function private.finish_delivery(
  delivery_id uuid, attempt int, status_code int, duration_ms int, error text, retry_after_seconds int default null
) returns text
language plpgsql
set search_path = ''
as $$
declare
  delivery public.webhook_delivery;
  endpoint public.webhook_endpoint;
  wait interval;
begin
  select * into delivery from public.webhook_delivery d where d.id = finish_delivery.delivery_id for update;
  if delivery.id is null or delivery.status <> 'pending' or delivery.attempts <> finish_delivery.attempt then
    return 'stale';
  end if;
  insert into public.webhook_attempt (delivery_id, attempt, client_id, status_code, duration_ms, error)
  values (delivery.id, delivery.attempts, delivery.client_id, finish_delivery.status_code, finish_delivery.duration_ms,
          left(finish_delivery.error, 500))
  on conflict do nothing;
  if finish_delivery.status_code between 200 and 299 then
    update public.webhook_delivery d set status = 'delivered', delivered_at = now() where d.id = delivery.id;
    update public.webhook_endpoint e set failing_since = null where e.id = delivery.endpoint_id and e.failing_since is not null;
    return 'delivered';
  end if;
  update public.webhook_endpoint e set failing_since = coalesce(e.failing_since, now())
  where e.id = delivery.endpoint_id
  returning e.* into endpoint;
  if finish_delivery.status_code = 410 or (endpoint.enabled and endpoint.failing_since <= now() - interval '5 days') then
    update public.webhook_endpoint e set enabled = false, updated_at = now() where e.id = endpoint.id;
    update public.webhook_delivery d set status = 'failed' where d.id = delivery.id;
    perform private.emit_event(endpoint.client_id, endpoint.livemode, 'endpoint.disabled', jsonb_build_object(
      'endpoint_id', endpoint.id, 'url', endpoint.url,
      'reason', case when finish_delivery.status_code = 410 then 'gone' else 'failing_for_5_days' end));
    return 'endpoint_disabled';
  end if;
  wait := private.retry_delay(delivery.attempts - delivery.retry_base, finish_delivery.retry_after_seconds);
  if wait is null then
    update public.webhook_delivery d set status = 'failed' where d.id = delivery.id;
    return 'failed';
  end if;
  update public.webhook_delivery d set next_attempt_at = now() + wait where d.id = delivery.id;
  return 'retrying';
end;
$$;
revoke execute on function private.finish_delivery from public, anon, authenticated, service_role;

-- ============================================================================================
-- The operator API's endpoints (POST/GET /v3/webhook-endpoints, GET/DELETE .../{id}): one call
-- each with the key check, in the key's mode. The secret is made here and returned by the create
-- call alone.
-- ============================================================================================
create function private.webhook_endpoint_json(e public.webhook_endpoint) returns text
language sql immutable
set search_path = ''
as $$
  select json_build_object('id', e.id, 'url', e.url, 'event_types', to_json(e.event_types), 'enabled', e.enabled,
                           'description', e.description, 'secret_prefix', e.secret_prefix, 'livemode', e.livemode,
                           'created_at', e.created_at, 'updated_at', e.updated_at)::text;
$$;
revoke execute on function private.webhook_endpoint_json from public, anon, authenticated, service_role;

create function private.create_webhook_endpoint(key_hash text, url text, event_types text[], description text)
returns table (authorized boolean, endpoint text, secret text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  new_secret text := private.new_signing_secret();
  created public.webhook_endpoint;
begin
  select * into caller from private.authenticate_api_key(create_webhook_endpoint.key_hash);
  if caller.key_id is null then
    return query select false, null::text, null::text;
    return;
  end if;
  insert into public.webhook_endpoint as e (client_id, livemode, url, event_types, description, secret_prefix)
  values (caller.client_id, caller.livemode, create_webhook_endpoint.url, coalesce(create_webhook_endpoint.event_types, '{}'),
          create_webhook_endpoint.description, left(new_secret, 12))
  returning e.* into created;
  insert into private.webhook_secret (endpoint_id, secret) values (created.id, new_secret);
  return query select true, private.webhook_endpoint_json(created), new_secret;
end;
$$;
revoke execute on function private.create_webhook_endpoint from public, anon, authenticated, service_role;

create function private.list_webhook_endpoints(key_hash text)
returns table (authorized boolean, endpoint text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select a.key_id is not null, case when e.id is not null then private.webhook_endpoint_json(e) end
  from (select 1) one
  left join private.authenticate_api_key(list_webhook_endpoints.key_hash) a on true
  left join public.webhook_endpoint e on e.client_id = a.client_id and e.livemode = a.livemode
  order by e.created_at, e.id;
end;
$$;
revoke execute on function private.list_webhook_endpoints from public, anon, authenticated, service_role;

-- read: the endpoint; delete: the endpoint as it was, its pending deliveries going with it.
create function private.webhook_endpoint_call(key_hash text, endpoint_id uuid, remove boolean)
returns table (outcome text, endpoint text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  found public.webhook_endpoint;
begin
  select * into caller from private.authenticate_api_key(webhook_endpoint_call.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  if webhook_endpoint_call.remove then
    delete from public.webhook_endpoint e
    where e.id = webhook_endpoint_call.endpoint_id and e.client_id = caller.client_id and e.livemode = caller.livemode
    returning e.* into found;
  else
    select e.* into found from public.webhook_endpoint e
    where e.id = webhook_endpoint_call.endpoint_id and e.client_id = caller.client_id and e.livemode = caller.livemode;
  end if;
  return query select case when found.id is null then 'not_found' else 'found' end,
                      case when found.id is not null then private.webhook_endpoint_json(found) end;
end;
$$;
revoke execute on function private.webhook_endpoint_call from public, anon, authenticated, service_role;

-- GET /v3/events: the caller's events of the last 30 days in its key's mode, newest first, by
-- keyset on (created_at, id); GET /v3/events/{id}: one of them.
create function private.list_events(
  key_hash text, type text, before_created timestamptz, before_id uuid, page_size int
) returns table (authorized boolean, id uuid, "position" text, event text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select a.key_id is not null, e.id, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), e.event
  from (select 1) one
  left join private.authenticate_api_key(list_events.key_hash) a on true
  left join lateral (
    select e.id, e.created_at, private.event_json(e) as event from public.event e
    where e.client_id = a.client_id and e.livemode = a.livemode and e.created_at > now() - interval '30 days'
      and (list_events.type is null or e.type = list_events.type)
      and (list_events.before_created is null or (e.created_at, e.id) < (list_events.before_created, list_events.before_id))
    order by e.created_at desc, e.id desc
    limit list_events.page_size
  ) e on true;
end;
$$;
revoke execute on function private.list_events from public, anon, authenticated, service_role;

create function private.read_event(key_hash text, event_id uuid)
returns table (outcome text, event text)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select case when a.key_id is null then 'unauthorized' when e.id is null then 'not_found' else 'found' end,
         case when e.id is not null then private.event_json(e) end
  from (select 1) one
  left join private.authenticate_api_key(read_event.key_hash) a on true
  left join public.event e on e.id = read_event.event_id and e.client_id = a.client_id and e.livemode = a.livemode
    and e.created_at > now() - interval '30 days';
end;
$$;
revoke execute on function private.read_event from public, anon, authenticated, service_role;

-- PATCH /v3/webhook-endpoints/{id} (the fields `patch` names), POST .../rotate-secret (a new
-- secret, answered once; the old one keeps signing for 24 hours) and POST .../test (a ping to this
-- endpoint alone, whatever types it wants). Outcomes: found (with the endpoint, the secret or the
-- event), not_found, unauthorized.
create function private.change_webhook_endpoint(key_hash text, endpoint_id uuid, action text, patch jsonb default null)
returns table (outcome text, endpoint text, secret text, event text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  found public.webhook_endpoint;
  new_secret text;
  ping public.event;
begin
  select * into caller from private.authenticate_api_key(change_webhook_endpoint.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text, null::text, null::text;
    return;
  end if;
  select e.* into found from public.webhook_endpoint e
  where e.id = change_webhook_endpoint.endpoint_id and e.client_id = caller.client_id and e.livemode = caller.livemode
  for update;
  if found.id is null then
    return query select 'not_found', null::text, null::text, null::text;
    return;
  end if;
  if action = 'update' then
    update public.webhook_endpoint e
    set url = coalesce(patch->>'url', e.url),
        event_types = case when patch ? 'event_types' then array(select jsonb_array_elements_text(patch->'event_types'))
                           else e.event_types end,
        enabled = coalesce((patch->>'enabled')::boolean, e.enabled),
        description = case when patch ? 'description' then patch->>'description' else e.description end,
        updated_at = now()
    where e.id = found.id
    returning e.* into found;
  elsif action = 'rotate' then
    new_secret := private.new_signing_secret();
    update private.webhook_secret s
    set previous_secret = s.secret, previous_until = now() + interval '24 hours', secret = new_secret
    where s.endpoint_id = found.id;
    update public.webhook_endpoint e set secret_prefix = left(new_secret, 12), updated_at = now()
    where e.id = found.id
    returning e.* into found;
  elsif action = 'test' then
    insert into public.event as ev (client_id, livemode, type, data)
    values (found.client_id, found.livemode, 'endpoint.ping', jsonb_build_object('endpoint_id', found.id))
    returning ev.* into ping;
    insert into public.webhook_delivery (event_id, endpoint_id, client_id) values (ping.id, found.id, found.client_id);
    return query select 'found', null::text, null::text, private.event_json(ping);
    return;
  else
    raise exception 'unknown endpoint action %', action using errcode = '22023';
  end if;
  return query select 'found', private.webhook_endpoint_json(found), new_secret, null::text;
end;
$$;
revoke execute on function private.change_webhook_endpoint from public, anon, authenticated, service_role;

-- An event's deliveries, each with every attempt (GET /v3/events/{id}/deliveries), and its
-- redelivery (POST .../redeliver): sent again, now, to each endpoint of the caller that wants it
-- today, the retry schedule starting afresh. Outcomes: found, not_found, unauthorized.
create function private.event_deliveries(key_hash text, event_id uuid, redeliver boolean)
returns table (outcome text, deliveries text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  found public.event;
begin
  select * into caller from private.authenticate_api_key(event_deliveries.key_hash);
  if caller.key_id is null then
    return query select 'unauthorized', null::text;
    return;
  end if;
  select e.* into found from public.event e
  where e.id = event_deliveries.event_id and e.client_id = caller.client_id and e.livemode = caller.livemode
    and e.created_at > now() - interval '30 days';
  if found.id is null then
    return query select 'not_found', null::text;
    return;
  end if;
  if event_deliveries.redeliver then
    insert into public.webhook_delivery as d (event_id, endpoint_id, client_id)
    select found.id, e.id, e.client_id
    from public.webhook_endpoint e
    where e.client_id = found.client_id and e.livemode = found.livemode and e.enabled
      and (cardinality(e.event_types) = 0 or found.type = any (e.event_types))
    on conflict on constraint webhook_delivery_event_endpoint_key do update
      set status = 'pending', next_attempt_at = now(), retry_base = d.attempts, delivered_at = null;
  end if;
  return query
  select 'found', coalesce(json_agg(json_build_object(
           'endpoint_id', d.endpoint_id, 'status', d.status, 'attempts', d.attempts,
           'next_attempt_at', case when d.status = 'pending' then d.next_attempt_at end, 'delivered_at', d.delivered_at,
           'attempt_log', (select coalesce(json_agg(json_build_object(
                             'attempt', a.attempt, 'attempted_at', a.attempted_at, 'status_code', a.status_code,
                             'duration_ms', a.duration_ms, 'error', a.error) order by a.attempt), '[]'::json)
                           from public.webhook_attempt a where a.delivery_id = d.id))
           order by d.endpoint_id), '[]'::json)::text
  from public.webhook_delivery d where d.event_id = found.id;
end;
$$;
revoke execute on function private.event_deliveries from public, anon, authenticated, service_role;

-- A ticket's status, priority or handler changed, or a message was posted on it: the client hears
-- of staff's answers without watching the back office.
create function private.event_for_ticket() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ticket public.support_ticket;
begin
  if tg_table_name = 'support_ticket_message' then
    select t.* into ticket from public.support_ticket t where t.id = new.ticket_id;
  else
    ticket := new;
  end if;
  perform private.emit_event(ticket.client_id, true, 'support_ticket.updated', jsonb_build_object(
    'id', ticket.id, 'subject', ticket.subject, 'status', ticket.status, 'priority', ticket.priority,
    'change', case when tg_table_name = 'support_ticket_message' then 'message' else 'ticket' end,
    'message_id', case when tg_table_name = 'support_ticket_message' then new.id end,
    'updated_at', now()));
  return null;
end;
$$;
revoke execute on function private.event_for_ticket() from public, anon, authenticated, service_role;

-- ============================================================================================
-- Triggers
-- ============================================================================================
-- A handler cleared (the staff account deleted: on delete set null) is no news to the client, and
-- may run inside the deletion of the client's own account.
create trigger support_ticket_event
  after update of status, priority, assigned_to on public.support_ticket
  for each row when ((old.status, old.priority) is distinct from (new.status, new.priority)
                     or (new.assigned_to is not null and new.assigned_to is distinct from old.assigned_to))
  execute function private.event_for_ticket();

create trigger support_ticket_message_event
  after insert on public.support_ticket_message
  for each row execute function private.event_for_ticket();

create trigger api_key_created_event
  after insert on public.api_key
  for each row execute function private.event_for_api_key();

create trigger api_key_revoked_event
  after update of status on public.api_key
  for each row when (old.status <> 'revoked' and new.status = 'revoked')
  execute function private.event_for_api_key();

-- ============================================================================================
-- The schedule (hosted): pg_cron calls the deliver function every 10 seconds through pg_net, with
-- the project's URL and service key from Vault, as Supabase documents for scheduled functions (each
-- call polls for 9 s, so a runner is nearly always there). Where
-- pg_cron, pg_net or those two secrets are missing (the embedded default, a bare Postgres) it says
-- what is missing and schedules nothing; run it again once they exist.
-- ============================================================================================
create function private.schedule_webhook_deliveries() returns text
language plpgsql
set search_path = ''
as $$
begin
  if to_regproc('cron.schedule') is null or to_regproc('net.http_post') is null then
    return 'not scheduled: pg_cron and pg_net are needed';
  end if;
  if to_regclass('vault.decrypted_secrets') is null then
    return 'not scheduled: Vault is needed (secrets project_url and service_role_key)';
  end if;
  execute $sql$
    select cron.schedule('deliver-webhooks', '10 seconds', $cmd$
      select net.http_post(
        url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url') || '/functions/v1/deliver',
        headers := jsonb_build_object('Authorization', 'Bearer ' ||
          (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key')))
    $cmd$)
  $sql$;
  return 'scheduled: deliver-webhooks, every 10 seconds';
end;
$$;
revoke execute on function private.schedule_webhook_deliveries from public, anon, authenticated, service_role;

select private.schedule_webhook_deliveries();

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own webhook endpoints"
  on public.webhook_endpoint for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all webhook endpoints"
  on public.webhook_endpoint for select to staff
  using (true);

create policy "clients read their own events"
  on public.event for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all events"
  on public.event for select to staff
  using (true);

create policy "clients read their own webhook deliveries"
  on public.webhook_delivery for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all webhook deliveries"
  on public.webhook_delivery for select to staff
  using (true);

create policy "clients read their own webhook attempts"
  on public.webhook_attempt for select to authenticated
  using (client_id = (select private.uid()));

create policy "staff read all webhook attempts"
  on public.webhook_attempt for select to staff
  using (true);
