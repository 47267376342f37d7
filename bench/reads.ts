// The operator's reads under load, served by Deno as `npm start` serves them:
// - GET /v3/games, first page and a filtered page, over a catalogue of 20,000 games, against its
//   floor (the same database call from Node with the function's pool): at least 0.6 of the floor's
//   throughput at concurrency 16, p99 under 25 ms;
// - GET /v3/transactions of one client among 1,000,000 transactions, page 1 and page 100 by cursor:
//   p99 under 25 ms both (keyset pages cost the same however deep).
import postgres, { type Sql } from 'postgres';
import { serveFunction } from '../scripts/lib/deno-function.ts';
import { connectDatabase, databaseDefaults } from '../supabase/functions/_shared/database.ts';
import { sha256Hex } from '../supabase/functions/v3/sha256.ts';
import { httpLoad, nodeLoad } from './lib/drive.ts';
import { interleavedMedians } from './lib/measure.ts';
import type { Section } from './lib/section.ts';
import { loadData } from './rls/data.ts';
import { combine, type LoadResult, throughput } from './sessions/load.ts';
import { issueOperatorKeys } from './sessions/operators.ts';

const GAMES = 20_000;
const HEAVY_CLIENT_TRANSACTIONS = 6_000; // page 100 of 50 needs 5,000 before it
const CONCURRENCY = 16;
/** Rounds of each case after one warm-up round, each side SLICE_S seconds a round. */
const ROUNDS = 5;
const SLICE_S = 1;
const TARGET = { ratio: 0.6, p99Ms: 25 };

interface Case {
  name: string;
  path: string;
  /** The same database call the handler makes, for the floor; none for the transaction pages. */
  floor?: (sql: Sql, keyHash: string) => Promise<unknown>;
}

export const operatorReads: Section = {
  name: 'reads',
  async run(cluster, log) {
    const url = await cluster.database('bench_reads');
    log(`reads: loading ${GAMES} games and 1,000,000 transactions`);
    await loadData(url, () => {});
    const admin = postgres(url, { max: 2, onnotice: () => {} });
    const floorSql = connectDatabase(url, { ...databaseDefaults, applicationName: 'bench-reads-floor' });
    const served = await serveFunction({ databaseUrl: url });
    try {
      await loadCatalogue(admin);
      const [key] = await issueOperatorKeys(admin, 1, 1);
      await heavyLedger(admin, key);
      const keyHash = sha256Hex(key);
      const page100 = await cursorAt(served.url, key, '/v3/transactions?limit=50', 99);
      const cases: Case[] = [
        { name: 'GET /v3/games (first page of 50)', path: '/v3/games',
          floor: (sql, hash) => sql`select * from private.list_games(${hash}, null, null, null, null, null, null, null, 51)` },
        { name: 'GET /v3/games?category=slots&currency=EUR&country=MT', path: '/v3/games?category=slots&currency=EUR&country=MT',
          // The handler's statement: the filters' reference check rides in it.
          floor: (sql, hash) => sql`select g.*, (select private.reference_problems('EUR', 'MT')) as problems
            from private.list_games(${hash}, null, 'slots', 'EUR', 'MT', null, null, null, 51) g` },
        { name: 'GET /v3/transactions, page 1', path: '/v3/transactions?limit=50' },
        { name: 'GET /v3/transactions, page 100', path: `/v3/transactions?limit=50&cursor=${page100}` },
      ];
      const rows: string[][] = [];
      const misses: string[] = [];
      for (const c of cases) {
        log(`  ${c.name}`);
        // Endpoint and floor take turns in short rounds, so a slow spell of the shared machine falls
        // on both; the ratio is of the medians, latencies over every endpoint round.
        const runs: { endpoint: LoadResult[]; floor: LoadResult[] } = { endpoint: [], floor: [] };
        const side = (name: 'endpoint' | 'floor') => async (round: number) => {
          const result = name === 'endpoint' ? await load(served.url, key, c.path, SLICE_S) : await floorLoad(floorSql, keyHash, c.floor!, SLICE_S);
          if (round > 0) runs[name].push(result);
          return 1000 / throughput(result);
        };
        const { medians } = await interleavedMedians({ warmup: 1, min: ROUNDS, max: ROUNDS, budgetMs: 0 },
          c.floor ? [side('endpoint'), side('floor')] : [side('endpoint')]);
        const endpoint = combine(runs.endpoint);
        const floor = c.floor ? combine(runs.floor) : undefined;
        const ratio = c.floor ? medians[1] / medians[0] : undefined;
        const missed = [
          ...(endpoint.errors ? [`${endpoint.errors} errors`] : []),
          ...(endpoint.p99 >= TARGET.p99Ms ? [`p99 ${endpoint.p99.toFixed(1)} ms >= ${TARGET.p99Ms}`] : []),
          ...(ratio !== undefined && ratio < TARGET.ratio ? [`ratio ${ratio.toFixed(2)} < ${TARGET.ratio}`] : []),
        ];
        if (missed.length) misses.push(`${c.name}: ${missed.join('; ')}`);
        rows.push([
          c.name, (1000 / medians[0]).toFixed(0), c.floor ? (1000 / medians[1]).toFixed(0) : '-', ratio?.toFixed(2) ?? '-',
          `${endpoint.p50.toFixed(2)} / ${endpoint.p99.toFixed(2)}`, floor ? `${floor.p50.toFixed(2)} / ${floor.p99.toFixed(2)}` : '-',
          String(endpoint.errors), missed.length ? 'MISSED' : 'met',
        ]);
      }
      return {
        title: 'Operator reads',
        intro: [
          `${GAMES.toLocaleString('en')} games over the 12 providers; 1,000,000 transactions over 10,000 clients, and ` +
            `${HEAVY_CLIENT_TRANSACTIONS.toLocaleString('en')} for the client whose ledger is paged. Each case: ` +
            `concurrency ${CONCURRENCY}, autocannon against the function under Deno; the floor is the handler's database ` +
            'call straight from Node with the function\'s pool. Endpoint and floor take turns, ' +
            `${ROUNDS} rounds of ${SLICE_S} s a side after a warm-up round; the ratio is of the rounds' median rates, ` +
            'latencies over all the endpoint\'s rounds. ' +
            `Targets: games ratio >= ${TARGET.ratio}; every case p99 < ${TARGET.p99Ms} ms, zero errors.`,
        ],
        table: {
          columns: ['case', 'endpoint req/s', 'floor req/s', 'ratio', 'endpoint p50 / p99 ms', 'floor p50 / p99 ms', 'errors', 'target'],
          rows,
        },
        notes: misses.map((miss) => `Missed: ${miss}`),
        targetsMet: misses.length === 0,
      };
    } finally {
      await served.stop();
      await Promise.all([admin.end(), floorSql.end()]);
    }
  },
};

/** 20,000 active games spread over the 12 providers, a quarter of them slots playing in EUR. */
async function loadCatalogue(sql: Sql): Promise<void> {
  await sql`
    insert into public.game (provider_id, code, name, category, currencies, restricted_countries)
    select gp.id, 'bench-' || n, 'Bench Game ' || n, (array['slots', 'live_casino', 'crash', 'table_games'])[n % 4 + 1],
           case when n % 3 = 0 then array['EUR', 'USD'] else '{}' end, case when n % 7 = 0 then array['MT'] else '{}' end
    from generate_series(1, ${GAMES}) n
    join public.game_provider gp on gp.sort_order = n % 12 + 1`;
  await sql`analyze public.game, private.game_listing`;
}

/** The benchmark client's wallet and ledger, recorded in bulk (the ledger function's rules are tested elsewhere). */
async function heavyLedger(sql: Sql, key: string): Promise<void> {
  const [{ client_id }] = await sql`select client_id from public.api_key where key_hash = ${sha256Hex(key)}`;
  await sql`insert into public.wallet (client_id, currency_code, balance) values (${client_id}, 'EUR', ${HEAVY_CLIENT_TRANSACTIONS})`;
  await sql`
    insert into public.transaction (client_id, type, currency_code, amount, balance_after)
    select ${client_id}, 'deposit', 'EUR', 1, n from generate_series(1, ${HEAVY_CLIENT_TRANSACTIONS}) n`;
  await sql`analyze public.transaction`;
}

/** Follows next_cursor `pages` times from `path`, as an operator paging would. */
async function cursorAt(url: string, key: string, path: string, pages: number): Promise<string> {
  let cursor = '';
  for (let i = 0; i < pages; i++) {
    const response = await fetch(`${url}${path}${cursor ? `&cursor=${cursor}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
    const body = await response.json();
    if (!body.next_cursor) throw new Error(`${path} has fewer than ${pages + 1} pages`);
    cursor = body.next_cursor;
  }
  return cursor;
}

function load(url: string, key: string, path: string, seconds: number): Promise<LoadResult> {
  const target = new URL(`${url}${path}`);
  const request = { method: 'GET', path: target.pathname + target.search, headers: { authorization: `Bearer ${key}` } };
  return httpLoad(target.origin, [request], CONCURRENCY, seconds);
}

function floorLoad(sql: Sql, keyHash: string, call: NonNullable<Case['floor']>, seconds: number): Promise<LoadResult> {
  return nodeLoad(CONCURRENCY, seconds, () => call(sql, keyHash));
}
