// Runs sign-cost.ts under the same Deno, flags and import map the function is served with.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { paths } from '../../scripts/lib/database.ts';

export interface SignCost {
  /** Milliseconds per launch-token signature with the function's signer, each holding the JS thread. */
  eddsaMs: number;
  es256Ms: number;
}

export async function measureSignCost(): Promise<SignCost> {
  const dir = `${paths.root}supabase/functions/v3`;
  const { stdout } = await promisify(execFile)(
    `${paths.root}node_modules/.bin/deno`,
    ['run', '--node-modules-dir=manual', `--config=${dir}/deno.json`, '--allow-env', '--allow-read',
      `${paths.root}bench/sessions/sign-cost.ts`],
    { cwd: paths.root, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as SignCost;
}
