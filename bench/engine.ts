// The round engine against the least SQL that moves the same money correctly (issue 38), on one
// database, straight from Node with postgres.js (no HTTP): how much of what Postgres can do the
// engine leaves on the table.
// - Engine: a bet+win pair is private.round_bet, then private.round_win closing that new round, each
//   its own transaction, as the provider routes call them (transfer mode, the operator's EUR float).
// - Least SQL: the same pair as two transactions of one statement each, on tables of the bench's
//   own: lock the wallet row (select ... for update), update its balance unless that would go below
//   zero, insert a ledger row whose transaction id is unique.
// Both sides take turns in short rounds (lib/measure.ts), on pools of the same size and driver
// settings, and each side's Postgres CPU is its backends' own. Cases: concurrency 16 over 100
// operators (a float and a live session each), and 64 players of one operator (one float, one row).
// Serially, on one connection: the WAL a pair writes, and the locks held inside each call.
import { createHash } from 'node:crypto';
import postgres, { type Sql, type TransactionSql } from 'postgres';
import { importFixtureCatalogue } from '../scripts/lib/fixture-catalogue.ts';
import { backendCpu, type Locks, locksDuring, type Wal, walOf } from './lib/backend-cost.ts';
import { nodeLoad } from './lib/drive.ts';
import { interleavedMedians } from './lib/measure.ts';
import type { Section } from './lib/section.ts';
import { throughput } from './sessions/load.ts';
import { issueOperatorKeys } from './sessions/operators.ts';

const OPERATORS = 100;
const PLAYERS = 64;
const CONCURRENCY = 16;
/** Rounds of each case after one warm-up round, each side SLICE_S seconds a round. */
const ROUNDS = 5;
const SLICE_S = 2;
/** Pairs per side in each of the serial WAL batches (two batches per side, alternating). */
const SERIAL_PAIRS = 100;
// The provider key is stored hashed, and a request is known by its fingerprint: both SHA-256 hex.
export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
// Engine throughput as a share of the least SQL's, and its Postgres CPU per pair as a multiple.
const TARGET = { spread: 0.25, hotFloat: 0.2, cpu: 4 };
const APPLICATION = { engine: 'bench-engine-engine', least: 'bench-engine-least', probe: 'bench-engine-probe' } as const;

type Side = 'engine' | 'least';
/** One pair on `sql`: the n-th of the run (unique), for the caller-th player. */
type Pair = (sql: Sql, n: number, caller: number) => Promise<void>;

interface Compared {
  /** Median over the rounds of each side's wall time per pair, at the case's concurrency. */
  msPerPair: Record<Side, number>;
  cpuMsPerPair: Record<Side, number>;
  errors: number;
}

// The least SQL of one move: the wallet row locked, its balance moved unless it would go below zero,
// the move written to the ledger; no row comes back when the balance cannot cover it.
const LEAST_SCHEMA = `
  create schema least_sql;
  create table least_sql.wallet (id int primary key, balance numeric(20, 4) not null);
  create table least_sql.ledger (
    id bigint generated always as identity primary key,
    wallet int not null,
    amount numeric(20, 4) not null,
    balance_after numeric(20, 4) not null,
    transaction_id text not null unique
  );`;

async function leastMove(sql: Sql | TransactionSql, wallet: number, amount: string, transactionId: string): Promise<void> {
  const moved = await sql`
    with locked as (select id from least_sql.wallet where id = ${wallet} for update),
    updated as (
      update least_sql.wallet w set balance = w.balance + ${amount}::numeric
      from locked where w.id = locked.id and w.balance + ${amount}::numeric >= 0
      returning w.id, w.balance)
    insert into least_sql.ledger (wallet, amount, balance_after, transaction_id)
    select id, ${amount}::numeric, balance, ${transactionId} from updated
    returning balance_after`;
  if (moved.length !== 1) throw new Error(`least SQL: ${transactionId} refused`);
}

export const engineAgainstLeastSql: Section = {
  name: 'engine',
  async run(cluster, log) {
    const url = await cluster.database('bench_engine');
    await importFixtureCatalogue(url);
    const admin = postgres(url, { max: 2, onnotice: () => {} });
    const pool = (name: keyof typeof APPLICATION, max: number) =>
      postgres(url, { max, onnotice: () => {}, connection: { application_name: APPLICATION[name] } });
    const pools = { engine: pool('engine', PLAYERS), least: pool('least', PLAYERS) };
    const probe = pool('probe', 1);
    try {
      log(`engine: ${OPERATORS} operators, ${PLAYERS} players on the first`);
      const { operatorKeys, providerHash } = await operatorsWithFloats(admin, OPERATORS);
      // sessions[operator]: a live session for each operator, and the first operator's 64 players.
      const sessions = await Promise.all(operatorKeys.map(async (key, operator) => {
        const made: string[] = [];
        for (let player = 0; player < (operator === 0 ? PLAYERS : 1); player++) made.push(await newSession(admin, key, player));
        return made;
      }));
      await admin.unsafe(LEAST_SCHEMA).simple();
      await admin`insert into least_sql.wallet select g, 1e12 from generate_series(0, ${OPERATORS - 1}) g`;

      let next = 0;
      const enginePair = (session: (n: number, caller: number) => string): Pair => async (sql, n, caller) => {
        const round = `e${n}`;
        const at = session(n, caller);
        const [bet] = await sql`select outcome from private.round_bet(${providerHash}, ${at}::uuid, ${`${round}-b`}, ${round},
          ${'1'}::numeric, ${false}, ${sha256Hex(`${round}-b`)})`;
        if (bet.outcome !== 'ok') throw new Error(`round_bet: ${bet.outcome}`);
        const [win] = await sql`select outcome from private.round_win(${providerHash}, ${at}::uuid, ${`${round}-w`}, ${round},
          ${'1'}::numeric, ${true}, ${null}, ${sha256Hex(`${round}-w`)})`;
        if (win.outcome !== 'ok') throw new Error(`round_win: ${win.outcome}`);
      };
      const leastPair = (wallet: (n: number) => number): Pair => async (sql, n) => {
        await leastMove(sql, wallet(n), '-1', `l${n}-b`);
        await leastMove(sql, wallet(n), '1', `l${n}-w`);
      };
      // Spread: the n-th pair is the (n mod 100)-th operator's, so callers rarely meet on a float.
      // Hot float: each caller one of the first operator's players, every pair on its one float.
      const spread = {
        engine: enginePair((n) => sessions[n % OPERATORS][0]),
        least: leastPair((n) => n % OPERATORS),
      };
      const hotFloat = {
        engine: enginePair((_n, caller) => sessions[0][caller]),
        least: leastPair(() => 0),
      };

      const compare = async (concurrency: number, pairs: Record<Side, Pair>): Promise<Compared> => {
        const total = { engine: { pairs: 0, cpu: 0 }, least: { pairs: 0, cpu: 0 } };
        let errors = 0;
        const side = (name: Side) => async (round: number) => {
          const cpu = await backendCpu(admin, APPLICATION[name]);
          const result = await nodeLoad(concurrency, SLICE_S, (caller) => pairs[name](pools[name], next++, caller));
          const used = await cpu();
          if (round > 0) {
            total[name].pairs += result.ok;
            total[name].cpu += used;
            errors += result.errors;
          }
          return 1000 / throughput(result);
        };
        const { medians } = await interleavedMedians({ warmup: 1, min: ROUNDS, max: ROUNDS, budgetMs: 0 }, [side('engine'), side('least')]);
        const cpuMs = (name: Side) => (1000 * total[name].cpu) / total[name].pairs;
        return {
          msPerPair: { engine: medians[0], least: medians[1] },
          cpuMsPerPair: { engine: cpuMs('engine'), least: cpuMs('least') },
          errors,
        };
      };

      log('  serial: WAL per pair, locks held per call');
      const serialSession = sessions[1][0];
      const serial = { engine: enginePair(() => serialSession), least: leastPair(() => 1) };
      const wal = { engine: { bytes: 0, records: 0 }, least: { bytes: 0, records: 0 } };
      const batch = (name: Side, count: number) => async () => {
        for (let i = 0; i < count; i++) await serial[name](probe, next++, 0);
      };
      await batch('engine', 10)();
      await batch('least', 10)();
      for (const order of [['engine', 'least'], ['least', 'engine']] as const) {
        for (const name of order) {
          const written: Wal = await walOf(admin, probe, batch(name, SERIAL_PAIRS));
          wal[name].bytes += written.bytes / (2 * SERIAL_PAIRS);
          wal[name].records += written.records / (2 * SERIAL_PAIRS);
        }
      }
      const n = next++;
      const locks = {
        bet: await locksDuring(admin, probe, (tx) => tx`select outcome from private.round_bet(${providerHash}, ${serialSession}::uuid,
          ${`p${n}-b`}, ${`p${n}`}, ${'1'}::numeric, ${false}, ${sha256Hex(`p${n}-b`)})`),
        win: await locksDuring(admin, probe, (tx) => tx`select outcome from private.round_win(${providerHash}, ${serialSession}::uuid,
          ${`p${n}-w`}, ${`p${n}`}, ${'1'}::numeric, ${true}, ${null}, ${sha256Hex(`p${n}-w`)})`),
        least: await locksDuring(admin, probe, (tx) => leastMove(tx, 1, '-1', `p${n}-b`)),
      };

      log(`  bet+win pairs, concurrency ${CONCURRENCY}, ${OPERATORS} operators: ${ROUNDS} rounds of ${SLICE_S} s a side`);
      const spreadRun = await compare(CONCURRENCY, spread);
      log(`  bet+win pairs, ${PLAYERS} players of one operator: ${ROUNDS} rounds of ${SLICE_S} s a side`);
      const hotRun = await compare(PLAYERS, hotFloat);

      const rows: string[][] = [];
      const misses: string[] = [];
      const judge = (figure: string, met: boolean, target: string) => {
        if (!met) misses.push(`${figure}: target ${target}`);
        return met ? 'met' : 'MISSED';
      };
      for (const [label, run, target] of [
        [`bet+win pairs/s, concurrency ${CONCURRENCY}, ${OPERATORS} operators`, spreadRun, TARGET.spread],
        [`bet+win pairs/s, ${PLAYERS} players of one operator (one float)`, hotRun, TARGET.hotFloat],
      ] as const) {
        const ratio = run.msPerPair.least / run.msPerPair.engine;
        const errors = run.errors ? `; ${run.errors} errors` : '';
        rows.push([label, (1000 / run.msPerPair.engine).toFixed(0), (1000 / run.msPerPair.least).toFixed(0), ratio.toFixed(3),
          `>= ${target}, no errors`, judge(label, ratio >= target && !run.errors, `>= ${target}, no errors`) + errors]);
      }
      for (const [label, run, judged] of [
        [`Postgres CPU per pair, ms (${OPERATORS} operators)`, spreadRun, true],
        [`Postgres CPU per pair, ms (one float)`, hotRun, false],
      ] as const) {
        const ratio = run.cpuMsPerPair.engine / run.cpuMsPerPair.least;
        rows.push([label, run.cpuMsPerPair.engine.toFixed(3), run.cpuMsPerPair.least.toFixed(3), `${ratio.toFixed(2)}x`,
          judged ? `<= ${TARGET.cpu}x` : '-', judged ? judge(label, ratio <= TARGET.cpu, `<= ${TARGET.cpu}x`) : 'reported']);
      }
      rows.push(['WAL per pair, bytes (serial)', wal.engine.bytes.toFixed(0), wal.least.bytes.toFixed(0),
        `${(wal.engine.bytes / wal.least.bytes).toFixed(2)}x`, '-', 'reported']);
      rows.push(['WAL records per pair (serial)', wal.engine.records.toFixed(1), wal.least.records.toFixed(1),
        `${(wal.engine.records / wal.least.records).toFixed(2)}x`, '-', 'reported']);
      const held = (l: Locks) => `${l.held} (${l.relations} relations, ${l.outsideFastPath} outside fast path)`;
      for (const [call, l] of [['round_bet', locks.bet], ['round_win', locks.win]] as const) {
        const label = `locks held inside ${call}`;
        rows.push([label, held(l), held(locks.least), '-', 'relations within the 16 fast-path slots',
          judge(label, l.outsideFastPath === 0, 'relations within the 16 fast-path slots')]);
      }
      return {
        title: 'The engine against the least SQL',
        intro: [
          'Bet+win pairs straight from Node (postgres.js, prepared statements, no HTTP) on one database: the engine ' +
            '(private.round_bet, then private.round_win closing that new round, each its own transaction, transfer mode) ' +
            'against the least SQL that moves the same money correctly (per move, one transaction of one statement: the ' +
            'wallet row locked with select ... for update, its balance updated unless it would go below zero, a ledger ' +
            'row inserted under a unique transaction id), on tables of the bench\'s own. ' +
            `Spread: concurrency ${CONCURRENCY}, pair n on operator n mod ${OPERATORS} (a EUR float and a live session each). ` +
            `One float: ${PLAYERS} players of one operator at once, every pair on its one wallet row (the least SQL on one row). ` +
            `The sides take turns, ${ROUNDS} rounds of ${SLICE_S} s each after a warm-up round; pairs/s are the medians of the rounds. ` +
            'Postgres CPU: user and system time of each side\'s own backends (/proc), over its rounds, per pair. ' +
            `WAL: ${2 * SERIAL_PAIRS} pairs a side on one connection, alternating (insert position, and records from ` +
            'pg_walinspect). Locks: the pg_locks rows of the backend inside one call, before its commit (the least SQL: one move). ' +
            `Targets: engine pairs/s >= ${TARGET.spread} of the least SQL's (spread) and >= ${TARGET.hotFloat} (one float); ` +
            `its Postgres CPU per pair <= ${TARGET.cpu}x (spread); every relation lock of a call in the fast-path slots.`,
        ],
        table: { columns: ['figure', 'engine', 'least SQL', 'engine / least SQL', 'target', 'verdict'], rows },
        notes: misses.map((miss) => `Missed: ${miss}`),
        targetsMet: misses.length === 0,
      };
    } finally {
      await Promise.all([admin.end(), pools.engine.end(), pools.least.end(), probe.end()]);
    }
  },
};

/**
 * `count` operators with a live key each and a EUR float of 1e12, and a provider key of
 * pragmatic-play's (stored hashed, as the provider API is called with it).
 */
export async function operatorsWithFloats(admin: Sql, count: number): Promise<{ operatorKeys: string[]; providerHash: string }> {
  const operatorKeys = await issueOperatorKeys(admin, count, 1);
  await admin`insert into public.wallet (client_id, currency_code) select client_id, 'EUR' from public.api_key`;
  await admin`select public.record_transaction(client_id, 'EUR', 'deposit', 1e12) from public.api_key`;
  const [{ key }] = await admin`select key from public.issue_provider_key('pragmatic-play')`;
  return { operatorKeys, providerHash: sha256Hex(key) };
}

/** A session of the operator's for one of pragmatic-play's games, made as POST /v3/sessions makes it. */
export async function newSession(sql: Sql, key: string, player: number, game = 'vs20olympgate'): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date();
  const [made] = await sql`
    select outcome from private.create_game_session(${sha256Hex(key)}, true, ${null}, ${null}, ${id}, ${`bench-player-${player}`},
      'pragmatic-play', ${game}, 'EUR', ${null}, ${now}, ${new Date(now.getTime() + 3_600_000)}, ${null}::json)`;
  if (made.outcome !== 'created') throw new Error(`create_game_session: ${made.outcome}`);
  return id;
}
