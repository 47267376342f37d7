// The database goes away under the running function (real Deno, its own Postgres, stopped and
// started again on the same port): 503 problem+json while it is down, quickly; every request told
// that nothing was written, the one caught mid-transaction too (its statement had been sent, its
// commit not: a transaction cut off before its commit is rolled back); nothing written indeed; 201
// again once it is back, with no restart.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres, { type Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../scripts/lib/database.ts';
import { importFixtureCatalogue } from '../../scripts/lib/fixture-catalogue.ts';
import { type ServedFunction, serveFunction } from '../../scripts/lib/deno-function.ts';
import { freePort, type RunningPostgres, startEmbeddedPostgres } from '../../scripts/lib/embedded-postgres.ts';
import { newOperator, type Operator, validBody } from '../helpers/api.ts';

// A fresh path under the temp folder (see startThrowawayPostgres), kept across stop and start.
const dir = join(tmpdir(), `cgs-faults-down-${process.pid}-${Date.now()}`);
let port: number;
let pg: RunningPostgres | undefined;
let dataDir = dir; // where it really lives (moved as root when the postgres user cannot reach dir)
let owner: Sql;
let served: ServedFunction;
let alice: Operator;
const output: string[] = [];

const startPostgres = async () => {
  pg = await startEmbeddedPostgres({ dir, port, persistent: true, fast: true });
  dataDir = pg.dir;
};
const stopPostgres = async () => {
  await pg?.stop();
  pg = undefined;
};

// Registered before the account helper's cleanup, so (hooks run in reverse) it runs after it.
afterAll(async () => {
  await served?.stop();
  await owner?.end();
  await stopPostgres();
  await rm(dataDir, { recursive: true, force: true });
});

beforeAll(async () => {
  port = await freePort();
  await startPostgres();
  await prepareDatabase(pg!.url);
  await importFixtureCatalogue(pg!.url);
  owner = postgres(pg!.url, { max: 3, onnotice: () => {} });
  alice = await newOperator(owner, 'alice');
  served = await serveFunction({
    databaseUrl: pg!.url,
    port: await freePort(),
    env: { DB_CONNECT_TIMEOUT_S: '1', DB_STATEMENT_TIMEOUT_MS: '3000', DB_POOL_MAX: '4' },
    onOutput: (line) => output.push(line),
  });
});

const post = (player: string, headers: Record<string, string> = {}) =>
  fetch(`${served.url}/v3/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.key}`, ...headers },
    body: JSON.stringify({ ...validBody, player_id: player }),
  });

/** A 503 as promised: problem+json, Retry-After, nothing about the database. */
async function expectUnavailable(response: Response, code = 'service_unavailable') {
  expect(response.status).toBe(503);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  const text = await response.text();
  expect(JSON.parse(text)).toMatchObject({ status: 503, code, retryable: true });
  expect(text).not.toMatch(/postgres|ECONN|127\.0\.0\.1|terminat|connection|sql/i);
}

describe('the database stops and starts under the running function', () => {
  let sessionId: string;

  it('creates a session while the database is up', async () => {
    const response = await post('before');
    expect(response.status).toBe(201);
    sessionId = (await response.json()).id;
  });

  it('answers the request caught mid-transaction service_unavailable (its commit was never sent), and every later one within the connect timeout', async () => {
    // Hold the session table so the next request blocks inside create_game_session, after its key
    // check and Idempotency-Key lock, then take the database away under it.
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = owner.begin(async (tx) => {
      await tx`lock table public.game_session in access exclusive mode`;
      locked();
      await new Promise(() => {}); // until the server goes
    }).catch(() => 'ended');
    await lockTaken;
    const inFlight = post('in-flight', { 'idempotency-key': 'in-flight' });
    await expect.poll(async () => {
      const [row] = await owner`
        select count(*)::int as waiting from pg_stat_activity where application_name = 'cgs-v3' and wait_event_type = 'Lock'`;
      return row.waiting;
    }, { timeout: 5_000, interval: 50 }).toBe(1);

    await stopPostgres();
    expect(await holder).toBe('ended');
    // Its statement had reached the database, its commit had not: it cannot have committed.
    await expectUnavailable(await inFlight);

    // However long it lasts: the connect timeout (1 s here) bounds a refusal, reconnect pauses are capped.
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      const started = Date.now();
      await expectUnavailable(await post(`down-${attempt}`));
      expect(Date.now() - started).toBeLessThan(1_500);
    }
    await expectUnavailable(await post('down-9', { 'idempotency-key': 'down-9' }));
    // Reading and the key check a rejection needs are just as unavailable, not a 401 or a 404.
    await expectUnavailable(await fetch(`${served.url}/v3/sessions/${sessionId}`, { headers: { authorization: `Bearer ${alice.key}` } }));
    await expectUnavailable(await post('', { 'idempotency-key': 'x'.repeat(300) }));
  });

  it('creates sessions again once the database is back, without restarting the function', async () => {
    await startPostgres();
    // A connection that failed a call is replaced, so none hands its old error to a new request.
    expect((await post('after-0')).status).toBe(201);
    const following = await Promise.all(Array.from({ length: 6 }, (_, i) => post(`after-burst-${i}`)));
    expect(following.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(output.filter((line) => line.includes('v3 listening on'))).toHaveLength(1);
  });

  it('wrote nothing for the requests made while it was down, not even the one caught mid-transaction', async () => {
    const rows = await owner`select player_id from public.game_session where client_id = ${alice.account.id}`;
    const players = rows.map((r) => r.player_id);
    expect(players).toContain('before');
    expect(players.filter((p) => p.startsWith('after-'))).toHaveLength(7);
    expect(players.filter((p) => p === 'in-flight' || p.startsWith('down-'))).toEqual([]);
    const [{ keys }] = await owner`select count(*)::int as keys from private.idempotency_key where client_id = ${alice.account.id}`;
    expect(keys).toBe(0);
    // Nothing was remembered, so the interrupted request's retry creates its session now.
    const retry = await post('in-flight', { 'idempotency-key': 'in-flight' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('logged the outage, and never the API key or its hash', () => {
    const log = output.join('\n');
    expect(log).toContain('database unavailable');
    expect(log).not.toContain(alice.key);
    expect(log).not.toContain(alice.key.slice(9));
    expect(log).not.toContain(createHash('sha256').update(alice.key).digest('hex'));
  });
});
