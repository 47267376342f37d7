// The endpoint's connection pool (postgres.js), set up to work behind Supabase's transaction
// pooler and bounded in time, and the line between "the database is unreachable" (503) and a bug (500).
// A call that fails for want of the database says whether its statement may have run: a write
// whose answer was lost may have committed, and the caller must be told so, not "nothing was written".
//
// Each call is a transaction of its own: `begin; set local ...`, the statement, `commit`. A
// transaction pooler (PgBouncer, Supavisor) refuses settings sent at start-up and hands the server
// connection to another client between transactions, so nothing may be set for the session: what a
// call needs is set for its transaction, and ends with it.
import postgres from 'postgres';
import { booleanSetting, type Env, positiveSetting } from './settings.ts';

export type Sql = postgres.Sql;

export interface DatabaseOptions {
  /** Pool size: never more connections than this, however many requests arrive at once. */
  max?: number;
  /** How long opening a connection may take (TCP, TLS, start-up), in seconds. */
  connectTimeoutSeconds?: number;
  /**
   * How long one statement may run before Postgres cancels it, in milliseconds; also how long its
   * transaction may wait idle for its commit (a client lost between the two leaves no locks held).
   */
  statementTimeoutMs?: number;
  /**
   * How long one call may take from the caller's side, in milliseconds: waiting for a connection,
   * connecting and running. Postgres's statement_timeout cannot fire on a database that stopped
   * answering; past this the call fails and its connection is discarded, never handed out again
   * while it may still be busy.
   */
  queryDeadlineMs?: number;
  /** Names the pool's connections in pg_stat_activity. */
  applicationName?: string;
  /**
   * Prepared statements, kept per connection: each statement then takes one round trip instead of
   * two (postgres.js describes an unprepared statement with parameters before running it). Only on
   * a direct connection or a session-mode pooler: Supabase's transaction pooler (port 6543) cannot
   * keep them across transactions.
   */
  prepare?: boolean;
}

export const databaseDefaults = {
  // An Edge Function instance serves few requests at once.
  max: 10,
  connectTimeoutSeconds: 5,
  statementTimeoutMs: 5_000,
  // Above statement_timeout, so that a slow statement is cancelled by Postgres (nothing written)
  // before the deadline leaves its outcome unknown.
  queryDeadlineMs: 6_000,
  applicationName: 'cgs-v3',
  prepare: false,
} as const satisfies Required<DatabaseOptions>;

/**
 * Longest pause before reconnecting after failed attempts, in seconds. postgres.js's own backoff
 * grows to 20 s during an outage, and every request waiting for a connection waits it out: a
 * request's 503 would come late and recovery after the outage would lag by as much.
 */
export const reconnectBackoffCapSeconds = 0.5;

/**
 * Instants as postgres.js sends and reads them, but for one thing: a string goes to Postgres as it
 * is. postgres.js makes every timestamp parameter a JS Date first, which keeps milliseconds, and a
 * keyset cursor such as "2026-11-25T10:00:00.123456Z" then lost its microseconds: a page skipped
 * the rows of that millisecond before the cursor's instant.
 */
const microsecondInstants = {
  to: 1184,
  from: [1082, 1114, 1184],
  serialize: (value: unknown) => (value instanceof Date ? value.toISOString() : String(value)),
  parse: (value: string) => new Date(value),
};

/**
 * The pool: up to `max` connections, each a postgres.js client of its own so that one whose call
 * ran past the deadline can be destroyed alone. Calls wait in order for a free one. Served: the
 * tagged call, `json` and `end`.
 */
export function connectDatabase(url: string, options: DatabaseOptions = {}): Sql {
  const settings = { ...databaseDefaults, ...options };
  const connection = () =>
    postgres(url, {
      prepare: settings.prepare,
      max: 1,
      connect_timeout: settings.connectTimeoutSeconds,
      idle_timeout: 20,
      max_lifetime: 30 * 60,
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, reconnectBackoffCapSeconds) * (0.5 + Math.random() / 2),
      // application_name is one of the few start-up parameters a transaction pooler passes on.
      connection: { application_name: settings.applicationName },
      types: { date: microsecondInstants },
      onnotice: () => {},
    });
  // One simple query, sent with the statement (pipelined): it costs no round trip of its own.
  const opening = `begin; set local statement_timeout = ${Math.trunc(settings.statementTimeoutMs)}; `
    + `set local idle_in_transaction_session_timeout = ${Math.trunc(settings.statementTimeoutMs)}`;
  const helpers = connection(); // json() and the like; it never connects
  const idle: Sql[] = [];
  // Calls waiting for a connection; given none when the pool ends.
  const waiting: ((connection?: Sql) => void)[] = [];
  const live = new Set<Sql>();
  let ending = false;

  const acquire = (use: (connection?: Sql) => void) => {
    if (idle.length) return use(idle.pop()!);
    if (live.size < settings.max) return use(opened());
    waiting.push(use);
  };
  const opened = () => {
    const fresh = connection();
    live.add(fresh);
    return fresh;
  };
  const release = (done: Sql) => (waiting.length ? waiting.shift()!(done) : idle.push(done));
  const discard = (stuck: Sql) => {
    live.delete(stuck);
    stuck.end({ timeout: 0 }).catch(() => {});
    if (waiting.length) waiting.shift()!(opened());
  };

  const ended = () => new DatabaseUnavailable(false, Object.assign(new Error('the pool has ended'), { code: 'CONNECTION_ENDED' }));
  const call = (strings: TemplateStringsArray, ...args: unknown[]) =>
    new Promise((resolve, reject) => {
      if (ending) return reject(ended());
      let held: Sql | undefined;
      // Only a commit that reached the database can have written anything: a transaction cut off
      // before it is rolled back.
      let commit: postgres.PendingQuery<postgres.Row[]> | undefined;
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        const sent = statementSent(commit);
        if (held) discard(held);
        else waiting.splice(waiting.indexOf(use), 1);
        reject(new DatabaseUnavailable(sent, Object.assign(new Error('no answer within the query deadline'), { code: 'QUERY_DEADLINE' })));
      }, settings.queryDeadlineMs);
      const use = (connection?: Sql) => {
        if (!connection) {
          clearTimeout(timer);
          return reject(ended());
        }
        held = connection;
        // Queued in this order on the connection; after a failed statement, `commit` rolls back.
        const begun = connection.unsafe(opening);
        const query = connection(strings, ...(args as never[]));
        commit = connection.unsafe('commit');
        Promise.allSettled([begun, query, commit]).then((settled) => {
          if (late) return;
          clearTimeout(timer);
          const failed = settled.find((each) => each.status === 'rejected');
          if (!failed) {
            release(connection);
            return resolve((settled[1] as PromiseFulfilledResult<postgres.Row[]>).value);
          }
          const error: unknown = failed.reason;
          // A connection that failed is not trusted again (postgres.js can keep the failed call
          // on it, or hand its error to the next): a fresh one takes its place.
          const lost = isDatabaseUnavailable(error) && !statementFailed(error);
          if (lost) discard(connection);
          else release(connection);
          reject(isDatabaseUnavailable(error) ? new DatabaseUnavailable(lost && statementSent(commit), error) : error);
        });
      };
      acquire(use);
    });

  return new Proxy(helpers, {
    apply: (_, __, [strings, ...args]) => call(strings, ...args),
    get: (target, property, receiver) =>
      property === 'end'
        ? async (endOptions?: { timeout?: number }) => {
          ending = true;
          waiting.splice(0).forEach((use) => use());
          await Promise.all([...live, helpers].map((each) => each.end(endOptions)));
        }
        : Reflect.get(target, property, receiver),
  });
}

/**
 * Whether postgres.js handed the query to a connected connection to write: it sets the query's
 * `state` (its connection's backend key) then, and never before. A query that failed before has not
 * reached the database. It hands over a call's commit once the statement was answered.
 */
function statementSent(query: unknown): boolean {
  return ((query as { state?: unknown } | undefined)?.state ?? null) !== null;
}

/**
 * An error Postgres answered for the statement (severity ERROR, such as a statement timeout): the
 * statement's transaction was rolled back. A FATAL error ends the connection instead, and may
 * arrive after a commit.
 */
function statementFailed(error: unknown): boolean {
  return error instanceof postgres.PostgresError && error.severity === 'ERROR';
}

/**
 * Whether a failure for want of the database may have left its statement run: known for a call of
 * connectDatabase's pool; for any other (a bare postgres.js client), assumed unless Postgres
 * answered the statement with an error.
 */
export function mayHaveRun(error: unknown): boolean {
  return error instanceof DatabaseUnavailable ? error.mayHaveRun : !statementFailed(error);
}

/**
 * A call that failed for want of the database: it could not be reached, ended the connection, or
 * gave no answer within the deadline. `mayHaveRun`: its commit reached the database and its
 * fate is unknown (it may have committed); false when it is known not to have run.
 */
export class DatabaseUnavailable extends Error {
  override readonly name = 'DatabaseUnavailable';
  readonly code: string;

  constructor(readonly mayHaveRun: boolean, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.code = String((cause as { code?: unknown } | null)?.code ?? 'UNAVAILABLE');
  }
}

/**
 * The largest values the settings accept. postgres.js allocates every connection slot up front, so
 * a huge pool is memory gone at start-up; it times a connect with setTimeout, which wraps past about
 * 24 days; Postgres refuses a statement_timeout above 2^31 - 1 ms on every connection.
 */
export const settingLimits = {
  poolMax: 1000, connectTimeoutSeconds: 600, statementTimeoutMs: 2 ** 31 - 1, queryDeadlineMs: 2 ** 31 - 1,
} as const;

/**
 * The pool's bounds from the environment (DB_POOL_MAX, DB_CONNECT_TIMEOUT_S, DB_STATEMENT_TIMEOUT_MS,
 * DB_QUERY_DEADLINE_MS);
 * a value that is not a positive number within settingLimits stops the start-up instead of failing
 * every connection or silently meaning "no limit". DB_PREPARE (`true` or `false`, default false) turns
 * prepared statements on, for a direct connection only.
 */
export function databaseOptionsFromEnv(env: Env): Required<Omit<DatabaseOptions, 'applicationName'>> {
  return {
    max: positiveSetting(env, 'DB_POOL_MAX', { fallback: databaseDefaults.max, integer: true, max: settingLimits.poolMax }),
    connectTimeoutSeconds: positiveSetting(env, 'DB_CONNECT_TIMEOUT_S', {
      fallback: databaseDefaults.connectTimeoutSeconds, max: settingLimits.connectTimeoutSeconds,
    }),
    statementTimeoutMs: positiveSetting(env, 'DB_STATEMENT_TIMEOUT_MS', {
      fallback: databaseDefaults.statementTimeoutMs, integer: true, max: settingLimits.statementTimeoutMs,
    }),
    queryDeadlineMs: positiveSetting(env, 'DB_QUERY_DEADLINE_MS', {
      fallback: databaseDefaults.queryDeadlineMs, integer: true, max: settingLimits.queryDeadlineMs,
    }),
    prepare: booleanSetting(env, 'DB_PREPARE', databaseDefaults.prepare),
  };
}

/**
 * DATABASE_READ_URL: a replica (or its pooler) for the reads that may lag; unset, they go to the
 * primary. Anything but a postgres:// or postgresql:// URL with a host stops the start-up.
 */
export function readDatabaseUrlFromEnv(env: Env): string | undefined {
  const value = env('DATABASE_READ_URL');
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['postgres:', 'postgresql:'].includes(url.protocol) || !url.hostname) {
    throw new Error('DATABASE_READ_URL must be a postgres:// or postgresql:// URL');
  }
  return value;
}

const unreachable = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE',
  'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED',
]);

/**
 * True when a request failed because the database could not serve it (down, restarting, out of
 * connections, too slow) rather than because of what was asked: the caller may retry later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  return error instanceof DatabaseUnavailable
    || unreachable.has(code)
    || code.startsWith('08') // connection exception
    || code.startsWith('53') // insufficient resources (too many connections, out of memory)
    || ['57P01', '57P02', '57P03', '57014'].includes(code) // shutdown, cannot connect now, timeout
    || ['40001', '40P01'].includes(code); // rolled back for concurrent transactions, even when run again
}

/**
 * What of a failure goes to the log: its kind, code and message (and a bug's stack). Never the
 * statement's parameters, which carry the API key's hash, nor anything from the request.
 */
export function loggableError(error: unknown): Record<string, string> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return {
    name: error.name,
    ...(code !== undefined ? { code: String(code) } : {}),
    ...(severity !== undefined ? { severity: String(severity) } : {}),
    message: error.message,
    ...(isDatabaseUnavailable(error) ? {} : { stack: error.stack ?? '' }),
  };
}

/** How many times a call rolled back by a concurrent one is run again before it fails. */
const CONFLICT_RERUNS = 5;

/**
 * Runs an engine call again when Postgres rolled its transaction back for a concurrent one
 * (serialization_failure: the balance moved between the engine's read and its movement; or
 * deadlock_detected): nothing of it was written, and run again it reads the balance as it is.
 */
export async function rerunConflicts<R>(call: () => Promise<R>, reruns = CONFLICT_RERUNS): Promise<R> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (attempt >= reruns || (code !== '40001' && code !== '40P01')) throw error;
    }
  }
}
