// A primary and a streaming replica of it, both throwaway embedded clusters, for the tests of
// reads sent to DATABASE_READ_URL. The replica is made as the Postgres manual's low-level base
// backup describes: pg_backup_start, a copy of the data directory with plain file copies, then
// pg_backup_stop, whose backup_label goes into the copy; standby.signal and primary_conninfo make
// it stream from the primary, as a replication-capable role (initdb's pg_hba.conf already lets
// replication connections in from 127.0.0.1, with a password).
import { spawnSync } from 'node:child_process';
import { cp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import postgres, { type Sql } from 'postgres';
import { postgresIds, type RunningPostgres, startEmbeddedPostgres, startThrowawayPostgres } from '../../scripts/lib/embedded-postgres.ts';

export interface ReplicatedPair {
  primary: RunningPostgres;
  replica: RunningPostgres;
  /** As the database owner, on each. */
  primarySql: Sql;
  replicaSql: Sql;
  /** Resolves once the replica has replayed everything the primary had written when it was called. */
  caughtUp(): Promise<void>;
  /** Stops the replica applying what it receives; resolves once asked (see `replayPaused`). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Where the primary's WAL ends now (all of it flushed), and whether the replica has replayed up to an LSN. */
  primaryLsn(): Promise<string>;
  replayed(lsn: string): Promise<boolean>;
  stop(): Promise<void>;
}

const REPLICATOR = { user: 'cgs_replicator', password: 'replicate' };
const POLL_MS = 20;
const WAIT_MS = 30_000;

// What the manual lets a base backup leave out: a running server's own files, the WAL (streamed
// instead), and folders whose contents are rebuilt at start.
const EMPTIED = ['pg_wal', 'pg_replslot', 'pg_stat_tmp', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_subtrans'];
const LEFT_OUT = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map']);

/**
 * Starts a primary, lets `prepare` set it up (migrations, reference data), then makes a replica of
 * it and waits until the replica has caught up.
 */
export async function startReplicatedPair(name: string, prepare: (url: string) => Promise<void>): Promise<ReplicatedPair> {
  const primary = await startThrowawayPostgres(`${name}-primary`, { wal_level: 'replica', max_wal_senders: '4' });
  const stops: (() => Promise<void>)[] = [primary.stop];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
  try {
    await prepare(primary.url);
    const primarySql = postgres(primary.url, { max: 2, onnotice: () => {} });
    stops.push(() => primarySql.end());
    await primarySql.unsafe(`create role ${REPLICATOR.user} with login replication password '${REPLICATOR.password}'`);

    const dir = join(tmpdir(), `cgs-${name}-replica-${process.pid}-${Date.now()}`);
    stops.push(() => rm(dir, { recursive: true, force: true }));
    await baseBackup(primary, dir);
    await writeFile(join(dir, 'standby.signal'), '');
    const conninfo = `host=127.0.0.1 port=${primary.port} user=${REPLICATOR.user} password=${REPLICATOR.password} application_name=${name}`;
    await writeFile(join(dir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\n`, { flag: 'a' });
    const ids = postgresIds();
    if (ids) chownTree(dir, ids);

    const replica = await startEmbeddedPostgres({ dir, port: 0, persistent: false, fast: true });
    stops.push(replica.stop);
    const replicaSql = postgres(replica.url, { max: 2, onnotice: () => {} });
    stops.push(() => replicaSql.end());

    // Commits are asynchronous on these clusters (fast), and WAL reaches a replica once flushed: a
    // message written and flushed at once (its last argument) flushes everything before it too.
    const primaryLsn = async () => {
      await primarySql`select pg_logical_emit_message(false, 'cgs-replica', 'flush', true)`;
      return (await primarySql`select pg_current_wal_flush_lsn()::text as lsn`)[0].lsn as string;
    };
    const replayed = async (lsn: string) =>
      (await replicaSql`select coalesce(pg_wal_lsn_diff(pg_last_wal_replay_lsn(), ${lsn}::pg_lsn) >= 0, false) as done`)[0].done as boolean;
    const pair: ReplicatedPair = {
      primary, replica, primarySql, replicaSql, primaryLsn, replayed,
      async caughtUp() {
        const lsn = await primaryLsn();
        await until(() => replayed(lsn), `the replica to replay the primary's WAL up to ${lsn}`);
      },
      async pauseReplay() {
        await replicaSql`select pg_wal_replay_pause()`;
        await until(async () => (await replicaSql`select pg_get_wal_replay_pause_state() as state`)[0].state !== 'not paused',
          'the replica to take the pause');
      },
      async resumeReplay() {
        await replicaSql`select pg_wal_replay_resume()`;
      },
      stop: stopAll,
    };
    await pair.caughtUp();
    return pair;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * The manual's low-level base backup of `primary` into `dir`: the files copied between
 * pg_backup_start and pg_backup_stop, on one session that stays open throughout, and the label it
 * returns written into the copy. Files may change while they are copied: the WAL from the start
 * point, which the replica streams, makes the copy consistent.
 */
async function baseBackup(primary: RunningPostgres, dir: string): Promise<void> {
  const session = postgres(primary.url, { max: 1, onnotice: () => {} });
  try {
    await session`select pg_backup_start('cgs-replica', fast => true)`;
    await cp(primary.dir, dir, {
      recursive: true,
      filter: (source) => {
        const path = relative(primary.dir, source);
        const [top, ...rest] = path.split('/');
        if (LEFT_OUT.has(path) || source.endsWith('pg_internal.init')) return false;
        return !(EMPTIED.includes(top) && rest.length > 0 && !(top === 'pg_wal' && rest[0] === 'archive_status'));
      },
    });
    const [stopped] = await session`select labelfile from pg_backup_stop(wait_for_archive => false)`;
    await writeFile(join(dir, 'backup_label'), stopped.labelfile as string);
  } finally {
    await session.end();
  }
}

function chownTree(dir: string, ids: { uid: number; gid: number }) {
  const done = spawnSync('chown', ['-R', `${ids.uid}:${ids.gid}`, dir], { stdio: 'ignore' });
  if (done.status !== 0) throw new Error(`could not give ${dir} to the postgres user`);
}

/** Polls `check` until it holds, failing after WAIT_MS with what was awaited. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS / 1000} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
