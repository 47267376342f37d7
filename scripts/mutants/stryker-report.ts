// Stryker's JSON report (mutation-testing-report-schema) as the markdown of docs/mutation-testing.md.
// A full campaign takes hours, longer than one sitting: results are kept per file in
// scripts/mutants/stryker-results.json, a run of whole files replaces the entries of the files it
// mutated, and the doc shows each file's latest run.
import { cell, percent } from './doc.ts';

type Status = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

export interface StrykerReport {
  files: Record<string, {
    mutants: {
      id: string;
      mutatorName: string;
      replacement?: string;
      status: Status;
      location: { start: { line: number; column: number } };
    }[];
  }>;
}

/** One file's latest run: counts, and each mutant that was not detected. */
export interface FileResult {
  ranAt: string;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /**
   * Mutants that failed outside any test (a beforeAll, a module's top level): the suite broke, but no
   * test failed, so Stryker does not count them as killed. Not in the score.
   */
  setupBroken: number;
  /** Mutants the TypeScript checker refused. Not in the score. */
  invalid: number;
  open: { line: number; status: 'survived' | 'no coverage'; mutator: string; replacement: string }[];
  /** The test files the run was limited to (--testFiles); absent when it ran every related test. */
  tests?: string[];
  /** Static mutants left out (--ignoreStatic): not run, so in no count; absent when none. */
  notRun?: number;
}

export type Results = Record<string, FileResult>;

export function fileResults(report: StrykerReport, ranAt: Date, tests?: string[]): Results {
  return Object.fromEntries(Object.entries(report.files).map(([file, { mutants }]) => {
    const count = (...statuses: Status[]) => mutants.filter((m) => statuses.includes(m.status)).length;
    return [file, {
      ranAt: ranAt.toISOString().slice(0, 16).replace('T', ' '),
      killed: count('Killed'),
      timeout: count('Timeout'),
      survived: count('Survived'),
      noCoverage: count('NoCoverage'),
      setupBroken: count('RuntimeError'),
      invalid: count('CompileError'),
      open: mutants
        .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
        .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column)
        .map((m) => ({
          line: m.location.start.line,
          status: m.status === 'Survived' ? 'survived' as const : 'no coverage' as const,
          mutator: m.mutatorName,
          replacement: m.replacement ?? '',
        })),
      ...(tests && { tests }),
      ...(count('Ignored') && { notRun: count('Ignored') }),
    }];
  }));
}

type Counts = Omit<FileResult, 'ranAt' | 'open' | 'tests' | 'notRun'>;
/** Detected (killed or timed out) over every mutant that compiled. */
const score = (s: Counts) => percent(s.killed + s.timeout, s.killed + s.timeout + s.survived + s.noCoverage);
/**
 * The same with the timeouts left out of both counts: on a machine shared with other work a timeout
 * is often the load's verdict (every related test outran the limit), not a test's, so the score a
 * test earned is this one.
 */
const scoreWithoutTimeouts = (s: Counts) => percent(s.killed, s.killed + s.survived + s.noCoverage);

export function strykerMarkdown(results: Results): string {
  const files = Object.keys(results).sort();
  const total = files.reduce((sum, file) => {
    const r = results[file];
    return {
      killed: sum.killed + r.killed, timeout: sum.timeout + r.timeout, survived: sum.survived + r.survived,
      noCoverage: sum.noCoverage + r.noCoverage, setupBroken: sum.setupBroken + r.setupBroken, invalid: sum.invalid + r.invalid,
    };
  }, { killed: 0, timeout: 0, survived: 0, noCoverage: 0, setupBroken: 0, invalid: 0 });
  const line = (name: string, s: Counts, ranAt = '') =>
    `| ${name} | ${s.killed} | ${s.timeout} | ${s.survived} | ${s.noCoverage} | ${s.setupBroken} | ${s.invalid} | ${score(s)} | ${scoreWithoutTimeouts(s)} | ${ranAt} |`;
  const open = files.flatMap((file) => results[file].open.map((m) => ({ file, ...m })));
  const limited = files.filter((file) => results[file].tests);
  const partial = files.filter((file) => results[file].notRun);
  return [
    `${total.killed + total.timeout} of ${total.killed + total.timeout + total.survived + total.noCoverage} mutants detected `
    + `(${score(total)}; ${scoreWithoutTimeouts(total)} with the timeouts left out) in ${files.length} files.`,
    '',
    '| File | Killed | Timed out | Survived | No coverage | Setup broken | Did not compile | Score | Without timeouts | Run (UTC) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...files.map((file) => line(`\`${file}\``, results[file], results[file].ranAt)),
    line('**All**', total),
    '',
    ...(limited.length
      ? ['Runs limited to some test files (`--testFiles`):', '',
        ...limited.map((file) => `- \`${file}\`: ${results[file].tests!.map((t) => `\`${t}\``).join(', ')}`), '']
      : []),
    ...(partial.length
      ? ['Static mutants left out of a run (`--ignoreStatic`), in no count:', '',
        ...partial.map((file) => `- \`${file}\`: ${results[file].notRun}`), '']
      : []),
    open.length ? `Survivors and mutants no test reached (${open.length}):` : 'No survivors.',
    '',
    ...open.map((m) => `- \`${m.file}:${m.line}\` ${m.status}, ${m.mutator}: \`${cell(m.replacement)}\``),
  ].join('\n');
}
