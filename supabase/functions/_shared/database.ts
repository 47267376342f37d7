// The endpoint's connection pool (postgres.js), set up to work behind Supabase's transaction
// pooler, and the line between "the database is unreachable" (503) and a bug (500).
import postgres from 'postgres';

export type Sql = postgres.Sql;

export interface DatabaseOptions {
  /** Pool size; an Edge Function instance serves few requests at once. */
  max?: number;
  connectTimeoutSeconds?: number;
  statementTimeoutMs?: number;
}

export function connectDatabase(url: string, options: DatabaseOptions = {}): Sql {
  return postgres(url, {
    // The transaction pooler cannot keep prepared statements across transactions.
    prepare: false,
    max: options.max ?? 10,
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    idle_timeout: 20,
    max_lifetime: 30 * 60,
    connection: {
      application_name: 'cgs-v3',
      statement_timeout: options.statementTimeoutMs ?? 5_000,
    },
    onnotice: () => {},
  });
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
