// The sandbox's demo sportsbook, in-process against the test database: a test session of
// cgs-sandbox:sportsbook places singles and an accumulator with the demo provider's public key, and
// the operator's test key settles, resettles and voids fixtures (POST
// /v3/sandbox/sportsbook/fixtures/{id}/settle, /resettle, /void): each bet naming the fixture is
// settled through the real engine as its legs say, the test player's balance moves by each
// difference, and the answers, the bets API and the events agree. Live keys, unknown ids and a
// settle twice are refused.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase } from '../../supabase/functions/_shared/database.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { databaseProxy } from '../helpers/db-proxy.ts';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, sessionRequest, sessionsHandler } from '../helpers/api.ts';
import { startReferenceWallet } from '../helpers/reference-wallet.ts';

const SANDBOX_PROVIDER_KEY = 'cgs_prov_SANDBOX-demo-game-public-key-test-only-0000';
const sql = connect();
const { handle, signer } = await sessionsHandler();
// A short wallet timeout, for the slow_wallet behaviour to wait out.
const WALLET_TIMEOUT_MS = 200;
const slow = await sessionsHandler({ signer, config: { walletTimeoutMs: WALLET_TIMEOUT_MS } });
let operator: Operator;
let testKey: string;

beforeAll(async () => {
  operator = await newOperator(sql, 'sandbox-sportsbook');
  testKey = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
});

async function call(path: string, key: string, body?: object, operation?: OperationId, via = handle) {
  const response = await via(new Request(`http://api.test/v3${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }));
  const answer = await response.json();
  if (operation) expectResponseMatches(operation, response, answer);
  return { status: response.status, body: answer };
}

const operations = { settle: 'settleSandboxFixture', resettle: 'resettleSandboxFixture', void: 'voidSandboxFixture' } as const;
const fixture = (id: string, action: keyof typeof operations, outcome?: string, key = testKey) =>
  call(`/sandbox/sportsbook/fixtures/${id}/${action}`, key, outcome ? { outcome } : {}, operations[action]);

const leg = (fixture_id: string, pick: string, odds: string) => ({ fixture_id, event: fixture_id, market: '1X2', pick, odds });

/**
 * A client whose test key plays in seamless mode, at a reference wallet of its own (the caller
 * closes it): the wallet's secret is the one the settings made, the settings then name its URL.
 */
async function seamlessTestOperator(name: string) {
  const op = await newOperator(sql, name);
  const key = (await issueKey(sql, op.account, 'Sandbox', false)).key;
  const setTo = (url: string) => sql`select * from private.change_wallet_settings(${op.account.id}, false, 'seamless', ${url}, false)`;
  const [{ secret }] = await setTo('https://wallet.operator.test/');
  const wallet = await startReferenceWallet(secret);
  try {
    await setTo(wallet.url);
  } catch (error) {
    await wallet.close();
    throw error;
  }
  return { op, key, wallet };
}

describe('the demo sportsbook and its fixtures', () => {
  it('settles, resettles and voids fixtures: each bet naming one is settled as its legs say, once', async () => {
    const player = `player-${randomUUID()}`;
    expect((await call('/sandbox/players', testKey, { player_id: player, currency: 'EUR', balance: '100' })).status).toBe(200);
    const session = await handle(sessionRequest({ player_id: player, game_id: 'cgs-sandbox:sportsbook', currency: 'EUR' }, { key: testKey }));
    expect(session.status).toBe(201);
    const token = new URL((await session.json()).launch_url).searchParams.get('token')!;
    // Unique fixtures for this test: the results are the operator's, one world per client.
    const [north, west] = [`north-${randomUUID().slice(0, 8)}`, `west-${randomUUID().slice(0, 8)}`];
    const place = async (legs: object[], odds: string, potential: string) => {
      const bet = `sb-${randomUUID()}`;
      const placed = await call('/provider/sportsbook/bets', SANDBOX_PROVIDER_KEY, {
        session_token: token, bet_id: bet, transaction_id: `tx-${randomUUID()}`, amount: '10', odds, potential_payout: potential,
        selections: legs,
      }, 'providerSportsbookPlace');
      expect(placed.status).toBe(200);
      return bet;
    };
    const single = await place([leg(north, 'home', '2.10')], '2.1', '21');
    const acca = await place([leg(north, 'home', '2.10'), leg(west, 'away', '4.20')], '8.82', '88.2');
    const draw = await place([leg(west, 'draw', '3.60')], '3.6', '36');
    const balance = async () => (await call(`/sandbox/players/${player}`, testKey)).body.data[0].balance;
    const changed = (answer: { body: { bets: { bet_id: string; status: string; result: string; payout: string }[] } }) =>
      Object.fromEntries(answer.body.bets.map((b) => [b.bet_id, `${b.result} ${b.payout}`]));
    expect(await balance()).toBe('70.0000');

    // The single wins; the accumulator waits on its other leg.
    const first = await fixture(north, 'settle', 'home');
    expect(first).toMatchObject({ status: 200, body: { fixture_id: north, outcome: 'home' } });
    expect(changed(first)).toEqual({ [single]: 'won 21.0000' });
    expect(await balance()).toBe('91.0000');
    expect(await fixture(north, 'settle', 'away')).toMatchObject({ status: 409, body: { code: 'fixture_settled' } });
    expect(await fixture(west, 'resettle', 'away')).toMatchObject({ status: 409, body: { code: 'fixture_not_settled' } });

    expect(changed(await fixture(west, 'settle', 'away'))).toEqual({ [acca]: 'won 88.2000', [draw]: 'lost 0.0000' });
    expect(await balance()).toBe('179.2000');
    // Resettled against the player: both bets on the home side lose what they paid.
    expect(changed(await fixture(north, 'resettle', 'away'))).toEqual({ [single]: 'lost 0.0000', [acca]: 'lost 0.0000' });
    expect(await balance()).toBe('70.0000');
    // A void fixture: the draw's stake back; the accumulator stays lost on its other leg.
    expect(changed(await fixture(west, 'void'))).toEqual({ [draw]: 'void 10.0000' });
    expect(await balance()).toBe('80.0000');
    // And back for the player: the accumulator pays its one won leg (the void one counts 1).
    expect(changed(await fixture(north, 'resettle', 'home'))).toEqual({ [single]: 'won 21.0000', [acca]: 'won 21.0000' });
    expect(await balance()).toBe('122.0000');

    const { body: list } = await call(`/sportsbook/bets?player_id=${player}`, testKey, undefined, 'listSportsbookBets');
    expect(Object.fromEntries(list.data.map((b: { bet_id: string; status: string; payout: string; paid: string }) =>
      [b.bet_id, `${b.status} ${b.payout} ${b.paid}`]))).toEqual({
      [single]: 'settled 21.0000 21.0000', [acca]: 'settled 21.0000 21.0000', [draw]: 'settled 10.0000 10.0000',
    });
    const byBet = await sql<{ type: string; bet: string }[]>`
      select type, data->>'bet_id' as bet from public.event
      where client_id = ${operator.account.id} and type like 'sportsbook.%' and data->>'player_id' = ${player}
      order by created_at, id`;
    expect(byBet.filter((e) => e.bet === acca).map((e) => e.type))
      .toEqual(['sportsbook.bet.placed', 'sportsbook.bet.settled', 'sportsbook.bet.resettled', 'sportsbook.bet.resettled']);
  });

  it('takes test keys only, and names a fixture by its id', async () => {
    expect(await fixture('northport-eastbay', 'settle', 'home', operator.key)).toMatchObject({ status: 403, body: { code: 'live_key' } });
    expect(await fixture('Not_A_Fixture', 'void')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await fixture('Not_A_Fixture', 'void', undefined, operator.key)).toMatchObject({ status: 403, body: { code: 'live_key' } });
    expect((await fixture('northport-eastbay', 'settle', 'home', 'cgs_test_nope')).status).toBe(401);
    expect(await fixture('northport-eastbay', 'settle', 'nobody')).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    // Nobody's bets: the outcome is kept, nothing changes.
    const quiet = `quiet-${randomUUID().slice(0, 8)}`;
    expect(await fixture(quiet, 'settle', 'draw')).toMatchObject({ status: 200, body: { fixture_id: quiet, outcome: 'draw', bets: [] } });
  });

  it("answers a test player's failing and slow wallets as a wallet that never answered, the slow one as late", async () => {
    for (const [behaviour, waited] of [['failing_wallet', 0], ['slow_wallet', WALLET_TIMEOUT_MS]] as const) {
      const player = `player-${randomUUID()}`;
      expect((await call('/sandbox/players', testKey, { player_id: player, currency: 'EUR', balance: '100', behaviour })).status).toBe(200);
      const session = await handle(sessionRequest({ player_id: player, game_id: 'cgs-sandbox:sportsbook', currency: 'EUR' }, { key: testKey }));
      const token = new URL((await session.json()).launch_url).searchParams.get('token')!;
      const started = Date.now();
      const placed = await call('/provider/sportsbook/bets', SANDBOX_PROVIDER_KEY, {
        session_token: token, bet_id: `sb-${randomUUID()}`, transaction_id: `tx-${randomUUID()}`, amount: '10', odds: '2',
        potential_payout: '20', selections: [leg('north-slow', 'home', '2')],
      }, 'providerSportsbookPlace', slow.handle);
      expect(Date.now() - started).toBeGreaterThanOrEqual(waited);
      expect(placed, behaviour).toMatchObject({ status: 502, body: {
        code: 'wallet_failed', retryable: false,
        detail: "The wallet did not take the stake (a test player's failing wallet, or the operator's wallet gave no answer in time): the bet is not placed.",
      } });
      expect((await sql`select balance::text from public.sandbox_player where player_id = ${player}`)[0].balance).toBe('100.0000');
    }
  });

  it("makes a seamless operator's wallet calls before it answers: the payout is at the wallet when the fixture's answer comes", async () => {
    const { op, key, wallet } = await seamlessTestOperator('sandbox-sportsbook-seamless');
    try {
      const player = `player-${randomUUID()}`;
      const session = await handle(sessionRequest({ player_id: player, game_id: 'cgs-sandbox:sportsbook', currency: 'EUR' }, { key }));
      expect(session.status).toBe(201);
      const token = new URL((await session.json()).launch_url).searchParams.get('token')!;
      const match = `seamless-${randomUUID().slice(0, 8)}`;
      const bets: string[] = [];
      for (const pick of ['home', 'home', 'away']) {
        const bet = `sb-${randomUUID()}`;
        bets.push(bet);
        expect((await call('/provider/sportsbook/bets', SANDBOX_PROVIDER_KEY, {
          session_token: token, bet_id: bet, transaction_id: `tx-${randomUUID()}`, amount: '10', odds: '2', potential_payout: '20',
          selections: [leg(match, pick, '2')],
        }, 'providerSportsbookPlace')).status).toBe(200);
      }
      expect(wallet.balance(player)).toBe('70.0000');
      const settled = await fixture(match, 'settle', 'home', key);
      expect(settled).toMatchObject({ status: 200, body: { fixture_id: match, outcome: 'home' } });
      // Both winning bets' credits were made and taken before the answer; the lost bet moves nothing.
      expect(wallet.balance(player)).toBe('110.0000');
      expect(wallet.calls.filter((c) => c.player_id === player).map((c) => [c.action, c.bet_id, c.amount]).slice(3).sort())
        .toEqual([['credit', `cgs-sandbox:${bets[0]}`, '20.0000'], ['credit', `cgs-sandbox:${bets[1]}`, '20.0000']].sort());
      expect((await sql`select count(*)::int as n from public.wallet_call where client_id = ${op.account.id} and status <> 'accepted'`)[0].n)
        .toBe(0);
    } finally {
      await wallet.close();
    }
  });

  it("answers outcome_unknown when the database goes while a seamless operator's wallet answers a fixture's payout", async () => {
    const { op, key, wallet } = await seamlessTestOperator('sandbox-sportsbook-lost');
    const proxy = await databaseProxy(inject('databaseUrl'));
    const pool = connectDatabase(proxy.url, { max: 2 });
    try {
      const player = `player-${randomUUID()}`;
      const session = await handle(sessionRequest({ player_id: player, game_id: 'cgs-sandbox:sportsbook', currency: 'EUR' }, { key }));
      const token = new URL((await session.json()).launch_url).searchParams.get('token')!;
      const match = `lost-${randomUUID().slice(0, 8)}`;
      expect((await call('/provider/sportsbook/bets', SANDBOX_PROVIDER_KEY, {
        session_token: token, bet_id: `sb-${randomUUID()}`, transaction_id: `tx-${randomUUID()}`, amount: '10', odds: '2',
        potential_payout: '20', selections: [leg(match, 'home', '2')],
      }, 'providerSportsbookPlace')).status).toBe(200);
      const logged: string[] = [];
      const viaProxy = createApp({ sql: pool, signer, config: { allowPrivateUrls: true }, logError: (message) => logged.push(message) });
      wallet.misbehave = 'slow';
      let answerCredit!: () => void;
      wallet.slowUntil = new Promise<void>((resolve) => (answerCredit = resolve));
      const answered = call(`/sandbox/sportsbook/fixtures/${match}/settle`, key, { outcome: 'home' }, undefined, viaProxy);
      // The operator has the credit; the database goes before its answer comes back.
      await expect.poll(() => wallet.calls.some((c) => c.player_id === player && c.action === 'credit')).toBe(true);
      await proxy.down();
      answerCredit();
      wallet.slowUntil = undefined;
      const first = await answered;
      await proxy.up();
      // The outcome and the payout were recorded before the credit went out: unknown, never "nothing written".
      expect(first).toMatchObject({ status: 503, body: { code: 'outcome_unknown', retryable: true } });
      expect(logged).toEqual(['database unavailable']);
      expect((await sql`select count(*)::int as n from public.wallet_call where client_id = ${op.account.id} and status = 'pending'`)[0].n)
        .toBe(1);
      expect(await fixture(match, 'settle', 'home', key)).toMatchObject({ status: 409, body: { code: 'fixture_settled' } });
    } finally {
      await pool.end({ timeout: 0 });
      await wallet.close();
    }
  });
});
