// npm run mutants: Stryker's JSON report becomes the table and survivor list of
// docs/mutation-testing.md, replacing only its own section; and Stryker's vitest run leaves out every
// test whose code under test runs in another process (Stryker cannot see what those reach).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { paths } from '../../scripts/lib/database.ts';
import { replaceSection } from '../../scripts/mutants/doc.ts';
import { fileResults, type StrykerReport, strykerMarkdown } from '../../scripts/mutants/stryker-report.ts';
import { outOfProcessTests } from '../../scripts/mutants/out-of-process.ts';

const mutant = (id: string, status: string, line: number, mutatorName = 'EqualityOperator', replacement = 'a <= b') =>
  ({ id, status, mutatorName, replacement, location: { start: { line, column: 1 } } });

describe("Stryker's report as markdown", () => {
  const report = {
    files: {
      'supabase/functions/_shared/b.ts': { mutants: [mutant('1', 'Killed', 3), mutant('2', 'Timeout', 4), mutant('3', 'Survived', 9, 'StringLiteral', '"a|b"')] },
      'supabase/functions/_shared/a.ts': { mutants: [mutant('4', 'NoCoverage', 7), mutant('5', 'CompileError', 8), mutant('6', 'Killed', 1), mutant('7', 'RuntimeError', 2)] },
    },
  } as StrykerReport;
  const results = fileResults(report, new Date('2026-11-25T10:00:00Z'));
  const markdown = strykerMarkdown(results);

  it('counts killed, timed out, survived, no coverage, broken setups and compile errors per file, and scores them with the timeouts and without', () => {
    expect(markdown).toContain('3 of 5 mutants detected (60.0 %; 50.0 % with the timeouts left out) in 2 files.');
    expect(markdown).toContain('| `supabase/functions/_shared/a.ts` | 1 | 0 | 0 | 1 | 1 | 1 | 50.0 % | 50.0 % | 2026-11-25 10:00 |');
    expect(markdown).toContain('| `supabase/functions/_shared/b.ts` | 1 | 1 | 1 | 0 | 0 | 0 | 66.7 % | 50.0 % | 2026-11-25 10:00 |');
    expect(markdown).toContain('| **All** | 2 | 1 | 1 | 1 | 1 | 1 | 60.0 % | 50.0 % |  |');
    expect(markdown.indexOf('a.ts` |')).toBeLessThan(markdown.indexOf('b.ts` |'));
  });

  it('lists every survivor and uncovered mutant with file:line, mutator and replacement', () => {
    expect(markdown).toContain('- `supabase/functions/_shared/a.ts:7` no coverage, EqualityOperator: `a <= b`');
    expect(markdown).toContain('- `supabase/functions/_shared/b.ts:9` survived, StringLiteral: `"a\\|b"`');
    expect(markdown.match(/^- /gm)).toHaveLength(2);
  });

  it("a later run of one file replaces that file's results only", () => {
    const later = fileResults({ files: { 'supabase/functions/_shared/b.ts': { mutants: [mutant('1', 'Killed', 9)] } } } as StrykerReport,
      new Date('2026-11-26T08:00:00Z'));
    const merged = strykerMarkdown({ ...results, ...later });
    expect(merged).toContain('| `supabase/functions/_shared/b.ts` | 1 | 0 | 0 | 0 | 0 | 0 | 100.0 % | 100.0 % | 2026-11-26 08:00 |');
    expect(merged).toContain('| `supabase/functions/_shared/a.ts` | 1 | 0 | 0 | 1 | 1 | 1 | 50.0 % | 50.0 % | 2026-11-25 10:00 |');
  });

  it('says which test files a run was limited to (--testFiles), under the table', () => {
    const limited = fileResults({ files: { 'supabase/functions/_shared/b.ts': { mutants: [mutant('1', 'Killed', 9)] } } } as StrykerReport,
      new Date('2026-11-26T08:00:00Z'), ['tests/x/*.test.ts', 'tests/y.test.ts']);
    const merged = strykerMarkdown({ ...results, ...limited });
    expect(merged).toContain('Runs limited to some test files (`--testFiles`):\n\n'
      + '- `supabase/functions/_shared/b.ts`: `tests/x/*.test.ts`, `tests/y.test.ts`\n');
    expect(markdown).not.toContain('--testFiles');
  });

  it('counts the static mutants a run left out (--ignoreStatic) under the table, in no score', () => {
    const partial = fileResults({ files: { 'supabase/functions/_shared/b.ts': { mutants: [mutant('1', 'Killed', 9), mutant('2', 'Ignored', 3)] } } } as StrykerReport,
      new Date('2026-11-26T08:00:00Z'));
    const merged = strykerMarkdown({ ...results, ...partial });
    expect(merged).toContain('| `supabase/functions/_shared/b.ts` | 1 | 0 | 0 | 0 | 0 | 0 | 100.0 % | 100.0 % | 2026-11-26 08:00 |');
    expect(merged).toContain('Static mutants left out of a run (`--ignoreStatic`), in no count:\n\n- `supabase/functions/_shared/b.ts`: 1\n');
    expect(markdown).not.toContain('--ignoreStatic');
  });
});

describe('the generated sections of docs/mutation-testing.md', () => {
  it('replaces its own section only, and refuses a doc without it', () => {
    const begin = (tool: string) => `<!-- ${tool}: generated, do not edit by hand -->`;
    const end = (tool: string) => `<!-- ${tool}: end -->`;
    const doc = `# Doc\n\n${begin('stryker')}\n\nold\n\n${end('stryker')}\n\n${begin('sql')}\n\nsql\n\n${end('sql')}\n`;
    const updated = replaceSection(doc, 'stryker', 'new table');
    expect(updated).toBe(doc.replace('old', 'new table'));
    expect(() => replaceSection('# Doc', 'sql', 'x')).toThrow(/no section for sql/);
  });

  it('has both sections', async () => {
    const doc = await readFile(`${paths.root}docs/mutation-testing.md`, 'utf8');
    expect(() => replaceSection(replaceSection(doc, 'stryker', 'x'), 'sql', 'y')).not.toThrow();
  });
});

describe("Stryker's vitest configuration", () => {
  it('leaves out every test that reaches real Deno, directly or through helpers', () => {
    const excluded = outOfProcessTests(paths.root);
    // Directly, and through two helpers (the SDK tests' harness serves the function under Deno).
    expect(excluded).toEqual(expect.arrayContaining([
      'tests/sessions/deno-e2e.test.ts', 'tests/webhooks/deliver-function.test.ts', 'tests/sdks/typescript/operator-client.test.ts',
      'tests/rounds/deno-e2e.test.ts', 'tests/browser/portal.test.ts',
    ]));
    // And nothing that runs the functions in-process only.
    expect(excluded).not.toContain('tests/rounds/engine.test.ts');
    expect(excluded).not.toContain('tests/sessions/create-session.test.ts');
  });
});
