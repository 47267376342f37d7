// What both Edge Functions start with, written once: the environment, the database pool from it,
// where logs go, and serving (on PORT locally; hosted, Supabase's Edge Runtime picks the port).
// A setting that is not what it must be stops the start-up here, naming it.
import { connectDatabase, databaseOptionsFromEnv, type Sql } from './database.ts';
import { type Env, positiveSetting } from './settings.ts';

export interface Boot {
  env: Env;
  sql: Sql;
  /** Where a function's logs go; `details` is already what may be logged (loggableError). */
  log: (message: string, details: unknown) => void;
}

/** The environment (an empty variable counts as unset) and the pool on SUPABASE_DB_URL or DATABASE_URL. */
export function boot(): Boot {
  const env: Env = (name) => Deno.env.get(name) || undefined;
  const databaseUrl = env('SUPABASE_DB_URL') ?? env('DATABASE_URL');
  if (!databaseUrl) throw new Error('SUPABASE_DB_URL (or DATABASE_URL) is not set');
  return { env, sql: connectDatabase(databaseUrl, databaseOptionsFromEnv(env)), log: (message, details) => console.error(message, details) };
}

/** Serves `handler`: on PORT and HOST (default 127.0.0.1) when PORT is set, as `npm start` does. */
export function serve(name: string, env: Env, handler: (request: Request) => Response | Promise<Response>): void {
  // Set locally only (0 = not set): Supabase's Edge Runtime serves the function on its own port.
  const port = positiveSetting(env, 'PORT', { fallback: 0, integer: true, max: 65_535 });
  Deno.serve(
    port
      ? { port, hostname: env('HOST') ?? '127.0.0.1', onListen: ({ hostname, port }) => console.log(`${name} listening on http://${hostname}:${port}/`) }
      : {},
    handler,
  );
}
