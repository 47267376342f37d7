// One API request as PostgREST runs it: a transaction that sets `role` and `request.jwt.claims`
// locally, then the statement. The same shape as the database owner is the "RLS bypassed" side.
import type { Sql, TransactionSql } from 'postgres';

/** Who sends the request; `owner` is the database owner (superuser: RLS does not apply). */
export type Role = 'anon' | 'authenticated' | 'owner';

export interface Caller {
  role: Role;
  /** The account's id (the JWT's sub); absent for anon. */
  id?: string;
}

async function inRequest<T>(sql: Sql, { role, id }: Caller, fn: (tx: TransactionSql) => Promise<T>): Promise<T> {
  const claims = id ? { sub: id, role: 'authenticated', aud: 'authenticated' } : { role: 'anon' };
  return sql.begin(async (tx) => {
    await tx`select set_config('role', ${role === 'owner' ? 'postgres' : role}, true),
                    set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
    return fn(tx);
  }) as Promise<T>;
}

/**
 * Runs `statement` as `caller` and returns how long the statement took, in milliseconds, as the
 * client sees it (one round trip; prepared, as PostgREST prepares its statements). The
 * transaction's set-up and commit are the same on both sides and left out of the figure.
 */
export function timedRequest(sql: Sql, caller: Caller, statement: string, params: string[]): Promise<number> {
  return inRequest(sql, caller, async (tx) => {
    const start = process.hrtime.bigint();
    await tx.unsafe(statement, params, { prepare: true });
    return Number(process.hrtime.bigint() - start) / 1e6;
  });
}

/** The plan `statement` gets as `caller` (EXPLAIN VERBOSE, JSON), with `params` bound or generic. */
export function planOf(sql: Sql, caller: Caller, statement: string, params: string[] | 'generic'): Promise<unknown> {
  return inRequest(sql, caller, async (tx) => {
    // GENERIC_PLAN takes $n without values, and only over the simple protocol.
    const [row] = params === 'generic'
      ? await tx.unsafe(`explain (generic_plan, verbose, costs off, format json) ${statement}`).simple()
      : await tx.unsafe(`explain (verbose, costs off, format json) ${statement}`, params);
    return (row as Record<string, unknown[]>)['QUERY PLAN'][0];
  });
}
