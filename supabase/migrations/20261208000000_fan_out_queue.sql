-- The events still to fan out are a queue, not a transaction-id cursor (review of
-- 20261207005000_deliveries_fanned_out_by_runner.sql).
--
-- Replaces private.emit_event, private.fan_out_events, private.claim_deliveries and
-- private.event_deliveries (that migration's); drops private.fan_out_event, the cursor
-- (private.event_fan_out) and public.event.fan_out_xid. The cursor held what had been fanned out as
-- a transaction id, and that went wrong four ways:
-- - a backlog (the runner down for a while, or one long transaction holding the horizon back) was
--   fanned out whole inside the claim, and past the runner's statement timeout every claim failed and
--   the cursor never moved: no delivery went out at all, new or already due;
-- - a transaction id belongs to one cluster: a database restored from a logical backup into
--   another carried a cursor the new cluster's ids never reach, and no event was fanned out again;
-- - reading an event's deliveries fanned it out anew, so an endpoint enabled since was sent an old
--   event, and only the ones somebody looked at;
-- - the id was a column of public.event, which clients read: the distance between two of their
--   events' ids told them how much the whole platform writes.
--
-- The rules now:
-- - A change writes its event and one row naming it in private.event_fan_out_queue, in its own
--   transaction: a change rolled back queues nothing, and a change committed is in the queue, on
--   any cluster it is copied to.
-- - A fan-out takes a bounded batch of queued events (skip locked: runners fan out side by side,
--   none waits for another, and an event of a transaction still open is not yet there to take),
--   removes them from the queue and writes one delivery to each endpoint of the event's client, in
--   its mode, enabled and wanting its type then, created no later than the event. The runner's
--   claim fans out one batch before it claims, so a backlog drains a batch a claim and never stops
--   the claims.
-- - Once per endpoint per event: the unique (event_id, endpoint_id) key, and a delivery already
--   made stays as it is.
-- - A delivery is due from its event's time, so the claim's order (oldest first) is the events'.
-- - An endpoint deleted while a fan-out reads it is skipped (the fan-out holds the endpoints it
--   writes to with a key share lock), not a foreign-key failure of the whole claim.
-- - An event's deliveries as the API lists them include those the runner has yet to make: the read
--   takes that event from the queue and fans it out, if it is still queued, and only then.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table private.event_fan_out_queue (
  event_id uuid primary key
);
comment on table private.event_fan_out_queue is
  'Events whose deliveries the delivery runner has yet to write (one row each, removed as it fans them out).';
alter table private.event_fan_out_queue enable row level security;

-- What the cursor had not passed: its events' deliveries may be written already (the unique key
-- keeps each once).
insert into private.event_fan_out_queue (event_id)
select ev.id from public.event ev
where ev.fan_out_xid >= (select f.xid from private.event_fan_out f);

-- ============================================================================================
-- Helper functions
-- ============================================================================================
-- The one way an event is written: the event, and its place in the fan-out queue, in the change's transaction.
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
  insert into public.event (client_id, livemode, type, data)
  values (emit_event.client_id, emit_event.livemode, emit_event.type, emit_event.data)
  returning id into event_id;
  insert into private.event_fan_out_queue (event_id) values (event_id);
  return event_id;
end;
$$;
revoke execute on function private.emit_event from public, anon, authenticated, service_role;

drop function private.fan_out_events(boolean);
drop function private.fan_out_event(public.event);

-- Fans out queued events (the rules above): at most `batch` of them, every one when null. The number
-- of deliveries made.
create function private.fan_out_events(batch int default null) returns int
language plpgsql
set search_path = ''
as $$
declare
  made int;
begin
  with taken as (
    delete from private.event_fan_out_queue q
    where q.event_id in (select t.event_id from private.event_fan_out_queue t limit fan_out_events.batch for update skip locked)
    returning q.event_id
  )
  insert into public.webhook_delivery (event_id, endpoint_id, client_id, next_attempt_at)
  select ev.id, e.id, e.client_id, ev.created_at
  from taken t
  join public.event ev on ev.id = t.event_id
  join public.webhook_endpoint e
    on e.client_id = ev.client_id and e.livemode = ev.livemode and e.enabled
   and (cardinality(e.event_types) = 0 or ev.type = any (e.event_types))
   and e.created_at <= ev.created_at
  for key share of e
  on conflict on constraint webhook_delivery_event_endpoint_key do nothing;
  get diagnostics made = row_count;
  return made;
end;
$$;
revoke execute on function private.fan_out_events from public, anon, authenticated, service_role;

-- The delivery runner's claim (any number of runners at once): one batch of queued events fanned
-- out to their deliveries first, then due deliveries claimed. A claim pushes the delivery's next
-- attempt a lease ahead, so one that a crashed runner never finished is due again then; SKIP LOCKED
-- keeps two runners off one delivery. Each claimed delivery comes with what to send: the endpoint's
-- url, its secrets (the current one, and the previous one during a rotation) and the event as JSON.
create or replace function private.claim_deliveries(batch int, lease_seconds int)
returns table (delivery_id uuid, attempt int, event_id uuid, url text, secrets text[], payload text)
language plpgsql
set search_path = ''
as $$
begin
  -- A batch of events a claim: a backlog drains over claims, each well inside a statement timeout.
  perform private.fan_out_events(500);
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
-- today, the retry schedule starting afresh. An event still queued is fanned out first, so a read
-- never misses a delivery the runner is about to make; one the runner has fanned out is not again.
create or replace function private.event_deliveries(key_hash text, event_id uuid, redeliver boolean)
returns table (outcome text, deliveries text)
language plpgsql
set search_path = ''
as $$
declare
  caller record;
  found public.event;
  queued boolean;
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
  -- Taken from the queue here or by a runner, never both: a runner fanning it out holds its row,
  -- and this waits for that runner's deliveries, then finds the row gone.
  delete from private.event_fan_out_queue q where q.event_id = found.id;
  get diagnostics queued = row_count;
  if queued then
    insert into public.webhook_delivery (event_id, endpoint_id, client_id, next_attempt_at)
    select found.id, e.id, e.client_id, found.created_at
    from public.webhook_endpoint e
    where e.client_id = found.client_id and e.livemode = found.livemode and e.enabled
      and (cardinality(e.event_types) = 0 or found.type = any (e.event_types))
      and e.created_at <= found.created_at
    for key share of e
    on conflict on constraint webhook_delivery_event_endpoint_key do nothing;
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

-- The cursor and the transaction id are gone with the rule they served.
drop table private.event_fan_out;
drop index public.event_fan_out_idx;
alter table public.event drop column fan_out_xid;
