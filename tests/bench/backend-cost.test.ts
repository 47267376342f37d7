// The bench's reading of a call's locks (bench/lib/backend-cost.ts): relation locks past a backend's
// 16 fast-path slots are counted as outside them, and a call within them has none outside. And its
// reading of the WAL a batch wrote: every record of the batch is in it (other tests' WAL may be too).
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { locksDuring, walOf } from '../../bench/lib/backend-cost.ts';
import { connect } from '../helpers/db.ts';

const TABLES = 20;
const admin = connect();
const probe = postgres(inject('databaseUrl'), { max: 1, onnotice: () => {} });
const tables = Array.from({ length: TABLES }, (_, n) => `lock_probe_${n}`);
const reading = (count: number) => tables.slice(0, count).map((t) => `(select count(*) from ${t})`).join(', ');

beforeAll(async () => {
  // Temporary tables: the probe's own, gone with its connection.
  for (const t of tables) await probe.unsafe(`create temporary table ${t} (id int)`);
});
afterAll(() => probe.end());

describe('the locks held inside a call', () => {
  it('a call reading one table holds its relation lock in a fast-path slot', async () => {
    const locks = await locksDuring(admin, probe, (tx) => tx.unsafe(`select ${reading(1)}`));
    expect(locks.relations).toBe(1);
    expect(locks.outsideFastPath).toBe(0);
  });

  it('a call reading 20 tables holds 4 relation locks outside the 16 fast-path slots', async () => {
    const locks = await locksDuring(admin, probe, (tx) => tx.unsafe(`select ${reading(TABLES)}`));
    expect(locks.relations).toBe(TABLES);
    expect(locks.outsideFastPath).toBe(TABLES - 16);
    expect(locks.held).toBeGreaterThan(locks.relations);
  });
});

describe('the WAL a batch writes', () => {
  it('counts each committed insert and its commit, read from the WAL itself', async () => {
    // A logged table of the test's own schema: the shared database's public schema is the API's.
    await admin`create schema if not exists bench_probe`;
    await admin`create table if not exists bench_probe.wal_probe (id int)`;
    const wal = await walOf(admin, probe, async () => {
      for (let i = 0; i < 50; i++) await probe`insert into bench_probe.wal_probe values (${i})`;
    });
    await admin`drop schema bench_probe cascade`;
    expect(wal.records).toBeGreaterThanOrEqual(100);
    expect(wal.bytes).toBeGreaterThanOrEqual(50 * 54);
  });
});
