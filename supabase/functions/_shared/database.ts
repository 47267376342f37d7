// The endpoint's connection pool (postgres.js), set up to work behind Supabase's transaction
// pooler and bounded in time, and the line between "the database is unreachable" (503) and a bug (500).
import postgres from 'postgres';
import { booleanSetting, type Env, positiveSetting } from './settings.ts';

export type Sql = postgres.Sql;

export interface DatabaseOptions {
  /** Pool size: never more connections than this, however many requests arrive at once. */
  max?: number;
  /** How long opening a connection may take (TCP, TLS, start-up), in seconds. */
  connectTimeoutSeconds?: number;
  /** How long one statement may run before Postgres cancels it, in milliseconds. */
  statementTimeoutMs?: number;
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
  applicationName: 'cgs-v3',
  prepare: false,
} as const satisfies Required<DatabaseOptions>;

/**
 * Longest pause before reconnecting after failed attempts, in seconds. postgres.js's own backoff
 * grows to 20 s during an outage, and every request waiting for a connection waits it out: a
 * request's 503 would come late and recovery after the outage would lag by as much.
 */
export const reconnectBackoffCapSeconds = 0.5;

export function connectDatabase(url: string, options: DatabaseOptions = {}): Sql {
  const settings = { ...databaseDefaults, ...options };
  return postgres(url, {
    prepare: settings.prepare,
    max: settings.max,
    connect_timeout: settings.connectTimeoutSeconds,
    idle_timeout: 20,
    max_lifetime: 30 * 60,
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, reconnectBackoffCapSeconds) * (0.5 + Math.random() / 2),
    connection: {
      application_name: settings.applicationName,
      statement_timeout: settings.statementTimeoutMs,
    },
    onnotice: () => {},
  });
}

/**
 * The largest values the settings accept. postgres.js allocates every connection slot up front, so
 * a huge pool is memory gone at start-up; it times a connect with setTimeout, which wraps past about
 * 24 days; Postgres refuses a statement_timeout above 2^31 - 1 ms on every connection.
 */
export const settingLimits = { poolMax: 1000, connectTimeoutSeconds: 600, statementTimeoutMs: 2 ** 31 - 1 } as const;

/**
 * The pool's bounds from the environment (DB_POOL_MAX, DB_CONNECT_TIMEOUT_S, DB_STATEMENT_TIMEOUT_MS);
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
    prepare: booleanSetting(env, 'DB_PREPARE', databaseDefaults.prepare),
  };
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
  return unreachable.has(code)
    || code.startsWith('08') // connection exception
    || code.startsWith('53') // insufficient resources (too many connections, out of memory)
    || ['57P01', '57P02', '57P03', '57014'].includes(code); // shutdown, cannot connect now, timeout
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
