// npm run db:advisors: migrates a database (DATABASE_URL, or a throwaway embedded one) and runs
// Supabase's advisors on it; exits non-zero on any ERROR or WARN finding.
import { blocking, runAdvisors } from './lib/advisors.ts';
import { withMigratedDatabase } from './lib/target.ts';

const findings = await withMigratedDatabase('advisors', runAdvisors);
for (const f of findings) console.log(`${f.level.padEnd(5)} ${f.name}: ${f.detail}`);
const failing = blocking(findings);
console.log(`${failing.length} ERROR/WARN finding(s), ${findings.length - failing.length} INFO`);
process.exitCode = failing.length ? 1 : 0;
