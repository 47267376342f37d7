// A slow or silent database cannot pile requests up without bound: each statement is cut off at
// statement_timeout, each connection attempt at connect_timeout, and a burst larger than the pool
// waits for one of its N connections instead of opening more. All come from the environment, with
// the query deadline (tests/faults/frozen-database.test.ts).
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/lib/embedded-postgres.ts';
import {
  connectDatabase, databaseOptionsFromEnv, reconnectBackoffCapSeconds, settingLimits, type Sql,
} from '../../supabase/functions/_shared/database.ts';
import { blackHole } from '../helpers/black-hole.ts';
import { connect } from '../helpers/db.ts';
import { holdKey, newOperator, type Operator, sessionRequest, sessionsHandler, validBody, writesBy } from '../helpers/api.ts';

const sql = connect();
let alice: Operator;
let bob: Operator;

beforeAll(async () => {
  [alice, bob] = await Promise.all([newOperator(sql, 'alice'), newOperator(sql, 'bob')]);
});

const connections = async (applicationName: string) => {
  const [row] = await sql`
    select count(*)::int as total, count(*) filter (where wait_event_type = 'Lock')::int as waiting
    from pg_stat_activity where application_name = ${applicationName}`;
  return row as { total: number; waiting: number };
};

function pool(options: Parameters<typeof connectDatabase>[1]): Sql {
  return connectDatabase(inject('databaseUrl'), options);
}

describe('statement_timeout', () => {
  it('cuts off a request stuck behind a lock: 503 within the timeout, and its insert rolled back', async () => {
    const db = pool({ statementTimeoutMs: 300, applicationName: 'cgs-v3-faults-timeout' });
    const { handle } = await sessionsHandler({ sql: db, logError: () => {} });
    const release = await holdKey(sql, alice);
    try {
      const before = await writesBy(sql, alice.account);
      const started = Date.now();
      const response = await handle(sessionRequest(validBody, { key: alice.key, headers: { 'idempotency-key': 'slow' } }));
      const elapsed = Date.now() - started;
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBeTruthy();
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(2_000);
      // create_game_session had inserted the session before it waited on the key: all undone.
      expect(await writesBy(sql, alice.account)).toEqual(before);
    } finally {
      await release();
      await db.end();
    }
  });
});

describe('pool size', () => {
  it('serves a burst of 12 requests on at most 3 connections: the rest wait, and all succeed', async () => {
    const applicationName = 'cgs-v3-faults-pool';
    const db = pool({ max: 3, applicationName });
    const { handle } = await sessionsHandler({ sql: db });
    const release = await holdKey(sql, bob);
    try {
      const burst = Array.from({ length: 12 }, (_, i) =>
        handle(sessionRequest({ ...validBody, player_id: `burst-${i}` }, { key: bob.key })));
      // Every connection the pool may open is busy, blocked on the key...
      await expect.poll(() => connections(applicationName), { timeout: 5_000, interval: 50 })
        .toEqual({ total: 3, waiting: 3 });
      // ...and it opens no fourth while nine more requests wait.
      for (let sample = 0; sample < 5; sample += 1) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        expect((await connections(applicationName)).total).toBe(3);
      }
      await release();
      expect((await Promise.all(burst)).map((r) => r.status)).toEqual(Array(12).fill(201));
      expect((await connections(applicationName)).total).toBeLessThanOrEqual(3);
      expect((await writesBy(sql, bob.account)).sessions).toBe(12);
    } finally {
      await release();
      await db.end();
    }
  });
});

describe('connect_timeout', () => {
  it('gives up on a server that accepts connections and never answers: 503 within the timeout', async () => {
    const hole = await blackHole();
    const db = connectDatabase(`postgresql://postgres:postgres@127.0.0.1:${hole.port}/postgres`, { connectTimeoutSeconds: 0.5 });
    const { handle } = await sessionsHandler({ sql: db, logError: () => {} });
    try {
      for (const request of [
        sessionRequest(validBody, { key: alice.key }),
        new Request('http://api.test/v3/sessions/00000000-0000-4000-8000-000000000000', {
          headers: { authorization: `Bearer ${alice.key}` },
        }),
      ]) {
        const started = Date.now();
        const response = await handle(request);
        expect(response.status).toBe(503);
        expect(Date.now() - started).toBeGreaterThanOrEqual(450);
        // Well before postgres.js's own 30 s default, with room for a loaded machine.
        expect(Date.now() - started).toBeLessThan(10_000);
      }
      expect(hole.accepted()).toBeGreaterThan(0); // it did reach the black hole
    } finally {
      await db.end({ timeout: 0 });
      await hole.close();
    }
  });
});

describe('reconnecting during an outage', () => {
  it('keeps every request\'s 503 prompt however long the outage lasts: reconnect pauses are capped', async () => {
    const db = connectDatabase(`postgresql://postgres:postgres@127.0.0.1:${await freePort()}/postgres`, { connectTimeoutSeconds: 1 });
    const { handle } = await sessionsHandler({ sql: db, logError: () => {} });
    try {
      const waits: number[] = [];
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const started = Date.now();
        expect((await handle(sessionRequest(validBody, { key: alice.key }))).status).toBe(503);
        waits.push(Date.now() - started);
      }
      // postgres.js's default would pause 1.9 s, 5.9 s, 17.7 s... before these attempts.
      expect(Math.max(...waits)).toBeLessThan(reconnectBackoffCapSeconds * 1000 + 400);
    } finally {
      await db.end({ timeout: 0 });
    }
  });
});

describe('settings from the environment', () => {
  const from = (values: Record<string, string>) => databaseOptionsFromEnv((name) => values[name]);
  /** The statement_timeout a connection of a pool with `options` gets, as Postgres reports it. */
  async function statementTimeoutOf(options: Parameters<typeof pool>[0]): Promise<string> {
    const db = pool(options);
    try {
      const [row] = await db`select current_setting('statement_timeout') as timeout`;
      return row.timeout;
    } finally {
      await db.end();
    }
  }

  it('defaults to a pool of 10, a 5 s connect timeout, a 5 s statement timeout, a 6 s deadline and no prepared statements', () => {
    expect(from({})).toEqual({ max: 10, connectTimeoutSeconds: 5, statementTimeoutMs: 5_000, queryDeadlineMs: 6_000, prepare: false });
  });

  it('reads DB_POOL_MAX, DB_CONNECT_TIMEOUT_S, DB_STATEMENT_TIMEOUT_MS, DB_QUERY_DEADLINE_MS and DB_PREPARE, and the pool applies them', async () => {
    const options = from({
      DB_POOL_MAX: '2', DB_CONNECT_TIMEOUT_S: '1.5', DB_STATEMENT_TIMEOUT_MS: '250', DB_QUERY_DEADLINE_MS: '900', DB_PREPARE: 'true',
    });
    expect(options).toEqual({ max: 2, connectTimeoutSeconds: 1.5, statementTimeoutMs: 250, queryDeadlineMs: 900, prepare: true });
    expect(await statementTimeoutOf(options)).toBe('250ms');
    expect(from({ DB_PREPARE: 'false' }).prepare).toBe(false);
  });

  it.each(['yes', '1', 'TRUE', ' true'])('refuses to start with DB_PREPARE=%j rather than guess', (value) => {
    expect(() => from({ DB_PREPARE: value })).toThrow('DB_PREPARE must be true or false');
  });

  it.each([
    ['DB_POOL_MAX', '0'], ['DB_POOL_MAX', '2.5'], ['DB_POOL_MAX', 'ten'], ['DB_POOL_MAX', '0x10'], ['DB_POOL_MAX', '1e7'],
    ['DB_CONNECT_TIMEOUT_S', '-1'], ['DB_CONNECT_TIMEOUT_S', 'Infinity'], ['DB_CONNECT_TIMEOUT_S', ' 5 '],
    ['DB_STATEMENT_TIMEOUT_MS', ''], ['DB_STATEMENT_TIMEOUT_MS', '0'], ['DB_STATEMENT_TIMEOUT_MS', '1e3'],
    ['DB_QUERY_DEADLINE_MS', '0'], ['DB_QUERY_DEADLINE_MS', '6s'], ['DB_QUERY_DEADLINE_MS', '1.5'],
  ])('refuses to start with %s=%j rather than run without a bound', (name, value) => {
    expect(() => from({ [name]: value })).toThrow(name);
  });

  it('accepts each setting up to its limit, and a statement timeout at the limit works on a real connection', async () => {
    const limits = {
      DB_POOL_MAX: settingLimits.poolMax, DB_CONNECT_TIMEOUT_S: settingLimits.connectTimeoutSeconds,
      DB_STATEMENT_TIMEOUT_MS: settingLimits.statementTimeoutMs, DB_QUERY_DEADLINE_MS: settingLimits.queryDeadlineMs,
    };
    for (const [name, limit] of Object.entries(limits)) {
      expect(() => from({ [name]: String(limit + 1) })).toThrow(`${name} must be a positive`);
    }
    const options = from(Object.fromEntries(Object.entries(limits).map(([name, limit]) => [name, String(limit)])));
    expect(options).toEqual({
      max: 1000, connectTimeoutSeconds: 600, statementTimeoutMs: 2 ** 31 - 1, queryDeadlineMs: 2 ** 31 - 1, prepare: false,
    });
    expect(await statementTimeoutOf(options)).toBe('2147483647ms');
  });
});
