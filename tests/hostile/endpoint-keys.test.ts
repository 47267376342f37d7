// API keys under attack: whether a key is unknown, revoked or suspended, the caller gets the same
// answer by the same path; the key never reaches the database (only its SHA-256 does), and neither
// the key nor its hash is ever logged or echoed, on success, refusal or database failure.
import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { freePort } from '../../scripts/lib/embedded-postgres.ts';
import { connectDatabase, type Sql } from '../../supabase/functions/_shared/database.ts';
import { connect } from '../helpers/db.ts';
import { holdKey, issueKey, newOperator, type Operator, revokedKey, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
let alice: Operator;
const keys: Record<'unknown' | 'revoked' | 'suspended', string> = { unknown: `cgs_live_${'U'.repeat(43)}`, revoked: '', suspended: '' };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  alice = await newOperator(sql, 'alice');
  const suspended = await issueKey(sql, alice.account, 'suspended');
  await sql`update public.api_key set status = 'suspended' where id = ${suspended.keyId}`;
  keys.revoked = await revokedKey(sql, alice.account);
  keys.suspended = suspended.key;
});
afterEach(() => vi.restoreAllMocks());

/** A pool that records every value the handler sends to the database. */
function recordingPool(url = inject('databaseUrl'), options = {}): { sql: Sql; sent: unknown[][]; end: () => Promise<void> } {
  const db = connectDatabase(url, { max: 2, ...options });
  const sent: unknown[][] = [];
  const recording = ((strings: TemplateStringsArray, ...values: unknown[]) => {
    sent.push(values);
    return db(strings, ...(values as never[]));
  }) as unknown as Sql;
  return { sql: recording, sent, end: () => db.end({ timeout: 0 }) };
}

const snapshot = async (response: Response) => ({
  status: response.status,
  headers: [...response.headers].sort(),
  body: await response.text(),
});

describe('unknown, revoked and suspended keys', () => {
  const requests = (key: string) => [
    sessionRequest(validBody, { key }),
    sessionRequest('{"player_id":', { key }),
    new Request('http://api.test/v3/sessions/00000000-0000-4000-8000-000000000000', { headers: { authorization: `Bearer ${key}` } }),
  ];

  it('get byte-for-byte the same 401, after the same single lookup', async () => {
    const pool = recordingPool();
    const { handle } = await sessionsHandler({ sql: pool.sql });
    try {
      const answers: Record<string, unknown> = {};
      for (const [which, key] of Object.entries(keys)) {
        pool.sent.length = 0;
        answers[which] = await Promise.all(requests(key).map(async (request) => snapshot(await handle(request))));
        expect(pool.sent).toHaveLength(3); // one database call per request, whoever the key belongs to
      }
      expect(answers.revoked).toEqual(answers.unknown);
      expect(answers.suspended).toEqual(answers.unknown);
      expect((answers.unknown as { status: number }[]).map((a) => a.status)).toEqual([401, 401, 401]);
    } finally {
      await pool.end();
    }
  });

  it('differ from a missing key only in the code (missing_api_key: no credentials, no error in the challenge)', async () => {
    const { handle } = await sessionsHandler();
    const missing = await (await handle(sessionRequest(validBody))).json();
    const invalid = await (await handle(sessionRequest(validBody, { key: keys.unknown }))).json();
    expect([missing.code, invalid.code]).toEqual(['missing_api_key', 'invalid_api_key']);
    expect(missing.status).toBe(invalid.status);
  });
});

describe('the key itself', () => {
  it('never reaches the database: every lookup is by its SHA-256', async () => {
    const pool = recordingPool();
    const { handle } = await sessionsHandler({ sql: pool.sql });
    try {
      for (const key of [alice.key, keys.unknown, keys.revoked]) {
        pool.sent.length = 0;
        await handle(sessionRequest(validBody, { key }));
        await handle(sessionRequest({}, { key }));
        const values = JSON.stringify(pool.sent);
        expect(values).not.toContain(key.slice(9));
        expect(pool.sent.every((call) => call.includes(sha256(key)))).toBe(true);
      }
    } finally {
      await pool.end();
    }
  });

  it('is never logged nor echoed, nor its hash: success, refusal, timeout, unreachable database, bug', async () => {
    const logged: unknown[] = [];
    const logError = (message: string, error: unknown) => logged.push([message, error]);
    const console_: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void console_.push(args.map(String).join(' ')));
    }
    const dead = recordingPool(`postgresql://postgres:postgres@127.0.0.1:${await freePort()}/postgres`, { connectTimeoutSeconds: 1 });
    // A statement timeout: carol's new key is held, so her first session waits on it until cut off.
    const slow = recordingPool(inject('databaseUrl'), { statementTimeoutMs: 200 });
    const carol = await newOperator(sql, 'carol');
    const release = await holdKey(sql, carol);
    const [session] = await sql`
      select s.id from public.game_session s where s.client_id = ${alice.account.id} limit 1`;
    const handlers = await Promise.all([
      sessionsHandler({ logError }),
      sessionsHandler({ sql: dead.sql, logError }),
      sessionsHandler({ sql: slow.sql, logError }),
      sessionsHandler({ logError, config: { sessionTtlSeconds: 0 } }), // game_session's check fails: a 500
    ]);
    const responses: string[] = [];
    const statuses = new Set<number>();
    try {
      for (const [index, { handle }] of handlers.entries()) {
        // Carol's held key is for the statement-timeout handler only; elsewhere it would wait 5 s.
        const callers = index === 2 ? [carol.key, keys.unknown] : [alice.key, keys.unknown, keys.revoked];
        for (const key of callers) {
          for (const request of [
            sessionRequest(validBody, { key, headers: { 'idempotency-key': `log-${Math.random()}` } }),
            sessionRequest({ player_id: '' }, { key }),
            new Request(`http://api.test/v3/sessions/${session.id}`, { headers: { authorization: `Bearer ${key}` } }),
          ]) {
            const response = await handle(request);
            statuses.add(response.status);
            responses.push(JSON.stringify(await snapshot(response)));
          }
        }
      }
    } finally {
      await release();
      await Promise.all([dead.end(), slow.end()]);
    }
    expect([...statuses]).toEqual(expect.arrayContaining([200, 201, 400, 401, 404, 500, 503]));
    expect(JSON.stringify(logged)).toContain('57014'); // the timeout was among them
    // Failures were logged (so the check below looked at something), as summaries without parameters.
    expect(logged.length).toBeGreaterThanOrEqual(6);
    const everything = JSON.stringify(logged) + console_.join('\n') + responses.join('\n');
    for (const key of [alice.key, carol.key, keys.unknown, keys.revoked]) {
      expect(everything).not.toContain(key.slice(9));
      expect(everything).not.toContain(sha256(key));
    }
  });
});
