// Reports at size (issue 36): ten million round transactions over 100 operators and a year
// (reporting/data.ts), then, served by Deno as `npm start` serves them, at concurrency 8:
// - GET /v3/reports/ggr, a year by day and provider for one operator (eight operators in turn);
// - GET /v3/reconciliation/transactions, a day's first page (with the day's totals);
// each p99 under 100 ms. And the bet path with reporting in place against the bet path without:
// reporting writes nothing on a bet (no trigger, no roll-up row; closed days are rolled up when a
// report first needs them), and its one cost there is the round transactions' client index, widened
// from (client_id) to (client_id, created_at, id). Bet+win pairs on a copy of the same database
// with the engine's index put back, the two databases taking turns: at least 0.9 of its throughput.
import { createHash } from 'node:crypto';
import postgres, { type Sql } from 'postgres';
import { serveFunction } from '../scripts/lib/deno-function.ts';
import { importFixtureCatalogue } from '../scripts/lib/fixture-catalogue.ts';
import { withDatabase } from '../scripts/lib/database.ts';
import { httpLoad, nodeLoad } from './lib/drive.ts';
import { interleavedMedians } from './lib/measure.ts';
import type { Section } from './lib/section.ts';
import { loadGames, loadPlay, PLAYERS, SESSION_ROUNDS } from './reporting/data.ts';
import { type LoadResult, throughput } from './sessions/load.ts';
import { issueOperatorKeys } from './sessions/operators.ts';

const OPERATORS = 100;
/** Two round transactions a round: 10,000,000 in all (fewer with BENCH_REPORTS_ROUNDS, to try the section quickly). */
const ROUNDS_PER_OPERATOR = Number(process.env.BENCH_REPORTS_ROUNDS ?? 50_000);
const CONCURRENCY = 8;
const SECONDS = 10;
/** Operators whose reports are read, in turn. */
const READERS = 8;
/** The bet path: pairs at this concurrency over as many operators, rounds of SLICE_S a side after a warm-up. */
const BET_CONCURRENCY = 16;
const BET_ROUNDS = 5;
const SLICE_S = 2;
const TARGET = { p99Ms: 100, betRatio: 0.9 };
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;

export const reportsAtSize: Section = {
  name: 'reports',
  async run(cluster, log) {
    const url = await cluster.database('bench_reports');
    await importFixtureCatalogue(url);
    let admin = postgres(url, { max: 2, onnotice: () => {} });
    const today = new Date().toISOString().slice(0, 10);
    const dayMs = (days: number) => new Date(Date.parse(today) + days * 86_400_000).toISOString().slice(0, 10);
    let keys: string[];
    let providerHash: string;
    let sessions: string[];
    let generated: number;
    let rolledUp: number;
    try {
      keys = await issueOperatorKeys(admin, OPERATORS, 1, 'reports');
      const clients = await Promise.all(keys.map(async (key) =>
        (await admin<{ client_id: string }[]>`select client_id from public.api_key where key_hash = ${sha256Hex(key)}`)[0].client_id));
      await loadGames(admin);
      log(`reports: ${(2 * OPERATORS * ROUNDS_PER_OPERATOR).toLocaleString('en')} round transactions over ${OPERATORS} operators and a year`);
      let began = Date.now();
      await loadPlay(admin, clients, ROUNDS_PER_OPERATOR, new Date(Date.now() - 600_000), log);
      generated = Date.now() - began;
      log(`  generated in ${minutes(generated)}`);
      // Every operator's closed days rolled up, as the first report of each would.
      began = Date.now();
      for (const client of clients) await admin`select private.roll_up_ggr(${client}::uuid)`;
      rolledUp = Date.now() - began;
      log(`  closed days rolled up in ${minutes(rolledUp)}`);
      // The bet path's operators: a float and a live session each, in both databases alike.
      await admin`insert into public.wallet (client_id, currency_code) select unnest(${clients.slice(0, BET_CONCURRENCY)}::uuid[]), 'EUR'`;
      await admin`select public.record_transaction(w.client_id, 'EUR', 'deposit', 1e12) from public.wallet w`;
      const [{ key: providerKey }] = await admin<{ key: string }[]>`select key from public.issue_provider_key('pragmatic-play')`;
      providerHash = sha256Hex(providerKey);
      sessions = [];
      for (const key of keys.slice(0, BET_CONCURRENCY)) sessions.push(await newSession(admin, key));
    } finally {
      await admin.end();
    }

    // Reads, through the function.
    const served = await serveFunction({ databaseUrl: url });
    const rows: string[][] = [];
    const misses: string[] = [];
    try {
      const reads = [
        { name: `GET /v3/reports/ggr, a year by day and provider`, path: `/v3/reports/ggr?from=${dayMs(-364)}&to=${today}&group_by=day,provider` },
        { name: 'GET /v3/reconciliation/transactions, a day\'s first page', path: `/v3/reconciliation/transactions?date=${dayMs(-100)}` },
      ];
      for (const read of reads) {
        log(`  ${read.name}`);
        await load(served.url, keys.slice(0, READERS), read.path, 1); // warm-up
        const result = await load(served.url, keys.slice(0, READERS), read.path, SECONDS);
        const met = result.p99 < TARGET.p99Ms && !result.errors;
        if (!met) misses.push(`${read.name}: p99 ${result.p99.toFixed(1)} ms${result.errors ? `, ${result.errors} errors` : ''}`);
        rows.push([read.name, throughput(result).toFixed(0), `${result.p50.toFixed(1)} / ${result.p99.toFixed(1)} ms`,
          `p99 < ${TARGET.p99Ms} ms, no errors`, met ? 'met' : 'MISSED']);
      }
    } finally {
      await served.stop();
    }

    // The bet path: this database (reporting's index) against a copy with the engine's own index.
    log('  copying the database for the bet path without reporting');
    const plainUrl = withDatabase(url, 'bench_reports_plain');
    admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe('drop database if exists bench_reports_plain');
      await admin.unsafe('create database bench_reports_plain template bench_reports strategy file_copy');
    } finally {
      await admin.end();
    }
    admin = postgres(plainUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`drop index public.round_transaction_client_created_idx;
        create index round_transaction_client_id_idx on public.round_transaction (client_id);
        analyze public.round_transaction`);
    } finally {
      await admin.end();
    }
    const pools = {
      reporting: postgres(url, { max: BET_CONCURRENCY, onnotice: () => {} }),
      plain: postgres(plainUrl, { max: BET_CONCURRENCY, onnotice: () => {} }),
    };
    try {
      log(`  bet+win pairs, concurrency ${BET_CONCURRENCY}: ${BET_ROUNDS} rounds of ${SLICE_S} s a side`);
      let next = 0;
      let errors = 0;
      const pair = async (sql: Sql, n: number, caller: number) => {
        const round = `bench-${n}`;
        const session = sessions[caller % sessions.length];
        const [bet] = await sql`select outcome from private.round_bet(${providerHash}, ${session}::uuid, ${`${round}-b`}, ${round},
          ${'1'}::numeric, ${false}, ${sha256Hex(`${round}-b`)})`;
        const [win] = await sql`select outcome from private.round_win(${providerHash}, ${session}::uuid, ${`${round}-w`}, ${round},
          ${'1'}::numeric, ${true}, ${null}, ${sha256Hex(`${round}-w`)})`;
        if (bet.outcome !== 'ok' || win.outcome !== 'ok') throw new Error(`bet ${bet.outcome}, win ${win.outcome}`);
      };
      const side = (sql: Sql) => async (round: number) => {
        const result: LoadResult = await nodeLoad(BET_CONCURRENCY, SLICE_S, (caller) => pair(sql, next++, caller));
        if (round > 0) errors += result.errors;
        return 1000 / throughput(result);
      };
      const { medians } = await interleavedMedians({ warmup: 1, min: BET_ROUNDS, max: BET_ROUNDS, budgetMs: 0 },
        [side(pools.reporting), side(pools.plain)]);
      const ratio = medians[1] / medians[0];
      const met = ratio >= TARGET.betRatio && !errors;
      if (!met) misses.push(`bet path: ${ratio.toFixed(3)} of without${errors ? `, ${errors} errors` : ''}`);
      rows.push([`bet+win pairs/s, concurrency ${BET_CONCURRENCY} over ${BET_CONCURRENCY} operators: with reporting (without)`,
        `${(1000 / medians[0]).toFixed(0)} (${(1000 / medians[1]).toFixed(0)})`, `ratio ${ratio.toFixed(3)}`,
        `>= ${TARGET.betRatio} of without, no errors`, met ? 'met' : 'MISSED']);
    } finally {
      await Promise.all([pools.reporting.end(), pools.plain.end()]);
    }

    return {
      title: 'Reports at size',
      intro: [
        `${(2 * OPERATORS * ROUNDS_PER_OPERATOR).toLocaleString('en')} round transactions over ${OPERATORS} operators and the ` +
          `365 days before now (bench/reporting/data.ts: sessions of ${SESSION_ROUNDS} rounds of one player on one game, ` +
          `${PLAYERS.toLocaleString('en')} players an operator, 30 games over 3 providers, EUR and USD; a bet and a win or, one round ` +
          `in a hundred, a rollback), written set-based in ${minutes(generated)}; every operator's closed days then rolled up ` +
          `(${minutes(rolledUp)} for the ${OPERATORS}, as each one's first report would). Reads: ${SECONDS} s at concurrency ` +
          `${CONCURRENCY} after a 1 s warm-up, autocannon against the function under Deno, ${READERS} operators' keys in turn. ` +
          `Bet path: private.round_bet then private.round_win from Node, on this database and on a copy of it with the round ` +
          `transactions' client index as the engine had it, (client_id) instead of (client_id, created_at, id); the two take ` +
          `turns, ${BET_ROUNDS} rounds of ${SLICE_S} s a side after a warm-up, pairs/s the medians of the rounds. ` +
          `Targets: each read p99 < ${TARGET.p99Ms} ms; the bet path with reporting >= ${TARGET.betRatio} of without.`,
      ],
      table: { columns: ['case', 'req/s (pairs/s)', 'p50 / p99', 'target', 'verdict'], rows },
      notes: misses.map((miss) => `Missed: ${miss}`),
      targetsMet: misses.length === 0,
    };
  },
};

/** `seconds` of `path` at concurrency 8, each connection cycling through the operators' keys. */
function load(url: string, keys: string[], path: string, seconds: number): Promise<LoadResult> {
  const target = new URL(`${url}${path}`);
  const requests = keys.map((key) => ({ method: 'GET' as const, path: target.pathname + target.search, headers: { authorization: `Bearer ${key}` } }));
  return httpLoad(target.origin, requests, CONCURRENCY, seconds);
}

/** A live session of the operator's for one of the catalogue's games, made as POST /v3/sessions makes it. */
async function newSession(sql: Sql, key: string): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date();
  const [made] = await sql`
    select outcome from private.create_game_session(${sha256Hex(key)}, true, ${null}, ${null}, ${id}, 'bench-bettor',
      'pragmatic-play', 'vs20olympgate', 'EUR', ${null}, ${now}, ${new Date(now.getTime() + 3_600_000)}, ${null}::json)`;
  if (made.outcome !== 'created') throw new Error(`create_game_session: ${made.outcome}`);
  return id;
}
