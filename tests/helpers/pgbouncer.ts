// A real PgBouncer (Debian's) in transaction mode in front of a test database, as Supabase's pooler
// stands in front of a hosted one: a server connection is a client's only for one transaction.
// PgBouncer refuses to run as root, so as root it runs as the postgres system user the embedded
// clusters run as, with its configuration in a folder of that user's.
import { type ChildProcess, spawn } from 'node:child_process';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, postgresIds } from '../../scripts/lib/embedded-postgres.ts';

/** Where Debian installs it: /usr/sbin, which an ordinary user's PATH may leave out. */
export const PGBOUNCER = ['pgbouncer', '/usr/sbin/pgbouncer'];
export const INSTALL_PGBOUNCER = 'apt-get install pgbouncer; .ci/run installs it';

export interface PgBouncer {
  /** The database URL, through the pooler. */
  url: string;
  /** Its admin console (`show pools`, `show servers`), as the same user. */
  adminUrl: string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Server connections per database and user: 1 makes every client share one. */
  poolSize?: number;
}

const READY_TIMEOUT_MS = 20_000;

/** Starts PgBouncer (`binary`) in transaction mode in front of `databaseUrl`, on a free port. */
export async function startPgBouncer(binary: string, databaseUrl: string, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const target = new URL(databaseUrl);
  const database = target.pathname.slice(1) || 'postgres';
  const user = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  const ids = postgresIds();
  const dir = await mkdtemp(join(tmpdir(), 'cgs-pgbouncer-'));
  const port = await freePort();
  const quoted = (value: string) => `"${value.replaceAll('"', '""')}"`;
  await writeFile(join(dir, 'userlist.txt'), `${quoted(user)} ${quoted(password)}\n`, { mode: 0o600 });
  await writeFile(join(dir, 'pgbouncer.ini'), [
    '[databases]',
    `${database} = host=${target.hostname} port=${target.port} dbname=${database}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'pool_mode = transaction',
    `default_pool_size = ${options.poolSize ?? 4}`,
    'max_client_conn = 200',
    'auth_type = scram-sha-256',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    `admin_users = ${user}`,
    // Ours to say: a test reads what a server connection kept from the last transaction.
    'server_reset_query =',
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n'), { mode: 0o600 });
  if (ids) await Promise.all(['', 'userlist.txt', 'pgbouncer.ini'].map((name) => chown(join(dir, name), ids.uid, ids.gid)));

  const child = spawn(binary, [join(dir, 'pgbouncer.ini')], { ...ids, stdio: ['ignore', 'ignore', 'pipe'] });
  await listening(child, port);
  const url = new URL(databaseUrl);
  [url.hostname, url.port] = ['127.0.0.1', String(port)];
  const admin = new URL(url);
  admin.pathname = '/pgbouncer';
  return {
    url: url.toString(),
    adminUrl: admin.toString(),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT'); // PgBouncer's immediate shutdown
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once PgBouncer says it listens on `port`; rejects with its log if it exits or stays silent. */
function listening(child: ChildProcess, port: number): Promise<void> {
  let log = '';
  let timer: NodeJS.Timeout | undefined;
  return new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk;
      if (log.includes(`listening on 127.0.0.1:${port}`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`pgbouncer exited (${code}) before listening: ${log.trim()}`)));
    child.once('error', reject);
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pgbouncer did not listen within ${READY_TIMEOUT_MS / 1000} s: ${log.trim()}`));
    }, READY_TIMEOUT_MS);
  }).finally(() => {
    clearTimeout(timer);
    // Its log keeps coming; read and dropped, so a full pipe never stalls it.
    child.stderr!.removeAllListeners('data').resume();
  });
}
