// Runs one of the project's npm scripts as an operator would (tsx, from the project's folder) on
// the test database, and hands back its exit code and everything it printed.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { paths } from '../../scripts/lib/database.ts';

export async function runScript(script: string, ...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(`${paths.root}node_modules/.bin/tsx`, [script, ...args], {
      cwd: paths.root,
      env: { ...process.env, DATABASE_URL: inject('databaseUrl') },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}
