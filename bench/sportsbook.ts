// The sportsbook on the round engine (issue 35), straight from Node with postgres.js (no HTTP), as
// the provider routes call it:
// - place + settle pairs (private.sportsbook_place one-phase, then private.sportsbook_settle with
//   the bet's payout, each its own transaction) against casino bet + win pairs (private.round_bet,
//   then private.round_win closing the round), taking turns at concurrency 16 over 100 operators;
// - one fixture's 10,000 open bets settled at concurrency 16 (a big match's final whistle): the
//   time from the first settlement to the last, and settlements per second.
// Every call runs again on a serialization failure, as the API runs it (rerunConflicts).
import postgres, { type Sql } from 'postgres';
import { importFixtureCatalogue } from '../scripts/lib/fixture-catalogue.ts';
import { rerunConflicts } from '../supabase/functions/_shared/database.ts';
import { newSession, operatorsWithFloats, sha256Hex } from './engine.ts';
import { nodeLoad } from './lib/drive.ts';
import { interleavedMedians } from './lib/measure.ts';
import type { Section } from './lib/section.ts';
import { throughput } from './sessions/load.ts';

const OPERATORS = 100;
const CONCURRENCY = 16;
const ROUNDS = 5;
const SLICE_S = 2;
const FIXTURE_BETS = 10_000;
// Place + settle pairs/s as a share of casino bet + win pairs/s; one fixture settled within.
const TARGET = { pairs: 0.8, fixtureSeconds: 10 };
const SELECTIONS = [{ event: 'Reds v Blues', market: '1X2', pick: '1' }];

type Side = 'sportsbook' | 'casino';

/** The first row's outcome of an engine call, run again on a serialization failure; throws unless ok. */
async function ok(call: () => Promise<{ outcome: string }[]>, what: string): Promise<void> {
  const [row] = await rerunConflicts(call);
  if (row.outcome !== 'ok') throw new Error(`${what}: ${row.outcome}`);
}

export const sportsbookPairs: Section = {
  name: 'sportsbook',
  async run(cluster, log) {
    const url = await cluster.database('bench_sportsbook');
    await importFixtureCatalogue(url);
    const admin = postgres(url, { max: 2, onnotice: () => {} });
    const pool = postgres(url, { max: CONCURRENCY, onnotice: () => {} });
    try {
      log(`sportsbook: ${OPERATORS} operators, a casino and a sportsbook session each`);
      const { operatorKeys, providerHash } = await operatorsWithFloats(admin, OPERATORS);
      await admin`insert into public.game (provider_id, code, name, category)
                  select id, 'bench-sportsbook', 'Bench Sportsbook', 'sportsbook' from public.game_provider where slug = 'pragmatic-play'`;
      const casino: string[] = [];
      const book: string[] = [];
      for (const key of operatorKeys) {
        casino.push(await newSession(admin, key, 0));
        book.push(await newSession(admin, key, 0, 'bench-sportsbook'));
      }

      const place = (sql: Sql, n: number) => {
        const [bet, tx, session] = [`sb${n}`, `sb${n}-p`, book[n % OPERATORS]];
        return ok(() => sql<{ outcome: string }[]>`select outcome from private.sportsbook_place(${providerHash}, ${session}::uuid,
          ${bet}, ${tx}, ${'1'}::numeric, ${'2'}::numeric, ${'2'}::numeric, ${sql.json(SELECTIONS)}, ${false},
          ${sha256Hex(tx)})`, 'sportsbook_place');
      };
      const settle = (sql: Sql, n: number, payout: string) => {
        const [bet, tx] = [`sb${n}`, `sb${n}-s`];
        return ok(() => sql<{ outcome: string }[]>`select outcome from private.sportsbook_settle(${providerHash}, ${bet}, ${tx},
          ${payout === '0' ? 'lost' : 'won'}, ${payout}::numeric, ${sha256Hex(tx)})`, 'sportsbook_settle');
      };
      const pairs: Record<Side, (n: number) => Promise<void>> = {
        sportsbook: async (n) => {
          await place(pool, n);
          await settle(pool, n, n % 2 ? '2' : '0');
        },
        casino: async (n) => {
          const [round, session] = [`c${n}`, casino[n % OPERATORS]];
          await ok(() => pool<{ outcome: string }[]>`select outcome from private.round_bet(${providerHash}, ${session}::uuid,
            ${`${round}-b`}, ${round}, ${'1'}::numeric, ${false}, ${sha256Hex(`${round}-b`)})`, 'round_bet');
          await ok(() => pool<{ outcome: string }[]>`select outcome from private.round_win(${providerHash}, ${session}::uuid,
            ${`${round}-w`}, ${round}, ${n % 2 ? '2' : '0'}::numeric, ${true}, ${null}, ${sha256Hex(`${round}-w`)})`, 'round_win');
        },
      };

      let next = 0;
      let errors = 0;
      const side = (name: Side) => async (round: number) => {
        const result = await nodeLoad(CONCURRENCY, SLICE_S, () => pairs[name](next++));
        if (round > 0) errors += result.errors;
        return 1000 / throughput(result);
      };
      log(`  place+settle against bet+win, concurrency ${CONCURRENCY}: ${ROUNDS} rounds of ${SLICE_S} s a side`);
      const { medians } = await interleavedMedians({ warmup: 1, min: ROUNDS, max: ROUNDS, budgetMs: 0 },
        [side('sportsbook'), side('casino')]);
      const [bookPairs, casinoPairs] = medians.map((ms) => 1000 / ms);

      log(`  one fixture: ${FIXTURE_BETS} open bets, settled at concurrency ${CONCURRENCY}`);
      const first = next;
      next += FIXTURE_BETS;
      const share = async (work: (n: number) => Promise<void>) => {
        let taken = 0;
        await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
          while (taken < FIXTURE_BETS) await work(first + taken++);
        }));
      };
      await share((n) => place(pool, n));
      const started = performance.now();
      // The fixture's result: every other bet won (its potential payout), the rest lost.
      await share((n) => settle(pool, n, n % 2 ? '2' : '0'));
      const seconds = (performance.now() - started) / 1000;
      const [{ open }] = await admin`select count(*)::int as open from public.sportsbook_bet b
        join public.game_round r on r.id = b.round_id where r.provider_round_id like 'sb%' and b.status = 'open'`;

      const ratio = bookPairs / casinoPairs;
      const pairsMet = ratio >= TARGET.pairs && errors === 0;
      const fixtureMet = seconds < TARGET.fixtureSeconds && open === 0;
      const notes = [
        ...(pairsMet ? [] : [`Missed: place+settle pairs: ${ratio.toFixed(3)} of bet+win (target >= ${TARGET.pairs}), ${errors} errors`]),
        ...(fixtureMet ? [] : [`Missed: one fixture's ${FIXTURE_BETS} bets: ${seconds.toFixed(1)} s, ${open} left open (target < ${TARGET.fixtureSeconds} s, none open)`]),
      ];
      return {
        title: 'The sportsbook on the engine',
        intro: [
          'Straight from Node (postgres.js, no HTTP), as the provider routes call the engine, each call its own transaction ' +
            'and run again on a serialization failure. Pairs: a one-phase place then a settlement (half won at odds 2, half ' +
            `lost), against a casino bet then a win closing its round, concurrency ${CONCURRENCY}, pair n on operator n mod ` +
            `${OPERATORS} (a EUR float each); the sides take turns, ${ROUNDS} rounds of ${SLICE_S} s after a warm-up round, ` +
            `medians of the rounds. Fixture: ${FIXTURE_BETS} open bets over the ${OPERATORS} operators, then every one ` +
            `settled at concurrency ${CONCURRENCY}, timed from the first settlement to the last.`,
        ],
        table: {
          columns: ['figure', 'measured', 'target', 'verdict'],
          rows: [
            [`place+settle pairs/s, concurrency ${CONCURRENCY}`, bookPairs.toFixed(0), '-', 'reported'],
            [`casino bet+win pairs/s, concurrency ${CONCURRENCY}`, casinoPairs.toFixed(0), '-', 'reported'],
            ['place+settle / bet+win', ratio.toFixed(3), `>= ${TARGET.pairs}, no errors`,
              (pairsMet ? 'met' : 'MISSED') + (errors ? `; ${errors} errors` : '')],
            [`one fixture's ${FIXTURE_BETS} bets settled, s`, seconds.toFixed(2), `< ${TARGET.fixtureSeconds}, none left open`,
              fixtureMet ? 'met' : 'MISSED'],
            ['settlements/s', (FIXTURE_BETS / seconds).toFixed(0), '-', 'reported'],
          ],
        },
        notes,
        targetsMet: pairsMet && fixtureMet,
      };
    } finally {
      await Promise.all([admin.end(), pool.end()]);
    }
  },
};
