// Serving supabase/functions/v3 under real Deno (the `deno` npm package), offline: npm imports
// resolve from this project's node_modules, never from a registry.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { paths } from './database.ts';
import { freePort } from './embedded-postgres.ts';

export interface ServeOptions {
  /** Which function under supabase/functions: `v3` (the API, the default) or `deliver`. */
  name?: 'v3' | 'deliver';
  databaseUrl: string;
  /**
   * Where to listen. Left out, a free port is chosen, and another when Deno finds it taken (a port
   * free when looked at may be another process's by the time Deno binds it, as under parallel test
   * runs).
   */
  port?: number;
  /** Extra environment for the function (SESSION_TOKEN_PRIVATE_JWK, LAUNCH_BASE_URL, ...). */
  env?: Record<string, string>;
  onOutput?: (line: string) => void;
}

export interface ServedFunction {
  /** Base URL as on a Supabase stack: {url}/v3/sessions. */
  url: string;
  stop(): Promise<void>;
}

/** The project's own Deno binary (the `deno` npm package). */
export const deno = `${paths.root}node_modules/.bin/deno`;

const functionDir = (name = 'v3') => `${paths.root}supabase/functions/${name}`;

/**
 * `deno run` as a function runs: offline from node_modules with its import map, and the
 * permissions it needs. Add the script to run.
 */
export const runAsFunction = (name = 'v3') => ['run', '--node-modules-dir=manual', `--config=${functionDir(name)}/deno.json`,
  '--allow-env', '--allow-net', '--allow-read', '--allow-sys'];

/** The environment for a Deno run from this project: no update check, no colours in the output. */
export function denoEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
}

/** How many ports serveFunction tries when it chooses them itself. */
const PORT_TRIES = 5;

export async function serveFunction(options: ServeOptions): Promise<ServedFunction> {
  if (options.port !== undefined) return serveOn(options, options.port);
  for (let tries = 1; ; tries++) {
    try {
      return await serveOn(options, await freePort());
    } catch (error) {
      if (tries >= PORT_TRIES || !String((error as Error).message).includes('AddrInUse')) throw error;
    }
  }
}

async function serveOn(options: ServeOptions, port: number): Promise<ServedFunction> {
  const name = options.name ?? 'v3';
  const child = spawn(deno, [...runAsFunction(name), `${functionDir(name)}/index.ts`], {
    cwd: paths.root,
    env: denoEnv({ ...options.env, SUPABASE_DB_URL: options.databaseUrl, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        output.push(line);
        options.onOutput?.(line);
        if (line.includes(`${name} listening on`)) resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`deno exited (${code}) before listening:\n${output.join('\n')}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/functions/v1`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Type-checks the function under Deno (`deno check`), offline, with Node's types for its `node:`
 * imports taken from this project's @types/node. Run from the project root without the function's
 * deno.json: with it, Deno looks for @types/node only among the packages deno.json names. `postgres`
 * then resolves through package.json to the same node_modules copy. Rejects with Deno's report.
 */
export async function checkFunction(env: Record<string, string> = {}): Promise<void> {
  await promisify(execFile)(deno, ['check', '--node-modules-dir=manual', 'supabase/functions/v3/index.ts'], {
    cwd: paths.root,
    env: denoEnv(env),
  });
}
