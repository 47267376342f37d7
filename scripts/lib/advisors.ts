// Supabase's own database advisors (the real CLI from the `supabase` npm package), run against
// any Postgres URL: `supabase db advisors --remote=<url> --type all`.
import { supabaseCli } from './supabase-cli.ts';

export interface Finding {
  name: string;
  level: 'ERROR' | 'WARN' | 'INFO';
  detail: string;
  remediation?: string;
}

export async function runAdvisors(url: string): Promise<Finding[]> {
  const stdout = await supabaseCli(
    ['db', 'advisors', `--remote=${url}`, '--type', 'all', '--level', 'info', '--output-format', 'json'],
  );
  // The CLI exits 0 even when it could not query the lints: no `results` array means it failed.
  const parsed = JSON.parse(stdout) as { results?: Finding[] };
  if (!Array.isArray(parsed.results)) throw new Error(`supabase db advisors gave no results: ${stdout.slice(0, 500)}`);
  return parsed.results;
}

/** Findings that fail the build: everything but INFO. */
export const blocking = (findings: Finding[]) => findings.filter((f) => f.level !== 'INFO');
