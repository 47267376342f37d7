// The SQL mutation harness (npm run mutants:sql) reports what vitest saw: a mutation a test catches is
// `killed`, an equivalent one `survived`, one that does not apply `invalid`, and text that is no
// longer in the file `not_found`, loudly. Proven on a scratch migration and its own check file, then
// the real list is checked against today's migrations.
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, inject, it } from 'vitest';
import { paths } from '../../scripts/lib/database.ts';
import { applyMutation, classify, runMutations, sqlMarkdown } from '../../scripts/mutants/sql-harness.ts';
import { type SqlMutation, sqlMutations } from '../../scripts/mutants/sql-mutations.ts';

const fixtures = new URL('./fixtures/', import.meta.url).pathname;
const scratch = (id: string, find: string, replace: string): SqlMutation => ({
  id, file: '20260101000000_scratch.sql', find, replace, tests: ['tests/mutants/fixtures/scratch.check.ts'], description: id,
});

describe('the harness on a scratch migration', () => {
  it('reports killed only for a failing test, survived for an equivalent change, invalid and not found without running', async () => {
    const lines: string[] = [];
    const results = await runMutations({
      adminUrl: inject('databaseUrl'),
      source: `${fixtures}migrations`,
      vitestConfig: `${fixtures}vitest.config.ts`,
      timeoutMs: 120_000,
      parallel: 1,
      log: (line) => lines.push(line),
    }, [
      scratch('scratch-1', 'least(stake, stake_limit)', 'greatest(stake, stake_limit)'),
      scratch('scratch-2', 'least(stake, stake_limit)', 'least(stake_limit, stake)'),
      scratch('scratch-3', 'least(stake, stake_limit)', 'leest(stake, stake_limit)'),
      scratch('scratch-4', 'greatest(stake, stake_limit)', 'least(stake, stake_limit)'),
    ]);
    expect(results.map((r) => [r.mutation.id, r.status])).toEqual([
      ['scratch-1', 'killed'], ['scratch-2', 'survived'], ['scratch-3', 'invalid'], ['scratch-4', 'not_found'],
    ]);
    expect(results[0].detail).toBe('a stake above the limit is cut to the limit');
    expect(results[2].detail).toMatch(/leest/);
    expect(results[0].line).toBe(10);
    expect(lines).toContain('baseline tests/mutants/fixtures/scratch.check.ts: passes');
    expect(lines.some((line) => line.startsWith('!! scratch-4 not_found'))).toBe(true);
    const markdown = sqlMarkdown(results, new Date(0));
    expect(markdown).toContain('| scratch | 1 | 1 | 1 | 1 | 50.0 % |');
    expect(markdown).toContain('- scratch-2 **survived** `20260101000000_scratch.sql:10`');
  });

  it('does not run the mutants of tests that fail without any mutation, or of test files that are missing', async () => {
    const [broken, absent] = await runMutations({
      adminUrl: inject('databaseUrl'),
      source: `${fixtures}migrations`,
      vitestConfig: `${fixtures}vitest.config.ts`,
      timeoutMs: 120_000,
      parallel: 1,
    }, [
      { ...scratch('scratch-5', 'least(stake, stake_limit)', 'greatest(stake, stake_limit)'), tests: ['tests/mutants/fixtures/broken.check.ts'] },
      { ...scratch('scratch-6', 'least(stake, stake_limit)', 'greatest(stake, stake_limit)'), tests: ['tests/mutants/fixtures/absent.check.ts'] },
    ]);
    expect(broken).toMatchObject({ status: 'baseline_failed', detail: expect.stringMatching(/\(killed\): .*wrong on purpose/) });
    expect(absent.status).toBe('baseline_failed');
  });
});

describe('the verdicts', () => {
  const report = (statuses: string[], exit = 0) => ({
    numFailedTests: statuses.filter((s) => s === 'failed').length,
    numPassedTests: statuses.filter((s) => s === 'passed').length,
    testResults: [{ name: 'a.test.ts', status: statuses.includes('failed') ? 'failed' : 'passed',
      assertionResults: statuses.map((status, i) => ({ fullName: `test ${i}`, status })) }],
    exit,
  });

  it('a failing test kills, passing tests with exit 0 survive, anything else is an error', () => {
    expect(classify(1, report(['passed', 'failed']))).toEqual({ status: 'killed', detail: 'test 1' });
    expect(classify(0, report(['passed', 'passed']))).toEqual({ status: 'survived' });
    expect(classify(1, report(['passed'])).status).toBe('error');
    expect(classify(0, report([])).status).toBe('error');
    expect(classify(1, undefined).status).toBe('error');
  });

  it('a text found more than once needs its occurrence', () => {
    const m = { ...scratch('x-1', 'a < b', 'a <= b') };
    expect(applyMutation('a < b; a < b', m)).toMatchObject({ error: 'ambiguous' });
    expect(applyMutation('a < b;\na < b', { ...m, occurrence: 2 })).toEqual({ text: 'a < b;\na <= b', line: 2 });
    expect(applyMutation('a < b', { ...m, occurrence: 2 })).toMatchObject({ error: 'not_found' });
    expect(applyMutation('x < 1 and y < 2', { ...m, find: /(\w) < 2/, replace: '$1 <= 2' })).toEqual({ text: 'x < 1 and y <= 2', line: 1 });
  });
});

describe('the list of plpgsql mutations', () => {
  it('names each mutation once, and test files that exist', async () => {
    expect(new Set(sqlMutations.map((m) => m.id)).size).toBe(sqlMutations.length);
    for (const file of new Set(sqlMutations.flatMap((m) => m.tests))) {
      await expect(readFile(`${paths.root}${file}`, 'utf8'), file).resolves.toBeTruthy();
    }
  });

  it('finds every mutated text in today\'s migrations (else change the entry with the engine: docs/mutation-testing.md)', async () => {
    const missing: string[] = [];
    for (const m of sqlMutations) {
      const text = await readFile(`${paths.root}supabase/migrations/${m.file}`, 'utf8').catch(() => '');
      const applied = applyMutation(text, m);
      if ('error' in applied) missing.push(`${m.id}: ${applied.detail}`);
    }
    expect(missing).toEqual([]);
  });

  // A later migration's `create or replace` of the function would make the mutant a no-op that
  // "survives": the entry must follow the function to its last definition.
  it('mutates each function where it is last defined', async () => {
    const dir = `${paths.root}supabase/migrations/`;
    const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
    const texts = new Map(await Promise.all(files.map(async (f) => [f, await readFile(`${dir}${f}`, 'utf8')] as const)));
    const definition = /create\s+(?:or\s+replace\s+)?function\s+([\w.]+)\s*\(/gi;
    // The functions each file defines, by name.
    const defines = new Map(files.map((f) => [f, new Set(Array.from(texts.get(f)!.matchAll(definition), (d) => d[1].toLowerCase()))]));
    const stale: string[] = [];
    for (const m of sqlMutations) {
      const applied = applyMutation(texts.get(m.file) ?? '', m);
      if ('error' in applied) continue; // the test above reports it
      const lines = texts.get(m.file)!.split('\n');
      let name: string | undefined;
      for (let i = applied.line - 1; i >= 0 && !name; i--) {
        if (i < applied.line - 1 && lines[i].trimEnd() === '$$;') break; // outside any function body
        name = Array.from(lines[i].matchAll(definition), (d) => d[1].toLowerCase())[0];
      }
      if (!name) continue;
      const later = files.filter((f) => f > m.file && defines.get(f)!.has(name!));
      if (later.length) stale.push(`${m.id}: ${name} is defined again in ${later.join(', ')}`);
    }
    expect(stale).toEqual([]);
  });
});
