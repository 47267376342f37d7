import type { Sql } from 'postgres';
import { describeAccessMatrix, newId, ownerAndStaff } from './matrix.ts';

const endpointOf = async (sql: Sql, clientId: string) =>
  (await sql`insert into public.webhook_endpoint (client_id, livemode, url, secret_prefix)
             values (${clientId}, true, 'https://hooks.test/', 'whsec_abc') returning id`)[0].id as string;
const eventOf = async (sql: Sql, clientId: string) =>
  (await sql`insert into public.event (client_id, livemode, type, data) values (${clientId}, true, 'test.seeded', '{}') returning id`)[0].id as string;

// The outbox and the endpoints are written by the service alone; clients read their own, staff all.
describeAccessMatrix({
  table: 'webhook_endpoint',
  seed: ({ sql, owner }) => endpointOf(sql, owner.id),
  newRow: ({ owner }) => ({ id: newId(), client_id: owner.id, livemode: true, url: 'https://evil.test/', secret_prefix: 'whsec_x' }),
  change: { url: 'https://evil.test/' },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

describeAccessMatrix({
  table: 'event',
  seed: ({ sql, owner }) => eventOf(sql, owner.id),
  newRow: ({ owner }) => ({ id: newId(), client_id: owner.id, livemode: true, type: 'forged.event', data: {} }),
  change: { type: 'forged.event' },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

describeAccessMatrix({
  table: 'webhook_delivery',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.webhook_delivery (event_id, endpoint_id, client_id)
      values (${await eventOf(sql, owner.id)}, ${await endpointOf(sql, owner.id)}, ${owner.id}) returning id`;
    return row.id;
  },
  newRow: async ({ sql, owner }) => ({
    id: newId(), event_id: await eventOf(sql, owner.id), endpoint_id: await endpointOf(sql, owner.id), client_id: owner.id,
  }),
  change: { status: 'delivered' },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});

describeAccessMatrix({
  table: 'webhook_attempt',
  key: 'delivery_id',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.webhook_delivery (event_id, endpoint_id, client_id)
      values (${await eventOf(sql, owner.id)}, ${await endpointOf(sql, owner.id)}, ${owner.id}) returning id`;
    await sql`insert into public.webhook_attempt (delivery_id, attempt, client_id, status_code, duration_ms)
      values (${row.id}, 1, ${owner.id}, 500, 3)`;
    return row.id;
  },
  newRow: async ({ sql, other }) => {
    const [row] = await sql`insert into public.webhook_delivery (event_id, endpoint_id, client_id)
      values (${await eventOf(sql, other.id)}, ${await endpointOf(sql, other.id)}, ${other.id}) returning id`;
    return { delivery_id: row.id, attempt: 1, client_id: other.id, status_code: 200, duration_ms: 1 };
  },
  change: { status_code: 200 },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});
