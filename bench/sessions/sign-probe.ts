// Runs sign-cost.ts under the same Deno, flags and import map the function is served with.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { paths } from '../../scripts/lib/database.ts';
import { deno, denoEnv, runAsFunction } from '../../scripts/lib/deno-function.ts';

export interface SignCost {
  /** Milliseconds per launch-token signature with the function's signer, each holding the JS thread. */
  eddsaMs: number;
  es256Ms: number;
}

export async function measureSignCost(): Promise<SignCost> {
  const { stdout } = await promisify(execFile)(deno, [...runAsFunction(), `${paths.root}bench/sessions/sign-cost.ts`], {
    cwd: paths.root,
    env: denoEnv(),
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as SignCost;
}
