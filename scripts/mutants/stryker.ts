// `npm run mutants [-- --mutate <glob>[,<glob>...]] [--testFiles <glob>[,<glob>...]] [--ignoreStatic]
// [--concurrency <n>] [--logLevel <level>]`: StrykerJS over supabase/functions (stryker.config.mjs),
// then the Stryker section of docs/mutation-testing.md. Whole files (a full run, or --mutate globs)
// replace those files' results in scripts/mutants/stryker-results.json, from which the section is
// written; a line range (--mutate file.ts:20-30) only prints its result. --testFiles runs only those
// test files, in the initial run and so for every mutant (the area's tests, rather than every test
// that imports the file, which for a route is most of the API's): a mutant they do not reach is
// reported as not covered. --ignoreStatic leaves out the mutants of code that runs outside any test
// (each would run every test); the doc counts them as not run.
//
// Stryker's API is loaded by path: the package exports only its command line's entry.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { paths } from '../lib/database.ts';
import { mutationDoc, writeSection } from './doc.ts';
import { fileResults, type Results, type StrykerReport, strykerMarkdown } from './stryker-report.ts';

const { values } = parseArgs({
  options: {
    mutate: { type: 'string', short: 'm', multiple: true },
    testFiles: { type: 'string', multiple: true },
    ignoreStatic: { type: 'boolean' },
    concurrency: { type: 'string' },
    logLevel: { type: 'string' },
  },
});
const mutate = values.mutate?.flatMap((glob) => glob.split(',')).filter(Boolean);
const partial = mutate?.some((glob) => /:\d/.test(glob));
const testFiles = values.testFiles?.flatMap((glob) => glob.split(',')).filter(Boolean);

const { Stryker } = await import(`${paths.root}node_modules/@stryker-mutator/core/dist/src/stryker.js`) as {
  Stryker: new (options: Record<string, unknown>) => { runMutationTest(): Promise<unknown> };
};
// A scope keeps the configuration's exclusions (generated types, the Deno entry points).
const config = (await import(`${paths.root}stryker.config.mjs`)).default as { mutate: string[] };
const excluded = config.mutate.filter((glob) => glob.startsWith('!'));
process.chdir(paths.root);
try {
  await new Stryker({
    configFile: 'stryker.config.mjs',
    ...(mutate && { mutate: [...mutate, ...excluded] }),
    ...(testFiles && { testFiles }),
    ...(values.ignoreStatic && { ignoreStatic: true }),
    ...(values.concurrency && { concurrency: Number(values.concurrency) }),
    ...(values.logLevel && { logLevel: values.logLevel }),
  }).runMutationTest();
} catch (error) {
  console.error(error);
  console.error(`Stryker failed: ${mutationDoc} left as it was`);
  process.exit(1);
}

const report = JSON.parse(await readFile(`${paths.root}reports/mutation/mutation.json`, 'utf8')) as StrykerReport;
const latest = fileResults(report, new Date(), testFiles);
if (partial) {
  console.log(`\n${strykerMarkdown(latest)}\n\nPart of a file (${mutate!.join(', ')}): ${mutationDoc} left as it was`);
} else {
  const store = `${paths.root}scripts/mutants/stryker-results.json`;
  const kept: Results = mutate && existsSync(store) ? JSON.parse(await readFile(store, 'utf8')) : {};
  // Files that are gone from the project leave the table.
  const results = Object.fromEntries(Object.entries({ ...kept, ...latest }).filter(([file]) => existsSync(`${paths.root}${file}`)));
  await writeFile(store, `${JSON.stringify(results, null, 2)}\n`);
  await writeSection('stryker', strykerMarkdown(results));
  console.log(`Wrote ${Object.keys(latest).length} file(s) into the Stryker section of ${mutationDoc}`);
}
