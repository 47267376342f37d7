// Free rounds (issue 34), through the function under Deno as `npm start` serves it:
// - free bet+win pairs against paid bet+win pairs, through the provider API at concurrency 16, in
//   one run: the same players, sessions and game, each connection a player sending a bet, then the
//   win closing its round. Paid: a bet of 1 from the operator's float, a win of 1. Free: a bet of
//   the grant's stake naming the player's grant (one round used, no money), a win of 1 (per round:
//   credited to the float). The two take turns in short slices, each going first as often, so drift
//   on a shared machine hits both alike. Target: free at least 0.9 of paid, zero errors, and one
//   round transaction written per 200 answer.
// - a campaign made for 1,000 players (POST /v3/free-rounds/campaigns with 1,000 player_ids: the
//   campaign, 1,000 grants and their 1,000 free_rounds.grant.created events in one transaction),
//   timed from the request to its 201, a few times: under 1 s. Adding 1,000 players to a campaign
//   (POST .../players) is timed beside it and reported.
import postgres from 'postgres';
import { importFixtureCatalogue } from '../scripts/lib/fixture-catalogue.ts';
import { serveFunction } from '../scripts/lib/deno-function.ts';
import { httpLoad } from './lib/drive.ts';
import { median } from './lib/measure.ts';
import type { Section } from './lib/section.ts';
import { combine, type LoadResult, throughput } from './sessions/load.ts';
import { issueOperatorKeys } from './sessions/operators.ts';

const OPERATORS = 16;
const PLAYERS = 4;
const CONCURRENCY = 16;
const GAME = 'pragmatic-play:vs20olympgate';
/** Slices of each side after one warm-up slice each, SLICE_S seconds a slice. */
const SLICES = 4;
const SLICE_S = 3;
/** Campaigns of 1,000 players made (after one warm-up), and additions of 1,000 players. */
const CAMPAIGNS = 5;
const TARGET = { ratio: 0.9, campaignMs: 1000 };

interface Player {
  key: string;
  playerId: string;
  token: string;
}

export const freeRoundsBench: Section = {
  name: 'free-rounds',
  async run(cluster, log) {
    const url = await cluster.database('bench_free_rounds');
    await importFixtureCatalogue(url);
    const admin = postgres(url, { max: 2, onnotice: () => {} });
    const served = await serveFunction({ databaseUrl: url });
    try {
      // The game takes free rounds of 1 EUR, up to 1,000 a grant (what a slice of a fast machine could use).
      await admin`insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
                  select g.id, 'per_round', 1000, 30, '{"EUR": [1]}'::jsonb from public.game g
                  join public.game_provider gp on gp.id = g.provider_id where gp.slug || ':' || g.code = ${GAME}`;
      log(`free rounds: ${OPERATORS} operators, ${PLAYERS} players each`);
      const keys = await issueOperatorKeys(admin, OPERATORS, 1, 'free-rounds');
      await admin`insert into public.wallet (client_id, currency_code) select client_id, 'EUR' from public.api_key`;
      await admin`select public.record_transaction(client_id, 'EUR', 'deposit', 1e12) from public.api_key`;
      const [{ key: providerKey }] = await admin`select key from public.issue_provider_key('pragmatic-play')`;
      const players: Player[] = [];
      for (let n = 0; n < PLAYERS; n++) {
        for (const key of keys) players.push({ key, playerId: `bench-player-${n}`, token: await launch(served.url, key, `bench-player-${n}`) });
      }

      // Each free slice plays grants of a campaign of its own: rounds enough for the slice, and a
      // grant left in play by one slice never meets the next.
      let campaigns = 0;
      const grantsForSlice = async (): Promise<string[]> => {
        const tag = `slice-${campaigns++}`;
        const grantOf = new Map<string, string>();
        for (const key of keys) {
          const made = await post(served.url, key, '/v3/free-rounds/campaigns', {
            external_id: tag, name: 'Bench', game_ids: [GAME], currency: 'EUR', bet_amount: '1', rounds: 1000,
            valid_until: new Date(Date.now() + 86_400_000).toISOString(),
            player_ids: Array.from({ length: PLAYERS }, (_, n) => `bench-player-${n}`),
          });
          const grants = await admin<{ id: string; player_id: string }[]>`select id, player_id from public.free_round_grant where campaign_id = ${made.id}`;
          for (const g of grants) grantOf.set(`${key} ${g.player_id}`, g.id);
        }
        return players.map((p) => grantOf.get(`${p.key} ${p.playerId}`)!);
      };
      const rows = async () => (await admin`select count(*)::int as n from public.round_transaction`)[0].n as number;
      let run = 0;
      const slice = async (free: boolean) => {
        const grants = free ? await grantsForSlice() : null;
        const before = await rows();
        const result = await pairs(served.url, providerKey, players, grants, `${free ? 'free' : 'paid'}-${run++}`);
        return { result, written: (await rows()) - before };
      };

      log(`  paid and free bet+win pairs, concurrency ${CONCURRENCY}, ${SLICES} slices of ${SLICE_S} s each, taking turns`);
      await slice(false);
      await slice(true);
      const taken: Record<'paid' | 'free', { result: LoadResult; written: number }[]> = { paid: [], free: [] };
      for (let n = 0; n < SLICES; n++) {
        for (const free of n % 2 ? [true, false] : [false, true]) taken[free ? 'free' : 'paid'].push(await slice(free));
      }
      const paid = combine(taken.paid.map((s) => s.result));
      const free = combine(taken.free.map((s) => s.result));
      const written = { paid: taken.paid.reduce((a, s) => a + s.written, 0), free: taken.free.reduce((a, s) => a + s.written, 0) };
      const ratio = throughput(free) / throughput(paid);
      const pairMisses = [
        ...(free.errors || paid.errors ? [`${free.errors} free and ${paid.errors} paid errors`] : []),
        ...(written.free !== free.ok ? [`${written.free} rows for ${free.ok} free answers`] : []),
        ...(written.paid !== paid.ok ? [`${written.paid} rows for ${paid.ok} paid answers`] : []),
        ...(ratio < TARGET.ratio ? [`free pairs at ${ratio.toFixed(2)} of paid < ${TARGET.ratio}`] : []),
      ];
      // The ratio of each slice pair, to show how much the machine moved under the two.
      const sliceRatios = taken.free.map((s, n) => (throughput(s.result) / throughput(taken.paid[n].result)).toFixed(2));

      log(`  campaigns for 1,000 players (${CAMPAIGNS} after a warm-up), and 1,000 players added to one`);
      const thousand = (prefix: string) => Array.from({ length: 1000 }, (_, n) => `${prefix}-${n}`);
      const campaignMs: number[] = [];
      const addMs: number[] = [];
      for (let n = 0; n <= CAMPAIGNS; n++) {
        const key = keys[n % keys.length];
        const start = performance.now();
        const made = await post(served.url, key, '/v3/free-rounds/campaigns', {
          external_id: `thousand-${n}`, name: 'Bench 1,000', game_ids: [GAME], currency: 'EUR', bet_amount: '1', rounds: 10,
          valid_until: new Date(Date.now() + 7 * 86_400_000).toISOString(), player_ids: thousand(`c${n}`),
        });
        const took = performance.now() - start;
        if (made.grants.pending !== 1000) throw new Error(`campaign ${n}: ${made.grants.pending} grants`);
        const addStart = performance.now();
        const added = await post(served.url, key, `/v3/free-rounds/campaigns/${made.id}/players`, { player_ids: thousand(`a${n}`) }, 200);
        const addTook = performance.now() - addStart;
        if (added.created !== 1000) throw new Error(`players added ${n}: ${added.created}`);
        if (n > 0) {
          campaignMs.push(took);
          addMs.push(addTook);
        }
      }
      const campaignMedian = median(campaignMs);
      const campaignMissed = campaignMedian >= TARGET.campaignMs;

      const misses = [
        ...(pairMisses.length ? [`free bet+win pairs: ${pairMisses.join('; ')}`] : []),
        ...(campaignMissed ? [`a 1,000-player campaign took ${campaignMedian.toFixed(0)} ms (median) >= ${TARGET.campaignMs}`] : []),
      ];
      const table = [
        [`paid bet+win pairs, concurrency ${CONCURRENCY}`, throughput(paid).toFixed(0), '-', `${paid.p50.toFixed(2)} / ${paid.p99.toFixed(2)}`,
          `${paid.errors}`, `${written.paid} / ${paid.ok}`, 'reference'],
        [`free bet+win pairs, concurrency ${CONCURRENCY}`, throughput(free).toFixed(0), `${ratio.toFixed(2)} (slices: ${sliceRatios.join(', ')})`,
          `${free.p50.toFixed(2)} / ${free.p99.toFixed(2)}`, `${free.errors}`, `${written.free} / ${free.ok}`,
          pairMisses.length ? 'MISSED' : `met (>= ${TARGET.ratio})`],
        ['POST /v3/free-rounds/campaigns, 1,000 players', '-', '-',
          `${campaignMedian.toFixed(0)} / ${Math.max(...campaignMs).toFixed(0)} (median / max of ${CAMPAIGNS})`, '0', '-',
          campaignMissed ? 'MISSED' : `met (< ${TARGET.campaignMs} ms)`],
        ['POST .../campaigns/{id}/players, 1,000 players', '-', '-',
          `${median(addMs).toFixed(0)} / ${Math.max(...addMs).toFixed(0)} (median / max of ${CAMPAIGNS})`, '0', '-', 'reported'],
      ];
      return {
        title: 'Free rounds (provider API pairs, and campaigns of 1,000 players)',
        intro: [
          `${OPERATORS} operators with a EUR float each and ${PLAYERS} sessions each on ${GAME} (free rounds per round, a stake of 1), ` +
            `one provider key, through the function under Deno. Paid pairs: a bet of 1 and a win of 1 closing its round. Free pairs: ` +
            'the same with the bet naming the player\'s grant (one round used, no money moved), the win credited to the float. ' +
            `The two take turns in ${SLICES} slices of ${SLICE_S} s each (after a warm-up slice each), each going first as often; each ` +
            'free slice plays a campaign of its own. Targets: free pairs at least ' +
            `${TARGET.ratio} of paid pairs' throughput, zero errors, round transactions written = 200 answers; a campaign for 1,000 ` +
            `players (one request: the campaign, its 1,000 grants and their created events) answered in under ${TARGET.campaignMs} ms, ` +
            `the median of ${CAMPAIGNS} after a warm-up. Latencies in ms.`,
        ],
        table: {
          columns: ['case', 'pairs req/s', 'free / paid', 'p50 / p99 ms', 'errors', 'rows / 200s', 'target'],
          rows: table,
        },
        notes: misses.map((miss) => `Missed: ${miss}`),
        targetsMet: misses.length === 0,
      };
    } finally {
      await served.stop();
      await admin.end();
    }
  },
};

async function post(url: string, key: string, path: string, body: object, status = 201) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (response.status !== status) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function launch(url: string, key: string, playerId: string): Promise<string> {
  const session = await post(url, key, '/v3/sessions', { player_id: playerId, game_id: GAME, currency: 'EUR' });
  return new URL(session.launch_url).searchParams.get('token')!;
}

/**
 * Each connection a player (connection n plays players[n], one operator each for the first 16):
 * a bet of 1 (naming the player's grant when `grants` is given), then a win of 1 closing the round.
 */
function pairs(url: string, providerKey: string, players: Player[], grants: string[] | null, tag: string): Promise<LoadResult> {
  let connections = 0;
  const headers = { authorization: `Bearer ${providerKey}`, 'content-type': 'application/json' };
  const { origin, pathname } = new URL(url);
  const prefix = pathname.replace(/\/$/, '');
  const step = (path: string, body: (c: Record<string, number>, n: number) => object) => ({
    method: 'POST' as const,
    path: `${prefix}/v3/provider/${path}`,
    setupRequest: (request: object, context: unknown) => {
      const c = context as Record<string, number>;
      c.connection ??= connections++;
      return { ...request, headers, body: JSON.stringify(body(c, c.connection % players.length)) };
    },
  });
  return httpLoad(origin, [
    step('bets', (c, n) => {
      c.round = (c.round ?? 0) + 1;
      return {
        session_token: players[n].token, transaction_id: `${tag}-${c.connection}-${c.round}-b`, round_id: `${tag}-${c.connection}-${c.round}`,
        amount: '1', ...(grants ? { free_round_grant_id: grants[n] } : {}),
      };
    }),
    step('wins', (c, n) => ({
      session_token: players[n].token, transaction_id: `${tag}-${c.connection}-${c.round}-w`, round_id: `${tag}-${c.connection}-${c.round}`,
      amount: '1', round_closed: true,
    })),
  ], CONCURRENCY, SLICE_S);
}
