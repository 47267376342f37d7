// Game rounds through the provider API, served by Deno as `npm start` serves it:
// - bet+win pairs (each connection a player: a bet, then the win closing its round) at concurrency
//   16 and 64, in transfer mode and in seamless mode (each bet and win a signed call to the
//   reference operator wallet, on loopback), against the floor (the same engine calls, and wallet
//   calls, from Node with the function's pool): at least 0.6 of the floor, p99 under 25 ms, zero
//   errors, and one round transaction per 200;
// - the hot float: 64 players betting at once for 1, 10 and 100 operators (a float per operator and
//   currency, one wallet row each): how far one row's lock holds an operator back. Reported.
import type { Request } from 'autocannon';
import postgres, { type Sql } from 'postgres';
import { importFixtureCatalogue } from '../scripts/lib/fixture-catalogue.ts';
import { serveFunction } from '../scripts/lib/deno-function.ts';
import { connectDatabase, databaseDefaults } from '../supabase/functions/_shared/database.ts';
import { sha256Hex } from '../supabase/functions/v3/sha256.ts';
import { makeWalletCall } from '../supabase/functions/_shared/wallet-call.ts';
import { startReferenceWallet } from '../tests/helpers/reference-wallet.ts';
import { httpLoad, nodeLoad } from './lib/drive.ts';
import type { Section } from './lib/section.ts';
import { type LoadResult, throughput } from './sessions/load.ts';
import { issueOperatorKeys } from './sessions/operators.ts';

const OPERATORS = 100;
const PLAYERS = 64;
const SECONDS = 5;
const TARGET = { ratio: 0.6, p99Ms: 25 };
// Limits on the bet path may cost at most this share of its throughput.
const LIMITS_COST = 0.1;

interface Player {
  token: string;
  sessionId: string;
}

export const gameRounds: Section = {
  name: 'rounds',
  async run(cluster, log) {
    const url = await cluster.database('bench_rounds');
    await importFixtureCatalogue(url);
    const admin = postgres(url, { max: 2, onnotice: () => {} });
    const floorSql = connectDatabase(url, { ...databaseDefaults, applicationName: 'bench-rounds-floor' });
    const served = await serveFunction({ databaseUrl: url, env: { ALLOW_PRIVATE_URLS: 'true' } });
    // One wallet for every seamless operator: their secrets are set to its one below.
    const secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
    const wallet = await startReferenceWallet(secret, '1000000000000');
    try {
      log(`rounds: ${OPERATORS} operators, ${PLAYERS} players each`);
      const operatorKeys = await issueOperatorKeys(admin, OPERATORS, 1);
      await admin`
        insert into public.wallet (client_id, currency_code) select client_id, 'EUR' from public.api_key`;
      await admin`select public.record_transaction(client_id, 'EUR', 'deposit', 1e12) from public.api_key`;
      const [{ key: providerKey }] = await admin`select key from public.issue_provider_key('pragmatic-play')`;
      const seamlessKeys = await issueOperatorKeys(admin, OPERATORS, 1, 'seamless');
      await admin`select private.change_wallet_settings(client_id, true, 'seamless', ${wallet.url}, false)
                  from public.api_key where key_prefix like 'cgs_live_%' and client_id in (
                    select id from auth.users where email like 'seamless%')`;
      await admin`update private.wallet_secret set secret = ${secret}`;
      // players[operator][n]: each operator's sessions, made as an operator makes them.
      const sessionsOf = (keys: string[]) => Promise.all(keys.map(async (key) => {
        const made: Player[] = [];
        for (let n = 0; n < PLAYERS; n++) made.push(await newSession(served.url, key, n));
        return made;
      }));
      const [players, seamlessPlayers] = [await sessionsOf(operatorKeys), await sessionsOf(seamlessKeys)];
      const playerOf = (operators: number, of = players) => (n: number) => of[n % operators][Math.floor(n / operators) % PLAYERS];

      let run = 0;
      const endpoint = (concurrency: number, operators: number, of = players) =>
        betsAndWins(served.url, providerKey, concurrency, playerOf(operators, of), `r${run++}`);
      const floor = (concurrency: number, operators: number, of = players) =>
        floorBetsAndWins(floorSql, sha256Hex(providerKey), concurrency, playerOf(operators, of), `f${run++}`);
      const rows = async () => (await admin`select count(*)::int as n from public.round_transaction`)[0].n as number;

      const table: string[][] = [];
      const misses: string[] = [];
      for (const [mode, of] of [['transfer', players], ['seamless', seamlessPlayers]] as const) {
        for (const concurrency of [16, 64]) {
          log(`  ${mode}: bet+win pairs, concurrency ${concurrency}`);
          await endpoint(concurrency, OPERATORS, of); // warm-up
          const before = await rows();
          const served_ = await endpoint(concurrency, OPERATORS, of);
          const written = (await rows()) - before;
          const base = await floor(concurrency, OPERATORS, of);
          const ratio = throughput(served_) / throughput(base);
          const missed = [
            ...(served_.errors ? [`${served_.errors} errors`] : []),
            ...(written !== served_.ok ? [`${written} rows for ${served_.ok} answers`] : []),
            ...(served_.p99 >= TARGET.p99Ms ? [`p99 ${served_.p99.toFixed(1)} ms >= ${TARGET.p99Ms}`] : []),
            ...(ratio < TARGET.ratio ? [`ratio ${ratio.toFixed(2)} < ${TARGET.ratio}`] : []),
          ];
          if (missed.length) misses.push(`${mode}, concurrency ${concurrency}: ${missed.join('; ')}`);
          table.push([
            `${mode}: bet+win, concurrency ${concurrency}, ${OPERATORS} operators`, throughput(served_).toFixed(0),
            throughput(base).toFixed(0), ratio.toFixed(2), `${served_.p50.toFixed(2)} / ${served_.p99.toFixed(2)}`,
            `${base.p50.toFixed(2)} / ${base.p99.toFixed(2)}`, `${served_.errors}`, `${written} / ${served_.ok}`,
            missed.length ? 'MISSED' : 'met',
          ]);
        }
      }
      // Responsible gaming on the bet path: every player of the transfer operators gets loss limits
      // (day, week, month) and a stake limit, none of which these bets reach; the same pairs before
      // and after, back to back in this run.
      log('  bet+win pairs, concurrency 16, without and with limits');
      const unlimited = await endpoint(16, OPERATORS);
      await admin`
        insert into public.player_restriction (client_id, livemode, player_id, loss_limits, stake_limits)
        select client_id, true, 'bench-player-' || n,
               '{"EUR": {"day": "1000000000000", "week": "1000000000000", "month": "1000000000000"}}', '{"EUR": "1000"}'
        from public.api_key, generate_series(0, ${PLAYERS - 1}) n
        where client_id not in (select id from auth.users where email like 'seamless%')`;
      await endpoint(16, OPERATORS); // warm-up
      const limited = await endpoint(16, OPERATORS);
      const limitsRatio = throughput(limited) / throughput(unlimited);
      const limitsMissed = limitsRatio < 1 - LIMITS_COST || limited.errors > 0;
      if (limitsMissed) misses.push(`limits: ${limitsRatio.toFixed(2)} of the throughput without, < ${1 - LIMITS_COST}`);
      table.push([
        'transfer: bet+win, concurrency 16, with loss and stake limits', throughput(limited).toFixed(0),
        `${throughput(unlimited).toFixed(0)} (without)`, limitsRatio.toFixed(2), `${limited.p50.toFixed(2)} / ${limited.p99.toFixed(2)}`,
        `${unlimited.p50.toFixed(2)} / ${unlimited.p99.toFixed(2)}`, `${limited.errors}`, '-', limitsMissed ? 'MISSED' : 'met',
      ]);
      for (const operators of [1, 10, 100]) {
        log(`  hot float: ${PLAYERS} players over ${operators} operator(s)`);
        const result = await endpoint(PLAYERS, operators);
        table.push([
          `hot float: ${PLAYERS} players, ${operators} operator(s)`, throughput(result).toFixed(0), '-', '-',
          `${result.p50.toFixed(2)} / ${result.p99.toFixed(2)}`, '-', `${result.errors}`, '-',
          `reported (${(throughput(result) / 2).toFixed(0)} bets/s)`,
        ]);
      }
      return {
        title: 'Game rounds (provider API, transfer and seamless modes)',
        intro: [
          `${OPERATORS} operators with a EUR float each, ${OPERATORS} more in seamless mode (the reference operator wallet, ` +
            `a Node server on loopback in the bench's own process), ${PLAYERS} sessions each, one provider key. Each connection is a ` +
            'player sending a bet, then the win that closes its round, and again, through the function under Deno; ' +
            'the floor is the same two engine calls (private.round_bet, round_win, and in seamless mode the wallet call ' +
            `and private.finish_wallet_call) from Node with the function's pool. Each case ${SECONDS} s after a warm-up; every request sent is answered. Targets: ratio >= ` +
            `${TARGET.ratio}, p99 < ${TARGET.p99Ms} ms, zero errors, round transactions written = 200 answers. ` +
            'With limits: every player given loss limits and a stake limit, the same pairs at no less than ' +
            `${1 - LIMITS_COST} of the throughput without them (the row before, its floor column). ` +
            'The hot float spreads the players over fewer operators, down to one wallet row for all of them.',
        ],
        table: {
          columns: ['case', 'endpoint req/s', 'floor req/s', 'ratio', 'endpoint p50 / p99 ms', 'floor p50 / p99 ms', 'errors',
            'rows / 200s', 'target'],
          rows: table,
        },
        notes: misses.map((miss) => `Missed: ${miss}`),
        targetsMet: misses.length === 0,
      };
    } finally {
      await served.stop();
      await Promise.all([admin.end(), floorSql.end(), wallet.close()]);
    }
  },
};

async function newSession(url: string, key: string, n: number): Promise<Player> {
  const response = await fetch(`${url}/v3/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ player_id: `bench-player-${n}`, game_id: 'pragmatic-play:vs20olympgate', currency: 'EUR' }),
  });
  if (response.status !== 201) throw new Error(`POST /v3/sessions: ${response.status} ${await response.text()}`);
  const session = await response.json();
  return { token: new URL(session.launch_url).searchParams.get('token')!, sessionId: session.id };
}

/** Each connection a player: a bet of 1, then a win of 1 closing that round, over and over. */
function betsAndWins(url: string, providerKey: string, concurrency: number, player: (n: number) => Player, tag: string): Promise<LoadResult> {
  let connections = 0;
  const headers = { authorization: `Bearer ${providerKey}`, 'content-type': 'application/json' };
  const origin = new URL(url).origin;
  const prefix = new URL(url).pathname.replace(/\/$/, '');
  const step = (path: string, body: (context: Record<string, number>, token: string) => object): Request => ({
    method: 'POST',
    path: `${prefix}/v3/provider/${path}`,
    setupRequest: (request, context) => {
      const c = context as Record<string, number>;
      c.connection ??= connections++;
      return { ...request, headers, body: JSON.stringify(body(c, player(c.connection).token)) };
    },
  });
  return httpLoad(origin, [
    step('bets', (c, token) => {
      c.round = (c.round ?? 0) + 1;
      return { session_token: token, transaction_id: `${tag}-${c.connection}-${c.round}-b`, round_id: `${tag}-${c.connection}-${c.round}`, amount: '1' };
    }),
    step('wins', (c, token) => ({
      session_token: token, transaction_id: `${tag}-${c.connection}-${c.round}-w`, round_id: `${tag}-${c.connection}-${c.round}`,
      amount: '1', round_closed: true,
    })),
  ], concurrency, SECONDS);
}

/** The floor: the calls the handlers make, alternately a bet and the win closing its round. */
function floorBetsAndWins(sql: Sql, keyHash: string, concurrency: number, player: (n: number) => Player, tag: string): Promise<LoadResult> {
  const calls = new Array<number>(concurrency).fill(0);
  return nodeLoad(concurrency, SECONDS, async (caller) => {
    const n = calls[caller]++;
    const round = `${tag}-${caller}-${n >> 1}`;
    const session = player(caller).sessionId;
    const fingerprint = sha256Hex(`${round}-${n}`);
    let [result] = n % 2 === 0
      ? await sql`select outcome, body::text from private.round_bet(${keyHash}, ${session}::uuid, ${`${round}-b`}, ${round},
          ${'1'}::numeric, ${false}, ${fingerprint})`
      : await sql`select outcome, body::text from private.round_win(${keyHash}, ${session}::uuid, ${`${round}-w`}, ${round},
          ${'1'}::numeric, ${true}, ${null}, ${fingerprint})`;
    if (result.outcome === 'wallet_call') {
      result = await makeWalletCall(sql, JSON.parse(result.body), { timeoutMs: 3_000, allowPrivateUrls: true });
    }
    if (result.outcome !== 'ok') throw new Error(result.outcome);
  });
}
