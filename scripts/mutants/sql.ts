// `npm run mutants:sql [-- --only rounds-3,ledger-1] [--parallel 1] [--timeout 300]`: the plpgsql
// mutations of scripts/mutants/sql-mutations.ts, one at a time in a copy of supabase/migrations (the
// files themselves are never touched), each against its area's test files, on a throwaway Postgres of
// its own. The full list writes the SQL section of docs/mutation-testing.md; --only prints it. Exits
// non-zero when a mutation's text is no longer found, or a run went wrong: the list needs updating.
import { parseArgs } from 'node:util';
import { paths } from '../lib/database.ts';
import { startThrowawayPostgres } from '../lib/embedded-postgres.ts';
import { mutationDoc, writeSection } from './doc.ts';
import { runMutations, sqlMarkdown } from './sql-harness.ts';
import { sqlMutations } from './sql-mutations.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', multiple: true },
    parallel: { type: 'string', default: '1' },
    timeout: { type: 'string', default: '300' },
  },
});
const only = values.only?.flatMap((ids) => ids.split(',')).filter(Boolean);
const unknown = only?.filter((id) => !sqlMutations.some((m) => m.id === id)) ?? [];
if (unknown.length) {
  console.error(`No mutation ${unknown.join(', ')} in scripts/mutants/sql-mutations.ts`);
  process.exit(2);
}
const chosen = only ? sqlMutations.filter((m) => only.includes(m.id)) : sqlMutations;

const pg = await startThrowawayPostgres('mutants');
let failed = false;
try {
  console.log(`${chosen.length} mutation(s) of ${paths.migrations}, ${values.parallel} at a time`);
  const results = await runMutations({
    adminUrl: pg.url,
    source: paths.migrations,
    vitestConfig: `${paths.root}vitest.config.ts`,
    timeoutMs: Number(values.timeout) * 1000,
    parallel: Number(values.parallel),
    log: (line) => console.log(line),
  }, chosen);
  const markdown = sqlMarkdown(results, new Date(), only?.join(', '));
  if (only) {
    console.log(`\n${markdown}\n\nOnly ${only.join(', ')}: ${mutationDoc} left as it was`);
  } else {
    await writeSection('sql', markdown);
    console.log(`\nWrote the SQL section of ${mutationDoc}`);
  }
  const broken = results.filter((r) => ['not_found', 'error', 'baseline_failed'].includes(r.status));
  if (broken.length) {
    failed = true;
    console.error(`\n${broken.length} mutation(s) could not be judged: ${broken.map((r) => `${r.mutation.id} (${r.status})`).join(', ')}`);
  }
} finally {
  await pg.stop();
}
process.exit(failed ? 1 : 0);
