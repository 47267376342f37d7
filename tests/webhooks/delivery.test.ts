// The delivery runner (supabase/functions/deliver/deliveries.ts) against real HTTP receivers on
// loopback, on a database of its own (it delivers whatever is due): signed so the standardwebhooks
// verifier accepts it, with the event id as webhook-id; a 2xx delivers; a failure, a timeout or a
// Retry-After schedules the next attempt; 410 Gone disables the endpoint; two runners at once never
// send one delivery twice; every attempt is recorded.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sql } from 'postgres';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { drainDeliveries, runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { signUp } from '../helpers/db.ts';
import { isolatedDatabase, newOperator } from '../helpers/api.ts';
import { launchToken, providerCalls } from '../helpers/provider-api.ts';

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
  await owner`select private.fan_out_events()`;
  const [delivery] = await owner`select id from public.webhook_delivery where event_id = ${event.id}`;
  return { event: event.id, delivery: delivery.id, endpoint: endpoint.id };
}
const deliveryOf = async (id: string) => (await owner`select * from public.webhook_delivery where id = ${id}`)[0];

/**
 * A due wallet call of a seamless client with no wallet to call any more: its bet's debit found
 * nobody answering, so a compensating rollback was queued; then its wallet settings, or the secret
 * that signs for them, went. Sending it needs no network: it fails before any.
 */
async function walletlessRollback(gone: 'settings' | 'secret'): Promise<{ client: string; call: string }> {
  const app = createApp({ sql: runner, signer: await createSessionTokenSigner({ issuer: 'test' }), config: local });
  const providerKey = (await owner`select key from public.issue_provider_key('pragmatic-play')`)[0].key as string;
  const operator = await newOperator(owner, `walletless-${gone}`);
  // Nothing listens on the discard port: the debit fails at once.
  await owner`select * from private.change_wallet_settings(${operator.account.id}, true, 'seamless', 'http://127.0.0.1:9/', false)`;
  const bet = await providerCalls(app, providerKey)('bets', {
    session_token: await launchToken(app, operator), transaction_id: randomUUID(), round_id: randomUUID(), amount: '1',
  });
  expect(bet).toMatchObject({ status: 502, body: { code: 'wallet_failed' } });
  const [call] = await owner`
    select id from public.wallet_call where client_id = ${operator.account.id} and action = 'rollback' and status = 'pending'`;
  if (gone === 'settings') await owner`delete from public.wallet_setting where client_id = ${operator.account.id}`;
  else await owner`delete from private.wallet_secret where client_id = ${operator.account.id}`;
  return { client: operator.account.id, call: call.id };
}

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
    await owner`select private.fan_out_events()`;
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

describe('what an attempt is', () => {
  // A receiver that keeps each request as it came (raw body and headers) and verifies nothing, so a
  // test can verify it against the clock it chooses; /moved is a redirect's target, answering 204.
  const captured: { path: string; headers: Record<string, string>; raw: string }[] = [];
  let rawAnswer: { status: number; headers?: Record<string, string> } = { status: 204 };
  let rawUrl: string;
  const rawServer = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      captured.push({ path: req.url!, headers: req.headers as Record<string, string>, raw });
      if (req.url === '/moved') res.writeHead(204).end();
      else res.writeHead(rawAnswer.status, rawAnswer.headers).end();
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => rawServer.listen(0, '127.0.0.1', resolve));
    rawUrl = `http://127.0.0.1:${(rawServer.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => rawServer.close(resolve)));

  async function eventTo(target: string): Promise<{ event: string; delivery: string }> {
    const type = uniqueType();
    const [endpoint] = await owner`
      insert into public.webhook_endpoint (client_id, livemode, url, event_types, secret_prefix)
      values (${client}, true, ${target}, ${[type]}, ${secret.slice(0, 12)}) returning id`;
    await owner`insert into private.webhook_secret (endpoint_id, secret) values (${endpoint.id}, ${secret})`;
    const [event] = await owner`select private.emit_event(${client}, true, ${type}, ${owner.json({ n: 2 })}) as id`;
    await owner`select private.fan_out_events()`;
    const [delivery] = await owner`select id from public.webhook_delivery where event_id = ${event.id}`;
    return { event: event.id, delivery: delivery.id };
  }
  const attemptsOf = (delivery: string) =>
    owner`select attempt, status_code, error from public.webhook_attempt where delivery_id = ${delivery} order by attempt`;

  it('signs the webhook-timestamp it sends: a clock far from now is in the header and under the signature', async () => {
    rawAnswer = { status: 204 };
    const at = new Date('2031-03-04T05:06:07Z');
    const { event } = await eventTo(`${rawUrl}/signed`);
    expect(await runDeliveries(runner, { ...local, now: () => at })).toEqual({ claimed: 1, delivered: 1 });
    const sent = captured.find((request) => request.headers['webhook-id'] === event)!;
    expect(sent.headers['webhook-timestamp']).toBe(String(at.getTime() / 1000));
    // The official verifier, its clock set to `clock` (it checks the timestamp against Date.now()).
    const verifyAt = (clock: Date, headers: Record<string, string>) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(clock);
      try {
        return new Webhook(secret).verify(sent.raw, headers);
      } finally {
        vi.useRealTimers();
      }
    };
    expect(verifyAt(at, sent.headers)).toMatchObject({ id: event, data: { n: 2 } });
    // Against the real clock it is far off: the header carries the clock the runner was given.
    expect(() => new Webhook(secret).verify(sent.raw, sent.headers)).toThrow(/timestamp too new/);
    // The signature covers that timestamp: with another one in the header, nothing verifies.
    const other = new Date(at.getTime() + 1000);
    expect(() => verifyAt(other, { ...sent.headers, 'webhook-timestamp': String(other.getTime() / 1000) }))
      .toThrow(/No matching signature/);
  });

  it.each([301, 302, 303, 307, 308])('takes a %i answer for a failed attempt, not a delivery, and follows no redirect', async (status) => {
    rawAnswer = { status, headers: { location: `${rawUrl}/moved` } };
    const { delivery } = await eventTo(`${rawUrl}/redirecting`);
    const moved = captured.filter((request) => request.path === '/moved').length;
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, retrying: 1 });
    expect(await deliveryOf(delivery)).toMatchObject({ status: 'pending', attempts: 1, delivered_at: null });
    expect(await attemptsOf(delivery)).toEqual([{ attempt: 1, status_code: status, error: null }]);
    expect(captured.filter((request) => request.path === '/moved')).toHaveLength(moved);
    await owner`update public.webhook_delivery set status = 'failed' where id = ${delivery}`;
  });

  it('waits as long as a Retry-After date asks, counted from the clock it was given and rounded up to the second', async () => {
    // The date is 120 s after a whole second; the runner's clock 0.3 s before that second: 120.3 s, so 121.
    const second = Math.ceil(Date.now() / 1000) * 1000;
    answer = { status: 503, headers: { 'retry-after': new Date(second + 120_000).toUTCString() } };
    const { delivery } = await pendingEvent();
    const before = Date.now();
    expect(await runDeliveries(runner, { ...local, now: () => new Date(second - 300) })).toEqual({ claimed: 1, retrying: 1 });
    const after = Date.now();
    // Scheduled by the database's clock when the attempt was recorded, between `before` and `after`.
    const next = (await deliveryOf(delivery)).next_attempt_at.getTime();
    expect(next).toBeGreaterThanOrEqual(before + 121_000 - 1);
    expect(next).toBeLessThanOrEqual(after + 121_000 + 1);
    await owner`update public.webhook_delivery set status = 'failed' where id = ${delivery}`;
  });

  it('takes a Retry-After date already past, or one it cannot read, as none: the schedule decides', async () => {
    const unreadable = ['soon', 'x120', '120x', '1.5', '-5', '9999999999'];
    for (const value of [new Date(Date.now() - 60_000).toUTCString(), ...unreadable]) {
      answer = { status: 503, headers: { 'retry-after': value } };
      const { delivery } = await pendingEvent();
      expect(await runDeliveries(runner, local), value).toEqual({ claimed: 1, retrying: 1 });
      // The first retry's delay, about 5 s, less the time since.
      const wait = ((await deliveryOf(delivery)).next_attempt_at.getTime() - Date.now()) / 1000;
      expect(wait, value).toBeGreaterThan(3.5);
      expect(wait, value).toBeLessThan(6);
      await owner`update public.webhook_delivery set status = 'failed' where id = ${delivery}`;
    }
  });

  it('records how long the endpoint took to answer', async () => {
    answer = { status: 204, delayMs: 150 };
    const { delivery } = await pendingEvent();
    const started = performance.now();
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, delivered: 1 });
    const took = performance.now() - started;
    const [{ duration_ms }] = await owner`select duration_ms from public.webhook_attempt where delivery_id = ${delivery}`;
    // At least the endpoint's delay (a timer may fire within a millisecond of it), at most the whole run.
    expect(duration_ms).toBeGreaterThanOrEqual(149);
    expect(duration_ms).toBeLessThanOrEqual(Math.ceil(took));
  });

  it('ends a claim\'s lease after its lease_seconds by the database clock, and not before', async () => {
    const { delivery } = await eventTo(`${rawUrl}/leased`);
    // One transaction: its now() is the clock the claim went by, in microseconds as Postgres keeps it
    // (a Date's milliseconds would make a poll within the lease's last millisecond look past it).
    const claim = async (leaseSeconds: number) => {
      const [row] = await runner<{ at: string; claimed: { delivery_id: string; attempt: number }[] }[]>`
        select (extract(epoch from now()) * 1000000)::bigint::text as at, coalesce(json_agg(c), '[]') as claimed
        from private.claim_deliveries(50, ${leaseSeconds}) c`;
      return { at: BigInt(row.at), claimed: row.claimed };
    };
    const mine = (polled: { claimed: { delivery_id: string; attempt: number }[] }) => polled.claimed.find((c) => c.delivery_id === delivery);
    const first = await claim(1);
    expect(mine(first)).toMatchObject({ attempt: 1 });
    const leaseEnds = first.at + 1_000_000n;
    const deadline = Date.now() + 30_000;
    let polled = await claim(60);
    while (!mine(polled)) {
      // Still leased: every poll that found it taken came before the lease's end.
      expect(polled.at < leaseEnds).toBe(true);
      expect(Date.now(), 'the claim never came back').toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 20));
      polled = await claim(60);
    }
    expect(mine(polled)).toMatchObject({ attempt: 2 });
    expect(polled.at >= leaseEnds).toBe(true);
    await owner`update public.webhook_delivery set status = 'failed' where id = ${delivery}`;
  });

  it('lets a finish for a superseded attempt change nothing', async () => {
    const { delivery } = await eventTo(`${rawUrl}/superseded`);
    const claimed = async () => (await runner`select * from private.claim_deliveries(50, 60)`).filter((c) => c.delivery_id === delivery);
    const finish = async (attempt: number, status: number) =>
      (await runner`select private.finish_delivery(${delivery}, ${attempt}, ${status}, 5, null) as outcome`)[0].outcome;
    expect(await claimed()).toMatchObject([{ attempt: 1 }]);
    // Attempt 1's runner went quiet; its lease over, attempt 2 takes the delivery.
    await owner`update public.webhook_delivery set next_attempt_at = now() where id = ${delivery}`;
    expect(await claimed()).toMatchObject([{ attempt: 2 }]);
    const taken = await deliveryOf(delivery);
    expect(await finish(1, 204)).toBe('stale');
    expect(await deliveryOf(delivery)).toEqual(taken);
    expect(await attemptsOf(delivery)).toEqual([]);
    expect(await finish(2, 500)).toBe('retrying');
    const retrying = await deliveryOf(delivery);
    expect(await finish(1, 204)).toBe('stale');
    expect(await deliveryOf(delivery)).toEqual(retrying);
    expect(await attemptsOf(delivery)).toEqual([{ attempt: 2, status_code: 500, error: null }]);
    await owner`update public.webhook_delivery set status = 'failed' where id = ${delivery}`;
  });
});

describe('the secrets a delivery is signed with', () => {
  it('are the current secret and, for the 24 hours after a rotation only, the previous one', async () => {
    const previous = `whsec_${randomBytes(32).toString('base64')}`;
    const [during, after] = [await pendingEvent(), await pendingEvent()];
    await owner`update private.webhook_secret set previous_secret = ${previous}, previous_until = now() + interval '1 hour'
                where endpoint_id = ${during.endpoint}`;
    await owner`update private.webhook_secret set previous_secret = ${previous}, previous_until = now() - interval '1 second'
                where endpoint_id = ${after.endpoint}`;
    const claimed = await owner<{ delivery_id: string; secrets: string[] }[]>`
      select delivery_id, secrets from private.claim_deliveries(1000, 30)
      where delivery_id in (${during.delivery}, ${after.delivery})`;
    expect(Object.fromEntries(claimed.map((c) => [c.delivery_id, c.secrets])))
      .toEqual({ [during.delivery]: [secret, previous], [after.delivery]: [secret] });
  });
});

describe('draining deliveries (drainDeliveries, what a scheduled runner calls)', () => {
  // A drain takes whatever is due in this database: nothing the tests before left pending is.
  const settle = () => owner`update public.webhook_delivery set status = 'failed' where status = 'pending'`;
  beforeEach(() => settle());
  /** A stop that lets `rounds` rounds run, counting how often it was asked. */
  const stops = { asked: 0 };
  const after = (rounds: number) => () => ++stops.asked > rounds;

  it('sends what is due in rounds of its batch until a round finds less than a batch, adding up what each round counted', async () => {
    answer = { status: 204 };
    const due = [await pendingEvent(), await pendingEvent()];
    stops.asked = 0;
    expect(await drainDeliveries(runner, 600_000, { ...local, batch: 1, stop: after(10) })).toEqual({ claimed: 2, delivered: 2 });
    // Two full rounds, then one that found nothing.
    expect(stops.asked).toBe(3);
    for (const { delivery } of due) expect(await deliveryOf(delivery)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('claims no more than its batch in a round, and nothing once told to stop', async () => {
    answer = { status: 204 };
    const due = [await pendingEvent(), await pendingEvent()];
    stops.asked = 0;
    expect(await drainDeliveries(runner, 600_000, { ...local, batch: 1, stop: after(1) })).toEqual({ claimed: 1, delivered: 1 });
    expect((await Promise.all(due.map(({ delivery }) => deliveryOf(delivery)))).map((d) => d.status).sort()).toEqual(['delivered', 'pending']);
    expect(await drainDeliveries(runner, 600_000, { ...local, stop: () => true })).toEqual({ claimed: 0 });
    expect((await Promise.all(due.map(({ delivery }) => deliveryOf(delivery)))).map((d) => d.attempts).sort()).toEqual([0, 1]);
  });

  it('goes on while a round finds a full batch of wallet calls, with no delivery due', async () => {
    const calls = [await walletlessRollback('settings'), await walletlessRollback('secret')];
    stops.asked = 0;
    expect(await drainDeliveries(runner, 600_000, { ...local, batch: 1, stop: after(10) }))
      .toEqual({ claimed: 0, wallet_calls: 2, wallet_retrying: 2 });
    // Two rounds of one call each, then one that found nothing.
    expect(stops.asked).toBe(3);
    const attempts = await owner`select attempts from public.wallet_call where id in (${calls[0].call}, ${calls[1].call})`;
    expect(attempts).toEqual([{ attempts: 1 }, { attempts: 1 }]);
    await owner`update public.wallet_call set status = 'failed', completed_at = now() where status = 'pending'`;
  });

  it('with idleMs, keeps polling while idle, idleMs apart, until told to stop; a budget spent ends it after one round', async () => {
    // The waits between rounds, as asked for (each ends at once here): those the runner makes only.
    const real = globalThis.setTimeout;
    const waits: number[] = [];
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number, ...rest: unknown[]) => {
      // The caller: the first frame outside this file and the spy's own.
      const caller = new Error().stack!.split('\n').slice(1).find((frame) => !/node_modules|delivery\.test\.ts/.test(frame));
      if (!caller?.includes('deliveries.ts')) return real(callback, ms, ...rest);
      waits.push(ms!);
      return real(callback, 0);
    }) as typeof setTimeout);
    try {
      answer = { status: 204 };
      const due = await pendingEvent();
      stops.asked = 0;
      expect(await drainDeliveries(runner, 3_600_000, { ...local, batch: 1, idleMs: 250, stop: after(3) })).toEqual({ claimed: 1, delivered: 1 });
      expect(stops.asked).toBe(4);
      // No wait after the round that found a full batch; idleMs after each idle one.
      expect(waits).toEqual([250, 250]);
      expect(await deliveryOf(due.delivery)).toMatchObject({ status: 'delivered' });

      // An idle wait ends with the budget: never longer than what is left of it, never negative.
      waits.length = 0;
      stops.asked = 0;
      expect(await drainDeliveries(runner, 3_600_000, { ...local, idleMs: 7_200_000, stop: after(2) })).toEqual({ claimed: 0 });
      expect(waits).toHaveLength(2);
      for (const ms of waits) {
        expect(ms).toBeLessThanOrEqual(3_600_000);
        expect(ms).toBeGreaterThan(3_500_000);
      }

      // A budget of 0 is spent when the run starts, even on a clock that has not moved since (Date
      // stopped here): one round, then it ends.
      waits.length = 0;
      stops.asked = 0;
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        expect(await drainDeliveries(runner, 0, { ...local, idleMs: 0, stop: after(5) })).toEqual({ claimed: 0 });
      } finally {
        vi.useRealTimers();
      }
      expect([stops.asked, waits]).toEqual([1, []]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('a seamless wallet call whose client has no wallet to call any more', () => {
  // The runner serves every client: a due call it cannot send (the client's wallet settings, or the
  // secret that signs for them, gone since it was queued) is a failed attempt of that call, recorded
  // with why, and the same run still sends every other client's deliveries.
  it('is a failed attempt saying why, retried on the schedule, and every other delivery still goes', async () => {
    const settingsGone = await walletlessRollback('settings');
    const secretGone = await walletlessRollback('secret');
    answer = { status: 204 };
    const other = await pendingEvent();

    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, delivered: 1, wallet_calls: 2, wallet_retrying: 2 });
    expect(await deliveryOf(other.delivery)).toMatchObject({ status: 'delivered' });
    const calls = await owner`
      select id, status, attempts, last_error, next_attempt_at > now() + interval '3 seconds' as later
      from public.wallet_call where id in (${settingsGone.call}, ${secretGone.call})`;
    const why = 'the client has no wallet url and signing secret to call';
    expect(Object.fromEntries(calls.map(({ id, ...call }) => [id, call]))).toEqual({
      [settingsGone.call]: { status: 'pending', attempts: 1, last_error: why, later: true },
      [secretGone.call]: { status: 'pending', attempts: 1, last_error: why, later: true },
    });
    await owner`update public.wallet_call set status = 'failed', completed_at = now() where status = 'pending'`;
  });
});
