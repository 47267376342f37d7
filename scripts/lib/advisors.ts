// Supabase's own database advisors (the real CLI from the `supabase` npm package), run against
// any Postgres URL: `supabase db advisors --remote=<url> --type all`.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { paths } from './database.ts';

export interface Finding {
  name: string;
  level: 'ERROR' | 'WARN' | 'INFO';
  detail: string;
  remediation?: string;
}

export async function runAdvisors(url: string): Promise<Finding[]> {
  const { stdout } = await promisify(execFile)(
    `${paths.root}node_modules/.bin/supabase`,
    ['db', 'advisors', `--remote=${url}`, '--type', 'all', '--level', 'info', '--output-format', 'json', '--agent', 'no'],
    // The embedded database speaks plain TCP on loopback; keep the CLI from asking for TLS.
    { cwd: paths.root, env: { ...process.env, PGSSLMODE: process.env.PGSSLMODE ?? 'disable' }, maxBuffer: 16 << 20 },
  );
  // The CLI exits 0 even when it could not query the lints: no `results` array means it failed.
  const parsed = JSON.parse(stdout) as { results?: Finding[] };
  if (!Array.isArray(parsed.results)) throw new Error(`supabase db advisors gave no results: ${stdout.slice(0, 500)}`);
  return parsed.results;
}

/** Findings that fail the build: everything but INFO. */
export const blocking = (findings: Finding[]) => findings.filter((f) => f.level !== 'INFO');
