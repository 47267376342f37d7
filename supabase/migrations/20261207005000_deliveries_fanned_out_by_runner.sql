-- A change writes its event; the delivery runner writes the event's deliveries (issue 38).
--
-- Replaces private.emit_event, private.claim_deliveries and private.event_deliveries (the webhooks
-- migration's). Until now emit_event wrote, in the change's own transaction, a pending delivery to
-- each endpoint that wanted the event: every call that reports something (a round's close, above
-- all) read the client's endpoints and wrote to the deliveries, three relations and their locks on
-- the money's path, and a row with four index entries per endpoint. The outbox is the event: it is
-- still written in the change's transaction (none is lost, none describes a change rolled back);
-- its deliveries are a consequence the runner draws from it.
--
-- The rules:
-- - An event carries its transaction's id (`fan_out_xid`). The runner's claim first fans out every
--   event it can see from the cursor on (private.event_fan_out): one delivery to each endpoint of
--   the client, in the event's mode, enabled and wanting its type when it is fanned out, and
--   created no later than the event (an endpoint gets what happens from its creation on, as
--   before: a new endpoint is not sent the backlog of a runner that was down).
-- - Once per endpoint per event: the delivery's unique (event_id, endpoint_id) key, and a fan-out
--   that meets a delivery already made leaves it as it is (delivered, failed or pending).
-- - No event is passed over: the cursor moves only to the oldest transaction still running when
--   the fan-out began (the xmin of its snapshot). Every transaction below it had ended then, so its
--   events, if it committed, were visible to the fan-out that follows; an event of a transaction
--   still open stays at or past the cursor until a fan-out after its commit. Events past the cursor
--   that a fan-out already saw are seen again, harmlessly, until the cursor passes them.
-- - A delivery is due from its event's time, so the claim's order (oldest first) is the events'.
-- - One fan-out at a time: the cursor's row lock. A runner that finds it taken claims what is due
--   without fanning out; the one holding it fans out for all.
-- - An event without `fan_out_xid` is never fanned out: those written before this migration (their
--   deliveries were written with them) and an endpoint's ping, which goes to its one endpoint.
-- - An event's deliveries as the API lists them (GET /v3/events/{id}/deliveries) include those the
--   runner has yet to make: the read fans that one event out first, by the same rule.

-- ============================================================================================
-- Tables
-- ============================================================================================
alter table public.event add column fan_out_xid xid8;
comment on column public.event.fan_out_xid is
  'The writing transaction, for the delivery runner to fan the event out to its endpoints; null: its deliveries were written with it.';
create index event_fan_out_idx on public.event (fan_out_xid) where fan_out_xid is not null;

create table private.event_fan_out (
  only_row boolean primary key default true,
  -- Every event of a transaction below it has been fanned out.
  xid xid8 not null,
  constraint event_fan_out_one_row check (only_row)
);
comment on table private.event_fan_out is 'How far the delivery runner has fanned events out to their endpoints.';
-- The oldest transaction running now: one that began before this migration and writes an event
-- after it is at or past it.
insert into private.event_fan_out (xid) values (pg_snapshot_xmin(pg_current_snapshot()));

alter table private.event_fan_out enable row level security;

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- The one way an event is written: the event, in the change's transaction, for the runner to fan out.
create or replace function private.emit_event(client_id uuid, livemode boolean, type text, data jsonb) returns uuid
language plpgsql
-- security definer: it runs inside whoever's change it reports (staff recording a transaction, the
-- API's owner creating a session), and none of them may write the outbox themselves.
security definer
set search_path = ''
as $$
declare
  event_id uuid;
begin
  insert into public.event (client_id, livemode, type, data, fan_out_xid)
  values (emit_event.client_id, emit_event.livemode, emit_event.type, emit_event.data, pg_current_xact_id())
  returning id into event_id;
  return event_id;
end;
$$;
revoke execute on function private.emit_event from public, anon, authenticated, service_role;

-- The deliveries an event is owed: one to each endpoint of its client, in its mode, enabled and
-- wanting its type now, created no later than it. Written once: a delivery already made stays.
create function private.fan_out_event(ev public.event) returns int
language plpgsql
set search_path = ''
as $$
declare
  made int;
begin
  insert into public.webhook_delivery (event_id, endpoint_id, client_id, next_attempt_at)
  select ev.id, e.id, e.client_id, ev.created_at
  from public.webhook_endpoint e
  where e.client_id = ev.client_id and e.livemode = ev.livemode and e.enabled
    and (cardinality(e.event_types) = 0 or ev.type = any (e.event_types))
    and e.created_at <= ev.created_at
  on conflict on constraint webhook_delivery_event_endpoint_key do nothing;
  get diagnostics made = row_count;
  return made;
end;
$$;
revoke execute on function private.fan_out_event from public, anon, authenticated, service_role;

-- Fans out every event from the cursor on (the rules above), then moves the cursor. `wait`: wait
-- for a fan-out under way (tests, which must see its deliveries) rather than leave it to that one
-- (the runner). The number of deliveries made, null when another fan-out had the cursor.
create function private.fan_out_events(wait boolean default true) returns int
language plpgsql
set search_path = ''
as $$
declare
  since xid8;
  horizon xid8;
  made int;
begin
  if wait then
    select f.xid into since from private.event_fan_out f for update;
  else
    select f.xid into since from private.event_fan_out f for update skip locked;
    if since is null then
      return null;
    end if;
  end if;
  -- Taken before the events are read: every transaction below it has ended, and the next
  -- statement's snapshot sees what each of them committed.
  horizon := pg_snapshot_xmin(pg_current_snapshot());
  insert into public.webhook_delivery (event_id, endpoint_id, client_id, next_attempt_at)
  select ev.id, e.id, e.client_id, ev.created_at
  from public.event ev
  join public.webhook_endpoint e
    on e.client_id = ev.client_id and e.livemode = ev.livemode and e.enabled
   and (cardinality(e.event_types) = 0 or ev.type = any (e.event_types))
   and e.created_at <= ev.created_at
  where ev.fan_out_xid >= since
  on conflict on constraint webhook_delivery_event_endpoint_key do nothing;
  get diagnostics made = row_count;
  if horizon > since then
    update private.event_fan_out f set xid = horizon;
  end if;
  return made;
end;
$$;
revoke execute on function private.fan_out_events from public, anon, authenticated, service_role;

-- The delivery runner's claim (any number of runners at once): the events fanned out to their
-- deliveries first, then due deliveries claimed. A claim pushes the delivery's next attempt a lease
-- ahead, so one that a crashed runner never finished is due again then; SKIP LOCKED keeps two
-- runners off one delivery. Each claimed delivery comes with what to send: the endpoint's url, its
-- secrets (the current one, and the previous one during a rotation) and the event as JSON.
create or replace function private.claim_deliveries(batch int, lease_seconds int)
returns table (delivery_id uuid, attempt int, event_id uuid, url text, secrets text[], payload text)
language plpgsql
set search_path = ''
as $$
begin
  perform private.fan_out_events(false);
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

-- An event's deliveries, each with every attempt (GET /v3/events/{id}/deliveries), and its
-- redelivery (POST .../redeliver): sent again, now, to each endpoint of the caller that wants it
-- today, the retry schedule starting afresh. The event's own fan-out comes first, so a read never
-- misses a delivery the runner is about to make. Outcomes: found, not_found, unauthorized.
create or replace function private.event_deliveries(key_hash text, event_id uuid, redeliver boolean)
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
  if found.fan_out_xid is not null then
    perform private.fan_out_event(found);
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
