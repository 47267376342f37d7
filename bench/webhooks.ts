// Webhook deliveries: the runner (supabase/functions/deliver/deliveries.ts) with two runners at once,
// each with its own pool, to a receiver on loopback that verifies nothing and answers 204:
// - throughput: a backlog of pending deliveries drained: at least 1,000 deliveries/s;
// - latency: events written one per transaction at half that rate while the runners poll: p99 from
//   the event's commit to its delivery under 1 s;
// both with zero lost (every delivery `delivered`, every event received) and no duplicates (the
// receiver never fails).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { connectDatabase } from '../supabase/functions/_shared/database.ts';
import { drainDeliveries } from '../supabase/functions/deliver/deliveries.ts';
import type { Section } from './lib/section.ts';
import { percentile } from './lib/stats.ts';

const BACKLOG = 10_000;
const RATE = 500;
const SECONDS = 10;
const TARGET = { perSecond: 1_000, p99Ms: 1_000 };
const RUNNERS = 2;
const IDLE_MS = 250; // the deliver function's default (DELIVER_IDLE_MS)

export const webhookDeliveries: Section = {
  name: 'webhooks',
  async run(cluster, log) {
    const url = await cluster.database('bench_webhooks');
    const admin = postgres(url, { max: 4, onnotice: () => {} });
    const runnerPools = Array.from({ length: RUNNERS }, (_, n) => connectDatabase(url, { max: 4, applicationName: `bench-runner-${n}` }));
    const received = new Map<string, number[]>();
    const receiver = createServer((req, res) => {
      const id = req.headers['webhook-id'] as string;
      req.resume().on('end', () => {
        received.set(id, [...(received.get(id) ?? []), Date.now()]);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const [client] = await admin`
        insert into auth.users (id, aud, role, email, raw_user_meta_data, raw_app_meta_data, created_at, updated_at)
        values (gen_random_uuid(), 'authenticated', 'authenticated', 'hooks@bench.test', '{}', '{"provider":"email"}', now(), now())
        returning id`;
      const [endpoint] = await admin`
        insert into public.webhook_endpoint (client_id, livemode, url, event_types, secret_prefix)
        values (${client.id}, true, ${`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`}, '{}', 'whsec_bench')
        returning id`;
      await admin`insert into private.webhook_secret (endpoint_id, secret) values (${endpoint.id}, private.new_signing_secret())`;
      const emit = (count: number) => admin`
        select private.emit_event(${client.id}, true, 'bench.event', jsonb_build_object('n', g)) from generate_series(1, ${count}) g`;
      // Each runner as the deliver function runs (its drain loop), for as long as the bench needs it.
      let running = true;
      const runner = (sql: typeof runnerPools[number]) =>
        drainDeliveries(sql, 600_000, { allowPrivateUrls: true, batch: 100, idleMs: IDLE_MS, stop: () => !running });
      const pending = async () => (await admin`select count(*)::int as n from public.webhook_delivery where status <> 'delivered'`)[0].n as number;

      log(`webhooks: a backlog of ${BACKLOG} deliveries, ${RUNNERS} runners`);
      await emit(BACKLOG);
      let started = performance.now();
      const runners = runnerPools.map(runner);
      while (received.size < BACKLOG && performance.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 20));
      const drainSeconds = (performance.now() - started) / 1000;
      const perSecond = received.size / drainSeconds;
      // Received is not yet recorded: the last batches' results are still on their way to the database.
      const settled = performance.now() + 10_000;
      while ((await pending()) && performance.now() < settled) await new Promise((resolve) => setTimeout(resolve, 50));
      const backlogLost = await pending();

      log(`  events at ${RATE}/s for ${SECONDS} s, one per transaction`);
      received.clear();
      const ids: string[] = [];
      started = performance.now();
      for (let tick = 0; tick < SECONDS * 10; tick++) {
        const due = started + tick * 100;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        const batch = await Promise.all(Array.from({ length: RATE / 10 }, () => admin`
          select private.emit_event(${client.id}, true, 'bench.event', '{}') as id`));
        ids.push(...batch.map(([row]) => row.id as string));
      }
      const deadline = performance.now() + 10_000;
      while (ids.some((id) => !received.has(id)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      running = false;
      await Promise.all(runners);
      const created = new Map((await admin`select id, created_at from public.event where id = any(${ids})`)
        .map((row) => [row.id as string, (row.created_at as Date).getTime()]));
      const latencies = ids.filter((id) => received.has(id)).map((id) => received.get(id)![0] - created.get(id)!).sort((a, b) => a - b);
      const lost = ids.length - latencies.length + backlogLost;
      const duplicates = [...received.values()].filter((times) => times.length > 1).length;
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);

      const misses = [
        ...(perSecond < TARGET.perSecond ? [`${perSecond.toFixed(0)} deliveries/s < ${TARGET.perSecond}`] : []),
        ...(p99 >= TARGET.p99Ms ? [`p99 ${p99.toFixed(0)} ms >= ${TARGET.p99Ms}`] : []),
        ...(lost ? [`${lost} lost`] : []),
        ...(duplicates ? [`${duplicates} delivered twice`] : []),
      ];
      return {
        title: 'Webhook deliveries',
        intro: [
          `One endpoint on a loopback receiver answering 204, ${RUNNERS} runners at once (each its own pool of 4, batches of 100, ` +
            `polling every ${IDLE_MS} ms when idle), in the bench's own Node process with the receiver. Throughput: a backlog of ` +
            `${BACKLOG} pending deliveries drained. Latency: events written one per transaction at ${RATE}/s for ${SECONDS} s, ` +
            'from the event\'s created_at (its transaction) to the receiver. Targets: >= 1,000 deliveries/s, p99 < 1 s, ' +
            'none lost, none twice.',
        ],
        table: {
          columns: ['case', 'deliveries/s', 'p50 / p99 ms', 'lost', 'twice', 'target'],
          rows: [
            [`backlog of ${BACKLOG}, ${RUNNERS} runners`, perSecond.toFixed(0), '-', `${backlogLost}`, '-',
              perSecond >= TARGET.perSecond && !backlogLost ? 'met' : 'MISSED'],
            [`${RATE} events/s for ${SECONDS} s`, '-', `${p50.toFixed(0)} / ${p99.toFixed(0)}`, `${ids.length - latencies.length}`,
              `${duplicates}`, p99 < TARGET.p99Ms && !duplicates && latencies.length === ids.length ? 'met' : 'MISSED'],
          ],
        },
        notes: misses.map((miss) => `Missed: ${miss}`),
        targetsMet: misses.length === 0,
      };
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
      await Promise.all([admin.end(), ...runnerPools.map((pool) => pool.end())]);
    }
  },
};
