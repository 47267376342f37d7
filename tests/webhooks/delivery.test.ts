// The delivery runner (supabase/functions/_shared/deliveries.ts) against real HTTP receivers on
// loopback, on a database of its own (it delivers whatever is due): signed so the standardwebhooks
// verifier accepts it, with the event id as webhook-id; a 2xx delivers; a failure, a timeout or a
// Retry-After schedules the next attempt; 410 Gone disables the endpoint; two runners at once never
// send one delivery twice; every attempt is recorded.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sql } from 'postgres';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveries } from '../../supabase/functions/_shared/deliveries.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { signUp } from '../helpers/db.ts';
import { isolatedDatabase } from '../sessions/helpers.ts';

// The receivers are on loopback, which only local runs may call.
const local = { allowPrivateUrls: true };
let owner: Sql;
let runner: Sql;
let client: string;
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const received: { id: string; body: Record<string, unknown> }[] = [];
let answer: { status: number; headers?: Record<string, string>; delayMs?: number } = { status: 204 };
let url: string;
const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', async () => {
    const body = new Webhook(secret).verify(raw, req.headers as Record<string, string>) as Record<string, unknown>;
    received.push({ id: req.headers['webhook-id'] as string, body });
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    res.writeHead(answer.status, answer.headers).end();
  });
});

beforeAll(async () => {
  ({ owner, endpoint: runner } = await isolatedDatabase('deliveries'));
  client = (await signUp(owner, 'hooked')).id;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A letters-only name, so each endpoint here wants its own event type and gets its events alone. */
const uniqueType = () => `test.${Array.from(randomBytes(10), (b) => String.fromCharCode(97 + (b % 26))).join('')}`;

async function pendingEvent(type = uniqueType()): Promise<{ event: string; delivery: string; endpoint: string }> {
  const [endpoint] = await owner`
    insert into public.webhook_endpoint (client_id, livemode, url, event_types, secret_prefix)
    values (${client}, true, ${url}, ${[type]}, ${secret.slice(0, 12)})
    returning id`;
  await owner`insert into private.webhook_secret (endpoint_id, secret) values (${endpoint.id}, ${secret})`;
  const [event] = await owner`select private.emit_event(${client}, true, ${type}, ${owner.json({ n: 1 })}) as id`;
  const [delivery] = await owner`select id from public.webhook_delivery where event_id = ${event.id}`;
  return { event: event.id, delivery: delivery.id, endpoint: endpoint.id };
}
const deliveryOf = async (id: string) => (await owner`select * from public.webhook_delivery where id = ${id}`)[0];

describe('the delivery runner', () => {
  it('delivers a due event, signed, the event id as webhook-id, and records the attempt', async () => {
    answer = { status: 204 };
    const { event, delivery } = await pendingEvent('session.created');
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, delivered: 1 });
    expect(received.at(-1)).toMatchObject({ id: event, body: { id: event, type: 'session.created', livemode: true, data: { n: 1 } } });
    expect(await deliveryOf(delivery)).toMatchObject({ status: 'delivered', attempts: 1 });
    const [attempt] = await owner`select * from public.webhook_attempt where delivery_id = ${delivery}`;
    expect(attempt).toMatchObject({ attempt: 1, status_code: 204, error: null });
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 0 });
  });

  it('retries a failure about 5 s later, later still after a Retry-After, and takes no answer in time for a failure', async () => {
    answer = { status: 503 };
    const first = await pendingEvent();
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, retrying: 1 });
    const wait = ((await deliveryOf(first.delivery)).next_attempt_at.getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(3.5);
    expect(wait).toBeLessThan(6);
    await owner`update public.webhook_delivery set status = 'failed' where id = ${first.delivery}`;

    answer = { status: 429, headers: { 'retry-after': '120' } };
    const second = await pendingEvent();
    await runDeliveries(runner, local);
    expect((await deliveryOf(second.delivery)).next_attempt_at.getTime() - Date.now()).toBeGreaterThan(110_000);
    await owner`update public.webhook_delivery set status = 'failed' where id = ${second.delivery}`;

    answer = { status: 204, delayMs: 500 };
    const third = await pendingEvent();
    expect(await runDeliveries(runner, { ...local, timeoutMs: 100 })).toEqual({ claimed: 1, retrying: 1 });
    const [attempt] = await owner`select * from public.webhook_attempt where delivery_id = ${third.delivery}`;
    expect(attempt).toMatchObject({ status_code: null, error: 'no answer in time' });
    await owner`update public.webhook_delivery set status = 'failed' where id = ${third.delivery}`;
  });

  it('checks the url again before each send: deployed, a loopback endpoint gets nothing, and the attempt says why', async () => {
    answer = { status: 204 };
    const before = received.length;
    const { delivery } = await pendingEvent();
    expect(await runDeliveries(runner)).toEqual({ claimed: 1, retrying: 1 });
    expect(received.length).toBe(before);
    const [attempt] = await owner`select status_code, error from public.webhook_attempt where delivery_id = ${delivery}`;
    expect(attempt).toEqual({ status_code: null, error: 'the url may not be called (not_https)' });
    await owner`update public.webhook_delivery set status = 'failed' where id = ${delivery}`;
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    answer = { status: 410 };
    const { delivery, endpoint } = await pendingEvent();
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, endpoint_disabled: 1 });
    expect(await deliveryOf(delivery)).toMatchObject({ status: 'failed' });
    expect((await owner`select enabled from public.webhook_endpoint where id = ${endpoint}`)[0].enabled).toBe(false);
  });

  it('disables an endpoint that has failed every attempt for 5 days, and tells the client\'s other endpoints', async () => {
    const [watcher] = await owner`
      insert into public.webhook_endpoint (client_id, livemode, url, event_types, secret_prefix)
      values (${client}, true, ${url}, '{endpoint.disabled}', ${secret.slice(0, 12)}) returning id`;
    await owner`insert into private.webhook_secret (endpoint_id, secret) values (${watcher.id}, ${secret})`;
    answer = { status: 204 };
    const healthy = await pendingEvent();
    await owner`update public.webhook_endpoint set failing_since = now() - interval '1 day' where id = ${healthy.endpoint}`;
    await runDeliveries(runner, local);
    expect((await owner`select failing_since from public.webhook_endpoint where id = ${healthy.endpoint}`)[0].failing_since).toBeNull();

    answer = { status: 500 };
    const { endpoint } = await pendingEvent();
    await owner`update public.webhook_endpoint set failing_since = now() - interval '6 days' where id = ${endpoint}`;
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, endpoint_disabled: 1 });
    expect((await owner`select enabled from public.webhook_endpoint where id = ${endpoint}`)[0].enabled).toBe(false);
    const [told] = await owner`
      select e.data, array(select d.endpoint_id from public.webhook_delivery d where d.event_id = e.id) as endpoints
      from public.event e where e.type = 'endpoint.disabled' and e.data->>'endpoint_id' = ${endpoint}`;
    expect(told.data).toMatchObject({ reason: 'failing_for_5_days', url });
    expect(told.endpoints).toEqual([watcher.id]);
    await owner`update public.webhook_delivery set status = 'failed' where status = 'pending'`;
  });

  it('never sends one delivery twice when two runners work at once', async () => {
    answer = { status: 200, delayMs: 20 };
    const before = received.length;
    const made = await Promise.all(Array.from({ length: 30 }, () => pendingEvent()));
    const [a, b] = await Promise.all([runDeliveries(runner, { ...local, batch: 20 }), runDeliveries(runner, { ...local, batch: 20 })]);
    const left = await runDeliveries(runner, { ...local, batch: 50 });
    expect(a.claimed + b.claimed + left.claimed).toBe(30);
    const ids = received.slice(before).map((r) => r.id);
    expect(new Set(ids).size).toBe(30);
    expect(ids.sort()).toEqual(made.map((m) => m.event).sort());
  });
});

describe('an event\'s deliveries through the API', () => {
  it('shows every attempt, and sends the event again on request with the schedule afresh', async () => {
    const handle = createApp({ sql: runner, signer: await createSessionTokenSigner({ issuer: 'test' }), config: local });
    const [{ key }] = await owner`select key from public.issue_api_key(${client})`;
    const api = async (method: string, path: string, operation: OperationId, apiKey = key) => {
      const response = await handle(new Request(`http://api.test/v3${path}`, { method, headers: { authorization: `Bearer ${apiKey}` } }));
      const body = await response.json();
      expectResponseMatches(operation, response, body);
      return { status: response.status, body };
    };
    answer = { status: 503 };
    const { event, delivery } = await pendingEvent();
    await runDeliveries(runner, local);
    await owner`update public.webhook_delivery set next_attempt_at = now() where id = ${delivery}`;
    answer = { status: 204 };
    await runDeliveries(runner, local);
    const shown = await api('GET', `/events/${event}/deliveries`, 'listEventDeliveries');
    expect(shown.body.data).toHaveLength(1);
    expect(shown.body.data[0]).toMatchObject({ status: 'delivered', attempts: 2, next_attempt_at: null });
    expect(shown.body.data[0].attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([503, 204]);

    const before = received.filter((r) => r.id === event).length;
    const again = await api('POST', `/events/${event}/redeliver`, 'redeliverEvent');
    expect(again.body.data[0]).toMatchObject({ status: 'pending', delivered_at: null });
    answer = { status: 500 };
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, retrying: 1 });
    // The schedule started afresh: the first retry comes after about 5 s, not the third step's 30 min.
    expect((await deliveryOf(delivery)).next_attempt_at.getTime() - Date.now()).toBeLessThan(6000);
    expect(received.filter((r) => r.id === event).length).toBe(before + 1);
    await owner`update public.webhook_delivery set status = 'failed' where id = ${delivery}`;

    expect((await api('GET', `/events/${randomUUID()}/deliveries`, 'listEventDeliveries')).status).toBe(404);
    expect((await api('POST', `/events/${randomUUID()}/redeliver`, 'redeliverEvent')).status).toBe(404);
  });
});
