// The plpgsql mutation harness: each mutation applied alone to a copy of the migrations, the copy
// migrated into a fresh database (a copy that does not apply is `invalid`), then the mutation's test
// files run by vitest against that database (CGS_MIGRATIONS_DIR, TEST_DATABASE_URL). `killed` only
// when vitest reported a failing test, `survived` only when it passed them all; anything else is an
// `error`. Each set of test files first runs on the unmutated copy: if it fails there, its mutants
// are not run (a kill would prove nothing).
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { freshMigratedDatabase, paths, withDatabase } from '../lib/database.ts';
import { cell, percent } from './doc.ts';
import type { SqlMutation } from './sql-mutations.ts';

export type Status = 'killed' | 'survived' | 'invalid' | 'not_found' | 'timeout' | 'error' | 'baseline_failed';

export interface MutationResult {
  mutation: SqlMutation;
  status: Status;
  /** 1-based line of the mutated text in its file, when found. */
  line?: number;
  /** The failing test (killed), the Postgres error (invalid), or what went wrong. */
  detail?: string;
  seconds: number;
}

export interface HarnessOptions {
  /** A Postgres superuser URL: each mutant gets databases of its own on that server. */
  adminUrl: string;
  /** The migrations to copy (supabase/migrations). */
  source: string;
  /** The vitest configuration the test files run under (the project's). */
  vitestConfig: string;
  /** A run longer than this is stopped and counted `timeout`. */
  timeoutMs: number;
  /** Mutants run at once (their databases differ; each vitest has its own workers). */
  parallel: number;
  log?: (line: string) => void;
}

/** The file's text with `m` applied, and the line it starts on; or why it cannot be applied. */
export function applyMutation(text: string, m: SqlMutation):
  { text: string; line: number } | { error: 'not_found' | 'ambiguous'; detail: string } {
  const starts: { index: number; length: number }[] = [];
  if (typeof m.find === 'string') {
    for (let at = text.indexOf(m.find); at >= 0; at = text.indexOf(m.find, at + 1)) starts.push({ index: at, length: m.find.length });
  } else {
    const global = new RegExp(m.find.source, m.find.flags.includes('g') ? m.find.flags : `${m.find.flags}g`);
    for (const match of text.matchAll(global)) starts.push({ index: match.index, length: match[0].length });
  }
  const what = typeof m.find === 'string' ? JSON.stringify(m.find) : String(m.find);
  if (starts.length === 0) return { error: 'not_found', detail: `${what} is not in ${m.file}` };
  if (m.occurrence === undefined && starts.length > 1) {
    return { error: 'ambiguous', detail: `${what} is in ${m.file} ${starts.length} times: say which (occurrence)` };
  }
  const chosen = starts[(m.occurrence ?? 1) - 1];
  if (!chosen) return { error: 'not_found', detail: `${what} is in ${m.file} ${starts.length} times, not ${m.occurrence}` };
  const replacement = typeof m.find === 'string' ? m.replace : text.slice(chosen.index, chosen.index + chosen.length).replace(new RegExp(m.find.source, m.find.flags.replace('g', '')), m.replace);
  return {
    text: text.slice(0, chosen.index) + replacement + text.slice(chosen.index + chosen.length),
    line: text.slice(0, chosen.index).split('\n').length,
  };
}

interface VitestJson {
  numFailedTests: number;
  numPassedTests: number;
  testResults: { name: string; status: string; message?: string; assertionResults: { fullName: string; status: string }[] }[];
}

/** What a vitest run says about a mutant: only a failing test kills it, only passing ones let it live. */
export function classify(exitCode: number | null, report: VitestJson | undefined): { status: 'killed' | 'survived' | 'error'; detail?: string } {
  if (!report) return { status: 'error', detail: `vitest exited ${exitCode} without a report (its global setup failed?)` };
  const failedTest = report.testResults.flatMap((file) => file.assertionResults).find((t) => t.status === 'failed');
  if (failedTest) return { status: 'killed', detail: failedTest.fullName };
  const failedFile = report.testResults.find((file) => file.status === 'failed');
  if (failedFile) return { status: 'killed', detail: `${failedFile.name.replace(paths.root, '')}: ${failedFile.message ?? 'failed'}`.slice(0, 200) };
  if (exitCode === 0 && report.numPassedTests > 0) return { status: 'survived' };
  return { status: 'error', detail: `vitest exited ${exitCode} with ${report.numPassedTests} passed, ${report.numFailedTests} failed` };
}

/** Runs `tests` with vitest against `url` (migrated from `migrations`). */
async function runTests(options: HarnessOptions, url: string, migrations: string, tests: string[], work: string):
  Promise<{ status: 'killed' | 'survived' | 'error' | 'timeout'; detail?: string }> {
  const reportFile = join(work, 'vitest.json');
  await rm(reportFile, { force: true });
  const child = spawn(`${paths.root}node_modules/.bin/vitest`,
    ['run', `--config=${options.vitestConfig}`, '--reporter=json', `--outputFile=${reportFile}`, '--bail=1', ...tests], {
      cwd: paths.root,
      env: { ...process.env, TEST_DATABASE_URL: url, CGS_MIGRATIONS_DIR: migrations },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-4000)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // Its own process group: vitest and its workers.
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
  }, options.timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode));
  }).finally(() => clearTimeout(timer));
  if (timedOut) return { status: 'timeout', detail: `no answer within ${options.timeoutMs / 1000} s` };
  const report = await readFile(reportFile, 'utf8').then((text) => JSON.parse(text) as VitestJson, () => undefined);
  const verdict = classify(code, report);
  if (verdict.status === 'error') verdict.detail = `${verdict.detail}: ${stderr.trim().split('\n').slice(-5).join(' / ')}`;
  return verdict;
}

/** One after the other: the emulated Supabase shape creates cluster-wide roles. */
let migrating = Promise.resolve();
function serially<T>(work: () => Promise<T>): Promise<T> {
  const run = migrating.then(work);
  migrating = run.then(() => undefined, () => undefined);
  return run;
}

async function dropDatabases(adminUrl: string, names: string[]): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    for (const name of names) await sql.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await sql.end();
  }
}

/** A copy of the migrations (mutated when `m` is given), migrated into a fresh database, and the tests run. */
async function trial(options: HarnessOptions, name: string, tests: string[], m?: SqlMutation):
  Promise<{ status: Status; line?: number; detail?: string }> {
  const work = await mkdtemp(join(tmpdir(), `cgs-${name}-`));
  const database = `${name.replace(/\W/g, '_')}_${process.pid}`;
  try {
    const migrations = join(work, 'migrations');
    await cp(options.source, migrations, { recursive: true });
    let line: number | undefined;
    if (m) {
      const file = join(migrations, m.file);
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) return { status: 'not_found', detail: `${m.file} is not in the migrations` };
      const mutated = applyMutation(text, m);
      if ('error' in mutated) return { status: 'not_found', detail: mutated.detail };
      await writeFile(file, mutated.text);
      line = mutated.line;
    }
    try {
      await serially(async () => {
        const before = process.env.CGS_MIGRATIONS_DIR;
        process.env.CGS_MIGRATIONS_DIR = migrations;
        try {
          await freshMigratedDatabase(options.adminUrl, database);
        } finally {
          if (before === undefined) delete process.env.CGS_MIGRATIONS_DIR;
          else process.env.CGS_MIGRATIONS_DIR = before;
        }
      });
    } catch (error) {
      return { status: 'invalid', line, detail: (error as Error).message.split('\n')[0] };
    }
    return { line, ...(await runTests(options, withDatabase(options.adminUrl, database), migrations, tests, work)) };
  } finally {
    await dropDatabases(options.adminUrl, [database, `${database}_legacy_grants`]).catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}

/** Runs `mutations`, `options.parallel` at a time, each set of test files first unmutated. */
export async function runMutations(options: HarnessOptions, mutations: SqlMutation[]): Promise<MutationResult[]> {
  const log = options.log ?? (() => {});
  const baselines = new Map<string, Promise<{ status: Status; detail?: string }>>();
  const baseline = (tests: string[]) => {
    const key = [...tests].sort().join(' ');
    if (!baselines.has(key)) {
      baselines.set(key, trial(options, `baseline-${baselines.size + 1}`, tests).then((result) => {
        log(`baseline ${key}: ${result.status === 'survived' ? 'passes' : `does not pass (${result.status}): ${result.detail ?? ''}`}`);
        return result;
      }));
    }
    return baselines.get(key)!;
  };
  const results: MutationResult[] = new Array(mutations.length);
  let next = 0;
  const worker = async () => {
    while (next < mutations.length) {
      const index = next++;
      const m = mutations[index];
      const base = await baseline(m.tests);
      const started = Date.now();
      const result: Omit<MutationResult, 'mutation' | 'seconds'> = base.status === 'survived'
        ? await trial(options, m.id, m.tests, m)
        : { status: 'baseline_failed', detail: `the tests do not pass without the mutation (${base.status}): ${base.detail ?? ''}` };
      results[index] = { mutation: m, ...result, seconds: Math.round((Date.now() - started) / 1000) };
      const loud = result.status === 'not_found' || result.status === 'error' || result.status === 'baseline_failed';
      log(`${loud ? '!! ' : ''}${m.id} ${result.status}${result.detail ? `: ${result.detail}` : ''} (${results[index].seconds} s)`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel) }, worker));
  return results;
}

const detected = (s: Status) => s === 'killed' || s === 'timeout';

/** The markdown of the SQL section: a row per area, then every mutant that was not killed. */
export function sqlMarkdown(results: MutationResult[], ranAt: Date, scope?: string): string {
  const areas = [...new Set(results.map((r) => r.mutation.id.replace(/-\d+$/, '')))];
  const count = (rs: MutationResult[], ...statuses: Status[]) => rs.filter((r) => statuses.includes(r.status)).length;
  const row = (name: string, rs: MutationResult[]) => {
    const killed = count(rs, 'killed', 'timeout');
    const survived = count(rs, 'survived');
    return `| ${name} | ${killed} | ${survived} | ${count(rs, 'invalid')} | ${count(rs, 'not_found', 'error', 'baseline_failed')} | ${percent(killed, killed + survived)} |`;
  };
  const open = results.filter((r) => !detected(r.status));
  const killedTotal = count(results, 'killed', 'timeout');
  return [
    `Run ${ranAt.toISOString().slice(0, 16).replace('T', ' ')} UTC${scope ? `, only ${scope}` : ''}: ` +
      `${killedTotal} of ${killedTotal + count(results, 'survived')} valid mutants killed.`,
    '',
    '| Area | Killed | Survived | Invalid | Not run | Score |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...areas.map((area) => row(area, results.filter((r) => r.mutation.id.replace(/-\d+$/, '') === area))),
    row('**All**', results),
    '',
    open.length ? 'Not killed:' : 'Every mutant killed.',
    '',
    ...open.map((r) =>
      `- ${r.mutation.id} **${r.status.replace('_', ' ')}** \`${r.mutation.file}${r.line ? `:${r.line}` : ''}\`: ` +
      `${r.mutation.description} (\`${cell(String(r.mutation.find))}\` → \`${cell(r.mutation.replace) || '(removed)'}\`)` +
      `${r.detail && r.status !== 'survived' ? `: ${cell(r.detail)}` : ''}`),
    '',
    'Killed, and the test that failed first:',
    '',
    ...results.filter((r) => detected(r.status)).map((r) => `- ${r.mutation.id} (${r.mutation.description}): ${cell(r.detail ?? '')}`),
  ].join('\n');
}
