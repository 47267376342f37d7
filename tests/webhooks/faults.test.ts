// The delivery runner under faults, on a database of its own: a receiver that closes the connection;
// a runner that dies holding a claim; the database going down while a delivery is in flight. After
// each, the event is delivered: at least once, with the same webhook-id every time, so a receiver
// that keys on it applies it once.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../supabase/functions/_shared/database.ts';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { signUp } from '../helpers/db.ts';
import { databaseProxy } from '../helpers/db-proxy.ts';
import { isolatedDatabase } from '../helpers/api.ts';

const local = { allowPrivateUrls: true };
let owner: Sql;
let runner: Sql;
let databaseUrl: string;
let client: string;
let url: string;
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const received: string[] = [];
let behaviour: 'answer' | 'hang up' | 'hold' = 'answer';
/** While holding: resolves when a request arrives; the receiver answers once `answer` is called. */
let arrived: Promise<void>;
let answer: () => void;
const hold = () => {
  let came!: () => void;
  arrived = new Promise((resolve) => (came = resolve));
  const answered = new Promise<void>((resolve) => (answer = resolve));
  return { came, answered };
};
let held = hold();
const server = createServer((req, res) => {
  req.resume().on('end', async () => {
    received.push(req.headers['webhook-id'] as string);
    if (behaviour === 'hang up') return req.socket.destroy();
    if (behaviour === 'hold') {
      held.came();
      await held.answered;
    }
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  ({ owner, endpoint: runner, url: databaseUrl } = await isolatedDatabase('delivery_faults'));
  client = (await signUp(owner, 'faults')).id;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const [endpoint] = await owner`
    insert into public.webhook_endpoint (client_id, livemode, url, secret_prefix) values (${client}, true, ${url}, ${secret.slice(0, 12)})
    returning id`;
  await owner`insert into private.webhook_secret (endpoint_id, secret) values (${endpoint.id}, ${secret})`;
});
afterAll(() => new Promise((resolve) => {
  server.closeAllConnections();
  server.close(resolve);
}));

async function pendingEvent(): Promise<{ event: string; delivery: string }> {
  const [event] = await owner`select private.emit_event(${client}, true, 'test.fault', '{}') as id`;
  await owner`select private.fan_out_events()`;
  const [delivery] = await owner`select id from public.webhook_delivery where event_id = ${event.id}`;
  return { event: event.id, delivery: delivery.id };
}
const statusOf = async (delivery: string) => (await owner`select status from public.webhook_delivery where id = ${delivery}`)[0].status;
/** The lease of every claim over, as after its time. */
const leasesOver = () => owner`update public.webhook_delivery set next_attempt_at = now() where status = 'pending'`;

describe('deliveries under faults', () => {
  it('a receiver that hangs up is a failed attempt, retried', async () => {
    behaviour = 'hang up';
    const { event, delivery } = await pendingEvent();
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, retrying: 1 });
    const [attempt] = await owner`select status_code, error from public.webhook_attempt where delivery_id = ${delivery}`;
    expect(attempt).toEqual({ status_code: null, error: 'the endpoint could not be reached' });
    behaviour = 'answer';
    await leasesOver();
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, delivered: 1 });
    expect(received.filter((id) => id === event)).toHaveLength(2);
  });

  it('a claim whose runner died returns after its lease, and the event goes out with the same webhook-id', async () => {
    behaviour = 'answer';
    const { event, delivery } = await pendingEvent();
    // A runner claims it, sends it, and dies before it can say how it went.
    const [claimed] = await runner`select * from private.claim_deliveries(10, 60)`;
    expect(claimed.delivery_id).toBe(delivery);
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 0 });
    await leasesOver();
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, delivered: 1 });
    expect(await statusOf(delivery)).toBe('delivered');
    expect((await owner`select attempts from public.webhook_delivery where id = ${delivery}`)[0].attempts).toBe(2);
    expect(received.filter((id) => id === event)).toHaveLength(1);
  });

  it('the database going down mid-delivery loses nothing: the claim returns and the event goes out again', async () => {
    const proxy = await databaseProxy(databaseUrl);
    const viaProxy = connectDatabase(proxy.url, { max: 2 });
    behaviour = 'hold';
    held = hold();
    const { event, delivery } = await pendingEvent();
    const run = runDeliveries(viaProxy, local).then(() => 'finished', (error: Error) => error.message);
    // Mid-delivery: the receiver has the request, the runner waits for its answer.
    await arrived;
    await proxy.down();
    answer();
    expect(await run).toMatch(/ECONNREFUSED|CONNECTION|closed/i);
    await proxy.up();
    await viaProxy.end();
    behaviour = 'answer';
    expect(await statusOf(delivery)).toBe('pending');
    await leasesOver();
    expect(await runDeliveries(runner, local)).toEqual({ claimed: 1, delivered: 1 });
    expect(received.filter((id) => id === event)).toHaveLength(2);
  });
});

describe('rounds left open', () => {
  it('are reported once each as round.stuck, after the setting rounds.stuck_after_minutes (60 by default)', async () => {
    const [session] = await owner`
      insert into public.game_session (client_id, livemode, player_id, provider_id, game, currency_code, created_at, expires_at)
      select ${client}, true, 'p-stuck', id, 'aviator', 'EUR', now() - interval '3 hours', now() + interval '1 hour'
      from public.game_provider where slug = 'spribe' returning id, provider_id`;
    const roundOpenedAgo = async (ago: string) => (await owner`
      insert into public.game_round (provider_id, provider_round_id, client_id, livemode, session_id, player_id, game, currency_code, opened_at)
      values (${session.provider_id}, ${`r-${ago}`}, ${client}, true, ${session.id}, 'p-stuck', 'aviator', 'EUR', now() - ${ago}::interval)
      returning id`)[0].id;
    const [old, recent] = [await roundOpenedAgo('2 hours'), await roundOpenedAgo('10 minutes')];
    const stuckEvents = async () => (await owner`select data->>'id' as id from public.event where type = 'round.stuck'`).map((e) => e.id);

    await owner`insert into public.app_setting (key, value) values ('rounds.stuck_after_minutes', '180')`;
    expect((await runDeliveries(runner, local)).rounds_stuck).toBeUndefined();
    await owner`update public.app_setting set value = '60' where key = 'rounds.stuck_after_minutes'`;
    expect(await runDeliveries(runner, local)).toMatchObject({ rounds_stuck: 1 });
    expect(await stuckEvents()).toEqual([old]);
    expect((await runDeliveries(runner, local)).rounds_stuck).toBeUndefined();
    expect(await stuckEvents()).not.toContain(recent);
  });
});
