// One API request as PostgREST runs it: a transaction that sets `role` and `request.jwt.claims`
// locally, runs the pre-request function (private.check_request), then the statement. The same
// request as `service_role` (Supabase's BYPASSRLS role, how a request with the service key runs) is
// the "RLS bypassed" side.
import type { Sql, TransactionSql } from 'postgres';
import { type Claims, openRequest } from '../../scripts/lib/postgrest.ts';

export type Role = 'anon' | 'authenticated' | 'staff' | 'service_role';

export interface Caller {
  role: Role;
  /** The account's id (the JWT's sub); absent for anon and the service key. */
  id?: string;
}

function claimsOf({ role, id }: Caller): Claims {
  return id && (role === 'authenticated' || role === 'staff') ? { sub: id, role, aud: 'authenticated' } : { role };
}

// postgres.js sends a statement without parameters over the simple protocol, unprepared and planned
// anew each time, whatever `prepare` says; `simple: false` (missing from its types) prepares it too,
// as PostgREST prepares every statement.
const PREPARED = { prepare: true, simple: false } as { prepare: true };

/** Settings the transaction sets locally besides the role and claims (e.g. max_parallel_workers_per_gather). */
export type Settings = Record<string, string>;

async function inRequest<T>(sql: Sql, caller: Caller, fn: (tx: TransactionSql) => Promise<T>, settings: Settings = {}): Promise<T> {
  return sql.begin(async (tx) => {
    await openRequest(tx, claimsOf(caller), settings);
    return fn(tx);
  }) as Promise<T>;
}

/**
 * Runs `statement` as `caller` and returns how long the statement took, in milliseconds, as the
 * client sees it (one round trip; prepared, as PostgREST prepares its statements). The
 * transaction's set-up and commit are the same on both sides and left out of the figure.
 */
export function timedStatement(sql: Sql, caller: Caller, statement: string, params: string[], settings?: Settings): Promise<number> {
  return inRequest(sql, caller, async (tx) => {
    const start = process.hrtime.bigint();
    await tx.unsafe(statement, params, PREPARED);
    return Number(process.hrtime.bigint() - start) / 1e6;
  }, settings);
}

export interface PostgrestGet {
  /** The resource path PostgREST would see (request.path), e.g. `/transaction`. */
  path: string;
  /** A count is sent as is; a read is wrapped the way PostgREST wraps a GET's rows into its body. */
  count: boolean;
}

/** The statement PostgREST sends for a GET of `statement`'s rows. */
export function postgrestStatement(statement: string, { count }: PostgrestGet): string {
  if (count) return statement;
  return `with pgrst_source as (${statement})
    select null::bigint as total_result_set, pg_catalog.count(_postgrest_t) as page_total,
           coalesce(json_agg(_postgrest_t), '[]') as body
    from (select * from pgrst_source) _postgrest_t`;
}

/**
 * The whole request as PostgREST runs it, timed from `begin` to the end of `commit`: a read-only
 * transaction, the role, claims, method and path set locally, the pre-request function, the
 * wrapped statement (prepared).
 */
export async function timedPostgrestRequest(
  sql: Sql,
  caller: Caller,
  statement: string,
  params: string[],
  get: PostgrestGet,
): Promise<number> {
  const wrapped = postgrestStatement(statement, get);
  const start = process.hrtime.bigint();
  await sql.begin('read only', async (tx) => {
    await openRequest(tx, claimsOf(caller), { 'request.method': 'GET', 'request.path': get.path });
    await tx.unsafe(wrapped, params, PREPARED);
  });
  return Number(process.hrtime.bigint() - start) / 1e6;
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
