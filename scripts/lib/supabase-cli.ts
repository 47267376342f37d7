// The real Supabase CLI from the `supabase` npm package, pointed at any Postgres URL.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { paths } from './database.ts';

/** Runs `supabase <args>` and returns what it printed on stdout. */
export async function supabaseCli(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(`${paths.root}node_modules/.bin/supabase`, [...args, '--agent', 'no'], {
    cwd: paths.root,
    // The embedded database speaks plain TCP on loopback; keep the CLI from asking for TLS.
    env: { ...process.env, PGSSLMODE: process.env.PGSSLMODE ?? 'disable' },
    maxBuffer: 16 << 20,
  });
  return stdout;
}
