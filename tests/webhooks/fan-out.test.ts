// The delivery runner draws the deliveries from the outbox (issue 38): a change writes its event, and
// its place in the fan-out queue, in its own transaction and no delivery; the runner's fan-out writes
// one delivery to each endpoint that wants the event, once, and passes over no event, however a
// transaction's commit and the fan-outs interleave; a backlog drains a batch a claim, and an endpoint
// deleted meanwhile fails nothing. A database of its own: no other file's runner fans out here.
import { createHash, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase, newOperator, type Operator, recordedSession } from '../helpers/api.ts';
import { untilBlockedBy } from '../helpers/db.ts';

const { owner: sql } = await isolatedDatabase('fan_out');
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
let operator: Operator;
let client: string;

const endpoint = async (options: { livemode?: boolean; types?: string[]; enabled?: boolean } = {}) => {
  const [made] = await sql`
    insert into public.webhook_endpoint (client_id, livemode, url, event_types, enabled, secret_prefix)
    values (${client}, ${options.livemode ?? true}, 'https://hooks.operator.test/', ${options.types ?? []}, ${options.enabled ?? true},
            'whsec_abcdef')
    returning id`;
  await sql`insert into private.webhook_secret (endpoint_id, secret) values (${made.id}, private.new_signing_secret())`;
  return made.id as string;
};
const deliveriesOf = async (event: string) =>
  (await sql`select endpoint_id, status from public.webhook_delivery where event_id = ${event} order by endpoint_id`);
const endpointsOf = async (event: string) => (await deliveriesOf(event)).map((d) => d.endpoint_id as string);
const fanOut = async (db: Sql = sql) => (await db`select private.fan_out_events() as made`)[0].made as number | null;
const emit = (db: Sql, type = 'session.created') =>
  db`select private.emit_event(${client}, true, ${type}, '{}'::jsonb) as id`.then(([row]) => row.id as string);

beforeAll(async () => {
  operator = await newOperator(sql, 'fan-out');
  client = operator.account.id;
});

describe("the runner's fan-out", () => {
  it('a closing round writes its event and no delivery; the fan-out writes one to each endpoint that wants it, once', async () => {
    const wanted = [await endpoint(), await endpoint({ types: ['round.closed'] })];
    await endpoint({ types: ['session.created'] });
    await endpoint({ enabled: false });
    await endpoint({ livemode: false });
    const provider = sha((await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
    await sql`insert into public.wallet (client_id, currency_code) values (${client}, 'EUR')`;
    await sql`select * from public.record_transaction(${client}::uuid, 'EUR', 'deposit', 10::numeric)`;
    const session = await recordedSession(sql, client);
    const round = randomUUID();
    const [bet] = await sql`select outcome from private.round_bet(${provider}, ${session}, ${randomUUID()}, ${round}, 1, true, ${sha(round)})`;
    expect(bet.outcome).toBe('ok');
    const [event] = await sql`select e.id from public.event e join public.game_round r on r.id::text = e.data->>'id'
      where e.type = 'round.closed' and r.provider_round_id = ${round}`;
    // An endpoint made after the event is not sent it: an endpoint gets what happens from its creation on.
    await endpoint();
    expect(await deliveriesOf(event.id)).toEqual([]);

    await fanOut();
    expect(await endpointsOf(event.id)).toEqual(wanted.sort());
    // Once per endpoint per event: a later fan-out leaves a delivery made as it is.
    await sql`update public.webhook_delivery set status = 'delivered', delivered_at = now() where event_id = ${event.id}`;
    expect(await fanOut()).toBe(0);
    expect(await deliveriesOf(event.id)).toEqual(wanted.sort().map((id) => ({ endpoint_id: id, status: 'delivered' })));
  });

  it('passes over no event: one whose transaction is open at a fan-out is fanned out after its commit, due from its own time', async () => {
    await sql`update public.webhook_delivery set status = 'delivered' where status = 'pending'`;
    const all = await endpoint();
    let commit!: () => void;
    let written!: (id: string) => void;
    const early = new Promise<string>((resolve) => (written = resolve));
    // The open transaction writes first, so its id is the lower: a cursor moved to the newest
    // transaction seen, rather than to the oldest still running, would pass over it.
    const open = sql.begin(async (tx) => {
      written(await emit(tx as unknown as Sql));
      await new Promise<void>((resolve) => (commit = resolve));
    });
    const first = await early;
    const later = await emit(sql);
    await fanOut();
    expect(await endpointsOf(later)).toContain(all);
    expect(await deliveriesOf(first)).toEqual([]);
    commit();
    await open;
    await fanOut();
    expect(await endpointsOf(first)).toContain(all);
    // The claim takes the oldest due first: the event written first, though fanned out last.
    const [claimed] = await sql`select event_id from private.claim_deliveries(1, 60)`;
    expect(claimed.event_id).toBe(first);
  });

  it("the runner's claim fans out before it claims, and does not wait for a fan-out under way elsewhere", async () => {
    await sql`update public.webhook_delivery set status = 'delivered' where status = 'pending'`;
    const held = await emit(sql);
    const event = await emit(sql);
    await sql.begin(async (tx) => {
      // Another runner fanning out the first event holds its place in the queue.
      await tx`select 1 from private.event_fan_out_queue where event_id = ${held} for update`;
      // A claim that waited for it would wait on this transaction: it claims the other event at once.
      const other = await sql.reserve();
      try {
        await other`set lock_timeout = '1s'`;
        const claimed = await other`select event_id from private.claim_deliveries(50, 60)`;
        expect([...new Set(claimed.map((c) => c.event_id))]).toEqual([event]);
      } finally {
        await other`reset lock_timeout`;
        other.release();
      }
    });
    const claimed = await sql`select event_id from private.claim_deliveries(50, 60)`;
    expect([...new Set(claimed.map((c) => c.event_id))]).toEqual([held]);
  });

  it('a backlog drains a batch of events a claim, each claim sending what is due', async () => {
    await sql`update public.webhook_delivery set status = 'delivered' where status = 'pending'`;
    const queued = async () => Number((await sql`select count(*) from private.event_fan_out_queue`)[0].count);
    expect(await queued()).toBe(0);
    await sql`select private.emit_event(${client}, true, 'session.created', '{}'::jsonb) from generate_series(1, 1200)`;
    expect(await queued()).toBe(1200);
    // A claim fans out one batch, however long the backlog: a claim the backlog made outlast the
    // runner's statement timeout would stop every delivery, new or due.
    expect((await sql`select * from private.claim_deliveries(10, 60)`).length).toBe(10);
    expect(await queued()).toBe(700);
    await sql`select * from private.claim_deliveries(10, 60)`;
    await sql`select * from private.claim_deliveries(10, 60)`;
    expect(await queued()).toBe(0);
    await sql`update public.webhook_delivery set status = 'delivered' where status = 'pending'`;
  });

  it('an endpoint deleted while a fan-out reads it is passed over, and the others get their delivery', async () => {
    const kept = await endpoint();
    const deleted = await endpoint();
    const event = await emit(sql);
    const db = await sql.reserve();
    let made!: Promise<number>;
    try {
      await sql.begin(async (tx) => {
        await tx`delete from public.webhook_endpoint where id = ${deleted}`;
        const [{ pid }] = await tx`select pg_backend_pid() as pid`;
        made = db`select private.fan_out_events() as made`.then(([row]) => row.made as number);
        // The fan-out reads the endpoint whose delete is not committed, and waits for that delete,
        // which commits once it is seen waiting.
        await untilBlockedBy(tx as unknown as Sql, pid);
      });
      await made;
    } finally {
      db.release();
    }
    expect(await endpointsOf(event)).toContain(kept);
    expect(await endpointsOf(event)).not.toContain(deleted);
  });

  it("an endpoint's ping goes to it alone, fan-outs or not", async () => {
    const pinged = await endpoint();
    await endpoint();
    const [ping] = await sql`select event from private.change_webhook_endpoint(${sha(operator.key)}, ${pinged}, 'test')`;
    const id = JSON.parse(ping.event).id;
    await fanOut();
    expect(await endpointsOf(id)).toEqual([pinged]);
  });

  it("an event's deliveries as the API lists them include those the runner has yet to make", async () => {
    const rounds = await endpoint({ types: ['round.closed'] });
    const sessions = await endpoint({ types: ['session.created'] });
    const event = await emit(sql, 'round.closed');
    const [read] = await sql`select deliveries from private.event_deliveries(${sha(operator.key)}, ${event}, false)`;
    const listed = JSON.parse(read.deliveries).map((d: { endpoint_id: string }) => d.endpoint_id);
    expect(listed).toContain(rounds);
    expect(listed).not.toContain(sessions);
    expect(listed).toEqual(await endpointsOf(event));
    // The runner makes no other.
    expect(await fanOut()).toBe(0);
  });

  it("reading an event the runner has fanned out makes no delivery to an endpoint enabled since", async () => {
    const later = await endpoint({ enabled: false });
    const event = await emit(sql);
    await fanOut();
    expect(await endpointsOf(event)).not.toContain(later);
    await sql`update public.webhook_endpoint set enabled = true where id = ${later}`;
    const [read] = await sql`select deliveries from private.event_deliveries(${sha(operator.key)}, ${event}, false)`;
    expect(JSON.parse(read.deliveries).map((d: { endpoint_id: string }) => d.endpoint_id)).not.toContain(later);
    expect(await endpointsOf(event)).not.toContain(later);
  });
});
