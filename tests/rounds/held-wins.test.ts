// Big wins: a win that takes its round past a win limit (a multiple of what the round bet, or an
// amount in its currency) is recorded and answered, but held for staff review instead of paid, so a
// faulty or hostile provider cannot credit any amount it likes. Nothing is lost: a held win replays
// as held, staff release it (paid then, in the round's own wallet) or reject it (never paid), and
// the operator hears of each step. A database of its own: the win limits here are this file's.
import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { expectResponseMatches } from '../openapi/contract.ts';
import { as, type Cast, cast, outcome } from '../helpers/db.ts';
import { type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { isolatedDatabase, newOperator, type Operator, sessionRequest, validBody } from '../helpers/api.ts';
import { launchToken, type ProviderAnswer, providerCalls } from '../helpers/provider-api.ts';

const local = { allowPrivateUrls: true, walletTimeoutMs: 2_000 };
const id = (prefix: string) => `${prefix}-${randomUUID()}`;
let owner: Sql;
let endpoint: Sql;
let handle: (request: Request) => Promise<Response>;
let post: (path: 'bets' | 'wins' | 'rollbacks', body: object) => Promise<ProviderAnswer>;
let people: Cast;
let wallet: ReferenceWallet | undefined;

beforeAll(async () => {
  ({ owner, endpoint } = await isolatedDatabase('held_wins'));
  handle = createApp({ sql: endpoint, signer: await createSessionTokenSigner({ issuer: 'https://cgs.test' }), config: local });
  post = providerCalls(handle, (await owner`select key from public.issue_provider_key('pragmatic-play')`)[0].key);
  people = await cast(owner);
});
afterAll(() => wallet?.close());

async function fundedOperator(): Promise<Operator> {
  const operator = await newOperator(owner, 'held-wins');
  await owner`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await owner`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  return operator;
}

const launch = (operator: Operator, body: object = {}) => launchToken(handle, operator, { ...body, player_id: id('player') });

const floatOf = async (operator: Operator) =>
  (await owner`select balance::text from public.wallet where client_id = ${operator.account.id} and currency_code = 'EUR'`)[0].balance;
const heldOf = async (winId: string) =>
  (await owner`select h.* from public.held_win h join public.round_transaction t on t.id = h.round_transaction_id
               where t.transaction_id = ${winId}`)[0];
const winRowId = async (winId: string) => (await owner`select id from public.round_transaction where transaction_id = ${winId}`)[0].id;
const eventsOf = async (operator: Operator, type: string) =>
  owner<{ data: { transactions: { transaction_id: string; review: string | null }[]; total_win: string } }[]>`
    select data from public.event where client_id = ${operator.account.id} and type = ${type} order by created_at`;
const review = (winId: string, decision: string, reason: string | null = null) =>
  as(owner, people.mona, async (tx) => (await tx`select * from public.review_win(${winId}, ${decision}, ${reason})`)[0]);

/** Plays a bet and a win closing the round; the win's id and the round's. */
async function play(token: string, bet: string, won: string) {
  const round = id('round');
  expect((await post('bets', { session_token: token, transaction_id: `${round}-bet`, round_id: round, amount: bet })).status).toBe(200);
  const win = id('win');
  const answer = await post('wins', { session_token: token, transaction_id: win, round_id: round, amount: won, round_closed: true });
  return { round, win, answer };
}

describe('a win past the platform default (10,000 times the round bet)', () => {
  it('is answered but not paid, replays as held, and is paid once when staff release it', async () => {
    const operator = await fundedOperator();
    const token = await launch(operator);
    const { round, win, answer } = await play(token, '1', '5000000000000000');
    expect(answer).toMatchObject({ status: 200, body: { transaction_id: win, balance: '99.0000', currency: 'EUR' } });
    expect(await floatOf(operator)).toBe('99.0000');
    expect(await heldOf(win)).toMatchObject({ status: 'held', amount: '5000000000000000.0000', currency_code: 'EUR' });
    expect((await owner`select status, total_win from public.game_round where provider_round_id = ${round}`)[0])
      .toEqual({ status: 'closed', total_win: '0.0000' });
    const [held] = await eventsOf(operator, 'round.win_held');
    expect(held.data.transactions.find((t) => t.transaction_id === win)?.review).toBe('held');

    const again = await post('wins', { session_token: token, transaction_id: win, round_id: round, amount: '5000000000000000', round_closed: true });
    expect(again).toMatchObject({ status: 200, text: answer.text, replayed: 'true' });

    const rowId = await winRowId(win);
    expect(await review(rowId, 'release', 'checked with the provider')).toMatchObject({ status: 'released', decided_by: people.mona.id });
    expect(await floatOf(operator)).toBe('5000000000000099.0000');
    expect((await owner`select total_win from public.game_round where provider_round_id = ${round}`)[0].total_win)
      .toBe('5000000000000000.0000');
    const [released] = await eventsOf(operator, 'round.win_released');
    expect(released.data.transactions.find((t) => t.transaction_id === win)?.review).toBe('released');
    // Once: the same decision again changes nothing, the other is refused, and the replay stays the held answer.
    expect(await review(rowId, 'release')).toMatchObject({ status: 'released' });
    expect(await outcome(() => review(rowId, 'reject'))).toBe('55000');
    expect(await floatOf(operator)).toBe('5000000000000099.0000');
    expect(await post('wins', { session_token: token, transaction_id: win, round_id: round, amount: '5000000000000000', round_closed: true }))
      .toMatchObject({ status: 200, text: answer.text });
    const response = await handle(new Request(`http://api.test/v3/rounds/${(await heldOf(win)).round_id}`, {
      headers: { authorization: `Bearer ${operator.key}` },
    }));
    const shown = await response.json();
    expectResponseMatches('getRound', response, shown);
    expect(shown.transactions.map((t: { review: string | null }) => t.review)).toEqual([null, 'released']);
  });

  it('rejected, is never paid, and its bet stays settled', async () => {
    const operator = await fundedOperator();
    const token = await launch(operator);
    const { round, win } = await play(token, '0.01', '100.01');
    expect(await review(await winRowId(win), 'reject', 'malfunction')).toMatchObject({ status: 'rejected', reason: 'malfunction' });
    expect(await floatOf(operator)).toBe('99.9900');
    expect(await eventsOf(operator, 'round.win_rejected')).toHaveLength(1);
    expect(await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: `${round}-bet` }))
      .toMatchObject({ status: 422, body: { code: 'bet_settled' } });
  });

  it('is not reached by a win at the limit, which is paid at once', async () => {
    const operator = await fundedOperator();
    const token = await launch(operator);
    const { win, answer } = await play(token, '0.01', '100');
    expect(answer).toMatchObject({ status: 200, body: { balance: '199.9900' } });
    expect(await heldOf(win)).toBeUndefined();
  });

  it('is decided by staff alone', async () => {
    const operator = await fundedOperator();
    const { win } = await play(await launch(operator), '1', '10001');
    const rowId = await winRowId(win);
    for (const caller of [people.alice, operator.account]) {
      expect(await outcome(() => as(owner, caller, (tx) => tx`select * from public.review_win(${rowId}, 'release')`))).toBe('42501');
    }
    expect(await outcome(() => review(rowId, 'pay'))).toBe('22023');
    expect(await floatOf(operator)).toBe('99.0000');
  });
});

describe('limits staff set', () => {
  it("a game's amount limit in a currency holds that game's wins in that currency; the strictest limit decides", async () => {
    await owner`
      insert into public.win_limit (provider_id, game, currency_code, max_amount)
      select id, 'vs20olympgate', 'EUR', 50 from public.game_provider where slug = 'pragmatic-play'`;
    await owner`insert into public.win_limit (provider_id, max_multiple) select id, 5 from public.game_provider where slug = 'pragmatic-play'`;
    const operator = await fundedOperator();
    const token = await launch(operator);
    expect((await play(token, '20', '50')).answer.body.balance).toBe('130.0000');
    const overAmount = await play(token, '20', '50.0001');
    expect(await heldOf(overAmount.win)).toMatchObject({ status: 'held' });
    const overMultiple = await play(token, '2', '10.01');
    expect(await heldOf(overMultiple.win)).toMatchObject({ status: 'held' });
    // Wins add up within a round: a second win taking the round past the limit is held.
    const round = id('round');
    await post('bets', { session_token: token, transaction_id: `${round}-bet`, round_id: round, amount: '4' });
    expect(await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '15' }))
      .toMatchObject({ status: 200 });
    const second = id('win');
    await post('wins', { session_token: token, transaction_id: second, round_id: round, amount: '6', round_closed: true });
    expect(await heldOf(second)).toMatchObject({ status: 'held', amount: '6.0000' });
    // A USD session of the same game is held by the multiple only.
    const usd = await fundedOperator();
    await owner`insert into public.wallet (client_id, currency_code) values (${usd.account.id}, 'USD')`;
    await owner`select * from public.record_transaction(${usd.account.id}::uuid, 'USD', 'deposit', 100::numeric)`;
    const usdWin = await play(await launch(usd, { ...validBody, currency: 'USD' }), '20', '90');
    expect(usdWin.answer.body).toMatchObject({ balance: '170.0000', currency: 'USD' });
    await owner`delete from public.win_limit where provider_id is not null`;
  });
});

describe('a held win in seamless mode', () => {
  it('makes no credit call until released; then the runner pays it at the operator, once, and the replay stays held', async () => {
    const operator = await newOperator(owner, 'held-seamless');
    const change = (url: string) => owner`
      select secret from private.change_wallet_settings(${operator.account.id}, true, 'seamless', ${url}, false)`;
    const [{ secret }] = await change('https://wallet.operator.test/');
    wallet = await startReferenceWallet(secret);
    await change(wallet.url);
    const token = await launch(operator);
    const { round, win, answer } = await play(token, '10', '100001');
    const player = wallet.calls[0].player_id as string;
    expect(answer).toMatchObject({ status: 200, body: { balance: '90.0000' } });
    expect(wallet.calls.map((call) => call.action)).toEqual(['debit']);
    expect(await runDeliveries(endpoint, local)).not.toHaveProperty('wallet_calls');

    await review(await winRowId(win), 'release');
    expect(await runDeliveries(endpoint, local)).toMatchObject({ wallet_calls: 1, wallet_accepted: 1 });
    expect(wallet.calls.map((call) => call.action)).toEqual(['debit', 'credit']);
    expect(wallet.balance(player)).toBe('100091.0000');
    expect(await runDeliveries(endpoint, local)).not.toHaveProperty('wallet_calls');
    expect(await post('wins', { session_token: token, transaction_id: win, round_id: round, amount: '100001', round_closed: true }))
      .toMatchObject({ status: 200, text: answer.text, replayed: 'true' });
  });
});

describe('which limit holds a win', () => {
  const pragmatic = async () => (await owner`select id from public.game_provider where slug = 'pragmatic-play'`)[0].id as string;

  it("a game's limit holds that game alone, and a provider's limit that provider's games alone", async () => {
    const provider = await pragmatic();
    const [other] = await owner`select id from public.game_provider where slug <> 'pragmatic-play' order by slug limit 1`;
    await owner`insert into public.win_limit (provider_id, game, max_multiple) values (${provider}, 'another-game', 1)`;
    await owner`insert into public.win_limit (provider_id, max_multiple) values (${other.id}, 1)`;
    try {
      const operator = await fundedOperator();
      const { win, answer } = await play(await launch(operator), '2', '10');
      expect(answer.body.balance).toBe('108.0000');
      expect(await heldOf(win)).toBeUndefined();
    } finally {
      await owner`delete from public.win_limit where provider_id is not null`;
    }
  });

  it('a win past several limits is held by the most specific (the game\'s before the provider\'s)', async () => {
    const provider = await pragmatic();
    const [game] = await owner`
      insert into public.win_limit (provider_id, game, currency_code, max_amount) values (${provider}, 'vs20olympgate', 'EUR', 50)
      returning id`;
    await owner`insert into public.win_limit (provider_id, max_multiple) values (${provider}, 5)`;
    try {
      const operator = await fundedOperator();
      const { win } = await play(await launch(operator), '20', '200');
      expect(await heldOf(win)).toMatchObject({ status: 'held', win_limit_id: game.id });
    } finally {
      await owner`delete from public.win_limit where provider_id is not null`;
    }
  });
  it("an amount limit counts the round's wins so far: the win that takes the round past it is held", async () => {
    const provider = await pragmatic();
    await owner`
      insert into public.win_limit (provider_id, game, currency_code, max_amount) values (${provider}, 'vs20olympgate', 'EUR', 50)`;
    try {
      const operator = await fundedOperator();
      const token = await launch(operator);
      const round = id('round');
      await post('bets', { session_token: token, transaction_id: `${round}-bet`, round_id: round, amount: '20' });
      const [first, second] = [id('win'), id('win')];
      expect(await post('wins', { session_token: token, transaction_id: first, round_id: round, amount: '30' }))
        .toMatchObject({ status: 200, body: { balance: '110.0000' } });
      await post('wins', { session_token: token, transaction_id: second, round_id: round, amount: '30', round_closed: true });
      expect(await heldOf(first)).toBeUndefined();
      expect(await heldOf(second)).toMatchObject({ status: 'held', amount: '30.0000' });
      expect(await floatOf(operator)).toBe('110.0000');
    } finally {
      await owner`delete from public.win_limit where provider_id is not null`;
    }
  });
});

describe("a held win and the player's loss tally", () => {
  it('takes nothing from the tally while held, and the whole win once released', async () => {
    const operator = await fundedOperator();
    const player = id('player');
    await owner`insert into public.player_restriction (client_id, livemode, player_id, loss_limits)
                values (${operator.account.id}, true, ${player}, ${JSON.stringify({ EUR: { day: '1000' } })}::text::jsonb)`;
    const response = await handle(sessionRequest({ ...validBody, player_id: player }, { key: operator.key }));
    expect(response.status).toBe(201);
    const token = new URL((await response.json()).launch_url).searchParams.get('token')!;
    const tally = async () => (await owner`
      select day_loss::text from private.player_loss where client_id = ${operator.account.id} and player_id = ${player}`)[0].day_loss;
    const { win } = await play(token, '1', '10001');
    expect(await heldOf(win)).toMatchObject({ status: 'held' });
    expect(await tally()).toBe('1.0000');
    await review(await winRowId(win), 'release');
    expect(await tally()).toBe('-10000.0000');
  });
});

describe('a held win released after the client changed its wallet mode', () => {
  it('is paid in the wallet its round started in (the operator\'s), not the float', async () => {
    const operator = await newOperator(owner, 'held-switch');
    const change = (mode: string, url: string | null) => owner`
      select outcome, secret from private.change_wallet_settings(${operator.account.id}, true, ${mode}, ${url}, false)`;
    const [{ secret }] = await change('seamless', 'https://wallet.operator.test/');
    const switched = await startReferenceWallet(secret);
    try {
      await change('seamless', switched.url);
      const { win } = await play(await launch(operator), '10', '100001');
      const player = switched.calls[0].player_id as string;
      expect((await change('transfer', null))[0].outcome).toBe('updated');
      await owner`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;

      await review(await winRowId(win), 'release');
      expect(await floatOf(operator)).toBe('0.0000');
      await runDeliveries(endpoint, local);
      expect(switched.calls.map((call) => call.action)).toEqual(['debit', 'credit']);
      expect(switched.balance(player)).toBe('100091.0000');
    } finally {
      await switched.close();
    }
  });
});
