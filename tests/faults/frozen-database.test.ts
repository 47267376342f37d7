// A database that stops answering without closing anything (traffic held by the proxy): Postgres's
// statement_timeout cannot fire, so the pool's own deadline (DB_QUERY_DEADLINE_MS) must. Each call
// then fails: service_unavailable, a write's too (its statement was sent, its commit never was, so it
// cannot have committed; a lost commit is outcome_unknown: lost-answer.test.ts); the
// stuck connection is discarded, and the service serves again once the database answers. The
// delivery runner fails its run instead of hanging. On a database of its own: the runner claims
// whatever is due.
import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, DatabaseUnavailable } from '../../supabase/functions/_shared/database.ts';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { databaseProxy, type DatabaseProxy } from '../helpers/db-proxy.ts';
import { ISSUER, isolatedDatabase, newOperator, type Operator, sessionRequest, validBody } from '../helpers/api.ts';

let owner: Sql;
let alice: Operator;
let providerKey: string;
let proxy: DatabaseProxy;
let pool: ReturnType<typeof connectDatabase>;
let app: (request: Request) => Promise<Response>;
const betsSent: string[] = [];

beforeAll(async () => {
  let url: string;
  ({ owner, url } = await isolatedDatabase('frozen'));
  alice = await newOperator(owner, 'frozen');
  await owner`insert into public.wallet (client_id, currency_code, is_primary) values (${alice.account.id}, 'EUR', true)`;
  await owner`select * from public.record_transaction(${alice.account.id}::uuid, 'EUR', 'deposit', 50::numeric)`;
  providerKey = (await owner`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  proxy = await databaseProxy(url);
  pool = connectDatabase(proxy.url, { max: 2, queryDeadlineMs: 1_000 });
  afterAll(() => pool.end({ timeout: 0 }));
  const signer = await createSessionTokenSigner({ issuer: ISSUER });
  app = createApp({ sql: pool, signer, config: { allowPrivateUrls: true }, logError: () => {} });
});

const betRequest = (body: object) =>
  new Request('http://api.test/v3/provider/bets', {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` }, body: JSON.stringify(body),
  });

describe('a database that stops answering', () => {
  it('answers a write whose commit was never sent and a read service_unavailable, then serves again once it answers', async () => {
    const created = await app(sessionRequest(validBody, { key: alice.key }));
    expect(created.status).toBe(201);
    const session = await created.json();
    const token = new URL(session.launch_url).searchParams.get('token')!;

    proxy.freeze();
    try {
      // The pool's open connection takes the bet: its statement is sent, and no answer comes, so
      // its commit never leaves: nothing can have been written.
      const transactionId = `bet-${randomUUID()}`;
      const bet = await app(betRequest({ session_token: token, transaction_id: transactionId, round_id: `r-${randomUUID()}`, amount: '1' }));
      expect(bet.status).toBe(503);
      expect(await bet.json()).toMatchObject({ code: 'service_unavailable', retryable: true });
      betsSent.push(transactionId);
      const read = await app(new Request(`http://api.test/v3/sessions/${session.id}`, { headers: { authorization: `Bearer ${alice.key}` } }));
      expect(read.status).toBe(503);
      expect(await read.json()).toMatchObject({ code: 'service_unavailable', retryable: true });
      await expect(runDeliveries(pool, { allowPrivateUrls: true })).rejects.toBeInstanceOf(DatabaseUnavailable);
    } finally {
      proxy.thaw();
    }

    // The stuck connections were discarded: fresh ones serve.
    await expect.poll(async () => (await app(sessionRequest(validBody, { key: alice.key }))).status, { timeout: 20_000 }).toBe(201);
    const read = await app(new Request(`http://api.test/v3/sessions/${session.id}`, { headers: { authorization: `Bearer ${alice.key}` } }));
    expect(read.status).toBe(200);
    const [{ n }] = await owner`select count(*)::int as n from public.round_transaction where transaction_id = any(${betsSent})`;
    expect(n).toBe(0);
  });
});
