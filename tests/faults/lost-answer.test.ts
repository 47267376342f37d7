// Answers that never claim more than is known about what was written. A write whose statement
// reached Postgres and committed, with the answer lost on the way back, is answered outcome_unknown
// (503, retryable with the same transaction_id or Idempotency-Key), never "nothing was written";
// the retry replays the committed answer. A database that could not be reached is still
// service_unavailable, and nothing was written.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/lib/embedded-postgres.ts';
import { connectDatabase } from '../../supabase/functions/_shared/database.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { connect } from '../helpers/db.ts';
import { databaseProxy, type DatabaseProxy } from '../helpers/db-proxy.ts';
import { newOperator, type Operator, sessionRequest, sessionsHandler, validBody, writesBy } from '../helpers/api.ts';

const sql = connect();
const { handle, signer } = await sessionsHandler();
let alice: Operator;
let providerKey: string;
let proxy: DatabaseProxy;
let viaProxy: (request: Request) => Promise<Response>;
const logged: string[] = [];

beforeAll(async () => {
  alice = await newOperator(sql, 'lost-answer');
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${alice.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${alice.account.id}::uuid, 'EUR', 'deposit', 50::numeric)`;
  providerKey = (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  proxy = await databaseProxy(inject('databaseUrl'));
  const pool = connectDatabase(proxy.url, { max: 2, connectTimeoutSeconds: 1 });
  afterAll(() => pool.end({ timeout: 0 }));
  viaProxy = createApp({ sql: pool, signer, config: { allowPrivateUrls: true }, logError: (message) => logged.push(message) });
});

async function launchToken(): Promise<string> {
  const response = await handle(sessionRequest(validBody, { key: alice.key }));
  expect(response.status).toBe(201);
  return new URL((await response.json()).launch_url).searchParams.get('token')!;
}

const betRequest = (body: object) =>
  new Request('http://api.test/v3/provider/bets', {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` }, body: JSON.stringify(body),
  });

const betsOf = async (transactionId: string) =>
  (await sql`select count(*)::int as n from public.round_transaction where transaction_id = ${transactionId}`)[0].n;

async function expectOutcomeUnknown(response: Response) {
  expect(response.status).toBe(503);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  const problem = await response.json();
  expect(problem).toMatchObject({ status: 503, code: 'outcome_unknown', retryable: true });
  expect(problem.detail).toMatch(/may have been applied/);
  expect(problem.detail).toMatch(/same transaction_id or Idempotency-Key/);
  expect(problem.detail).not.toMatch(/nothing was written/i);
}

describe('a write whose answer is lost after it committed', () => {
  it('a bet is answered outcome_unknown, and its retry with the same transaction_id replays the committed answer', async () => {
    const bet = { session_token: await launchToken(), transaction_id: `bet-${randomUUID()}`, round_id: `round-${randomUUID()}`, amount: '2' };
    const cut = proxy.loseAnswerTo('round_bet');
    const lost = await viaProxy(betRequest(bet));
    await cut;
    await expectOutcomeUnknown(lost);
    expect(await betsOf(bet.transaction_id)).toBe(1); // it did commit
    const retry = await viaProxy(betRequest(bet));
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toMatchObject({ transaction_id: bet.transaction_id, balance: '48.0000' });
    expect(await betsOf(bet.transaction_id)).toBe(1);
  });

  it('a session created under an Idempotency-Key is answered outcome_unknown, and the retry replays it', async () => {
    const key = randomUUID();
    const request = () => sessionRequest({ ...validBody, player_id: 'lost-answer' }, { key: alice.key, headers: { 'idempotency-key': key } });
    const before = await writesBy(sql, alice.account);
    const cut = proxy.loseAnswerTo('create_game_session');
    const lost = await viaProxy(request());
    await cut;
    await expectOutcomeUnknown(lost);
    expect(await writesBy(sql, alice.account)).toEqual({ sessions: before.sessions + 1, idempotencyKeys: before.idempotencyKeys + 1 });
    const retry = await viaProxy(request());
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await writesBy(sql, alice.account)).toEqual({ sessions: before.sessions + 1, idempotencyKeys: before.idempotencyKeys + 1 });
  });

  it('a read whose answer is lost is only unavailable: it wrote nothing', async () => {
    const id = (await (await handle(sessionRequest(validBody, { key: alice.key }))).json()).id;
    const cut = proxy.loseAnswerTo('read_game_session');
    const lost = await viaProxy(new Request(`http://api.test/v3/sessions/${id}`, { headers: { authorization: `Bearer ${alice.key}` } }));
    await cut;
    expect(lost.status).toBe(503);
    expect(await lost.json()).toMatchObject({ code: 'service_unavailable', retryable: true });
  });
});

describe('a database that cannot be reached', () => {
  it('answers a bet service_unavailable, and nothing was written', async () => {
    const down = connectDatabase(`postgresql://postgres:postgres@127.0.0.1:${await freePort()}/postgres`, { connectTimeoutSeconds: 1 });
    try {
      const app = createApp({ sql: down, signer, logError: () => {} });
      const bet = { session_token: await launchToken(), transaction_id: `bet-${randomUUID()}`, round_id: `round-${randomUUID()}`, amount: '1' };
      const response = await app(betRequest(bet));
      expect(response.status).toBe(503);
      const problem = await response.json();
      expect(problem).toMatchObject({ code: 'service_unavailable', retryable: true });
      expect(problem.detail).toMatch(/nothing was written/);
      expect(await betsOf(bet.transaction_id)).toBe(0);
    } finally {
      await down.end({ timeout: 0 });
    }
  });
});
