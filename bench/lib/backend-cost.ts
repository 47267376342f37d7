// What Postgres itself spends on a workload, asked of the server rather than timed from outside:
// the CPU time of the backends serving one application_name (from /proc, since the bench's server
// runs on this machine; pg_stat_statements would need shared_preload_libraries, which the throwaway
// cluster does not set), the WAL a connection writes (from pg_walinspect), and the locks a backend
// holds mid-transaction.
import type { Sql, TransactionSql } from 'postgres';
import { readProc, TICKS_PER_SECOND } from '../sessions/processes.ts';

/**
 * Starts counting the CPU time (user and system) of the backends whose application_name is
 * `application`; the function returned gives the seconds they used since. A backend that connected
 * meanwhile counts from its start, so a pool that opens connections lazily is measured whole.
 */
export async function backendCpu(admin: Sql, application: string): Promise<() => Promise<number>> {
  const ticks = async () => {
    const backends = await admin<{ pid: number }[]>`select pid from pg_stat_activity where application_name = ${application}`;
    const read = await Promise.all(backends.map(({ pid }) => readProc(pid)));
    return new Map(read.flatMap((p) => (p ? [[p.pid, p.ticks] as const] : [])));
  };
  const before = await ticks();
  return async () => {
    let used = 0;
    for (const [pid, now] of await ticks()) used += now - (before.get(pid) ?? 0);
    return used / TICKS_PER_SECOND;
  };
}

export interface Wal {
  bytes: number;
  records: number;
}

/**
 * The WAL written while `run` runs on `connection` (one backend: a pool of max 1): the bytes and the
 * records between the insert positions before and after, read from the WAL itself (pg_walinspect).
 * pg_stat_wal's counter was not used: a backend adds to it only when idle and at most once a second,
 * so a batch was charged records its neighbour wrote. WAL other backends write meanwhile
 * (autovacuum, the background writer) is counted too: run nothing else alongside.
 */
export async function walOf(admin: Sql, connection: Sql, run: () => Promise<void>): Promise<Wal> {
  // In the extensions schema, as Supabase keeps extensions (never public: the API would expose it).
  await admin`create extension if not exists pg_walinspect with schema extensions`;
  const position = async () => (await admin`select pg_current_wal_insert_lsn()::text as lsn`)[0].lsn as string;
  const before = await position();
  await run();
  const after = await position();
  // pg_walinspect reads only flushed WAL, and with synchronous_commit off the flush lags the inserts:
  // a message written with flush takes it past `after`.
  await admin`select pg_logical_emit_message(false, 'bench', '', true)`;
  const [row] = await admin`
    select pg_wal_lsn_diff(${after}::pg_lsn, ${before}::pg_lsn)::float8 as bytes,
           (select sum(count) from extensions.pg_get_wal_stats(${before}::pg_lsn, ${after}::pg_lsn))::float8 as records`;
  return { bytes: row.bytes, records: row.records };
}

export interface Locks {
  /** Every pg_locks row of the backend: relations, its transaction id, advisory locks, ... */
  held: number;
  relations: number;
  /** Relation locks outside the backend's 16 fast-path slots, in the shared lock table. */
  outsideFastPath: number;
}

/**
 * The locks `connection`'s backend holds right after `call`, inside its transaction (committed
 * afterwards), as another connection sees them in pg_locks. A backend keeps up to 16 weak relation
 * locks in fast-path slots of its own; past those, each lock goes through the shared lock table's
 * partition locks, which concurrent calls contend on.
 */
export async function locksDuring(admin: Sql, connection: Sql, call: (tx: TransactionSql) => Promise<unknown>): Promise<Locks> {
  return connection.begin(async (tx) => {
    const [{ pid }] = await tx`select pg_backend_pid() as pid`;
    await call(tx);
    const [locks] = await admin`
      select count(*)::int as held,
             count(*) filter (where locktype = 'relation')::int as relations,
             count(*) filter (where locktype = 'relation' and not fastpath)::int as "outsideFastPath"
      from pg_locks where pid = ${pid}`;
    return locks;
  }) as Promise<Locks>;
}
