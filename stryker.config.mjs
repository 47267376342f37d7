// StrykerJS over the Edge Functions' TypeScript: `npm run mutants` (scripts/mutants/stryker.ts), on
// demand, never in CI. docs/mutation-testing.md explains the report and the rule for survivors.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'supabase/functions/**/*.ts',
    // Generated from the OpenAPI document: nothing in it is behaviour.
    '!supabase/functions/**/api.types.ts',
    // The entry points only read the environment and call Deno.serve; they run under Deno alone,
    // where Stryker sees no coverage (see the excluded tests in scripts/mutants/vitest.config.ts).
    '!supabase/functions/*/index.ts',
    // What the entry points start with (Deno.env, Deno.serve): the same, for the same reason.
    '!supabase/functions/_shared/boot.ts',
  ],
  testRunner: 'vitest',
  vitest: { configFile: 'scripts/mutants/vitest.config.ts' },
  // Each mutant runs only the tests that reached it in the dry run.
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  tsconfigFile: 'scripts/mutants/tsconfig.json',
  // Vitest strips types without checking them; Deno is not involved (see above).
  disableTypeChecks: 'supabase/functions/**/*.ts',
  // Two cores: one test runner (one vitest, one throwaway Postgres) and one checker.
  concurrency: 1,
  // The tests wait on Postgres: a mutant that makes one hang is stopped at this much over its
  // dry-run time, and counted as detected (timeout).
  timeoutMS: 30_000,
  ignorePatterns: ['dist', '.tmp', '.data', 'reports', 'portal/.vitepress/dist', 'portal/.vitepress/cache'],
  tempDirName: '.stryker-tmp',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  // The score the doc's rule asks for is 90 in money, wallet, webhook, URL and compliance code, and
  // every survivor explained: the run does not fail on a number, the review of survivors does.
  thresholds: { high: 90, low: 80, break: null },
};
