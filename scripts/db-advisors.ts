// npm run db:advisors: migrates a database (DATABASE_URL, or a throwaway embedded one) and runs
// Supabase's advisors on it; exits non-zero on any ERROR or WARN finding.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blocking, runAdvisors } from './lib/advisors.ts';
import { prepareDatabase } from './lib/database.ts';
import { startEmbeddedPostgres } from './lib/embedded-postgres.ts';

const embedded = process.env.DATABASE_URL
  ? undefined
  : await startEmbeddedPostgres({ dir: join(tmpdir(), `cgs-advisors-${process.pid}-${Date.now()}`), port: 0, persistent: false, fast: true });
const url = process.env.DATABASE_URL ?? embedded!.url;
try {
  await prepareDatabase(url);
  const findings = await runAdvisors(url);
  for (const f of findings) console.log(`${f.level.padEnd(5)} ${f.name}: ${f.detail}`);
  const failing = blocking(findings);
  console.log(`${failing.length} ERROR/WARN finding(s), ${findings.length - failing.length} INFO`);
  process.exitCode = failing.length ? 1 : 0;
} finally {
  await embedded?.stop();
}
