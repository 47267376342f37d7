// The endpoint's database connection: safe behind Supabase's transaction pooler unless told it is
// direct, bounded in time, and the line between "database unavailable" (503, retry) and a bug (500).
import { afterAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase, isDatabaseUnavailable, rerunConflicts } from '../../supabase/functions/_shared/database.ts';

const sql = connectDatabase(inject('databaseUrl'), { max: 1 });
afterAll(() => sql.end());

describe('connectDatabase', () => {
  it('bounds every statement with a 5 s statement_timeout and names its connections', async () => {
    const [row] = await sql`select current_setting('statement_timeout') as timeout, current_setting('application_name') as app`;
    expect(row).toEqual({ timeout: '5s', app: 'cgs-v3' });
  });

  it('reports a statement cut off by statement_timeout as the database being unavailable', async () => {
    const short = connectDatabase(inject('databaseUrl'), { max: 1, statementTimeoutMs: 50 });
    try {
      const error = await short`select pg_sleep(1)`.catch((e: unknown) => e);
      expect((error as { code: string }).code).toBe('57014');
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await short.end();
    }
  });

  it.each([
    ['by default, none (the transaction pooler cannot keep them)', {}, 0],
    ['with prepare (a direct connection), the statement, once', { prepare: true }, 1],
  ])('prepares statements on its connection: %s', async (_name, options, prepared) => {
    const pool = connectDatabase(inject('databaseUrl'), { max: 1, ...options });
    try {
      for (let n = 0; n < 3; n++) expect(await pool`select ${n}::int as n`).toEqual([{ n }]);
      const [row] = await pool`select count(*)::int as count from pg_prepared_statements where statement = 'select $1::int as n'`;
      expect(row.count).toBe(prepared);
    } finally {
      await pool.end();
    }
  });

  it.each([
    ['a refused connection', 'ECONNREFUSED', true],
    ['a connect timeout', 'CONNECT_TIMEOUT', true],
    ['a closed connection', 'CONNECTION_CLOSED', true],
    ['too many connections', '53300', true],
    ['a database starting up', '57P03', true],
    ['a serialization failure (after its reruns)', '40001', true],
    ['a deadlock (after its reruns)', '40P01', true],
    ['a check violation', '23514', false],
    ['a syntax error', '42601', false],
    ['an error without a code', undefined, false],
  ])('classifies %s', (_name, code, unavailable) => {
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(unavailable);
  });
});

describe('rerunConflicts', () => {
  const failing = (codes: (string | undefined)[]) => {
    let calls = 0;
    const call = async () => {
      const code = codes[calls++];
      if (calls <= codes.length) throw Object.assign(new Error('x'), { code });
      return 'done';
    };
    return { call, calls: () => calls };
  };

  it('runs a call rolled back for a concurrent one again, until it answers', async () => {
    const run = failing(['40001', '40P01', '40001']);
    expect(await rerunConflicts(run.call)).toBe('done');
    expect(run.calls()).toBe(4);
  });

  it('gives up after its reruns, with the last failure', async () => {
    const run = failing(['40001', '40001', '40001']);
    await expect(rerunConflicts(run.call, 2)).rejects.toMatchObject({ code: '40001' });
    expect(run.calls()).toBe(3);
  });

  it('never runs again a call that failed otherwise', async () => {
    for (const code of ['23514', '57014', undefined]) {
      const run = failing([code]);
      await expect(rerunConflicts(run.call)).rejects.toMatchObject({ message: 'x' });
      expect(run.calls()).toBe(1);
    }
  });
});
