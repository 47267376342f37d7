// Seamless mode end to end, in-process against a database of its own (the runner takes whatever is
// due): the provider API's balance, bets, wins and rollbacks become signed calls to the reference
// operator wallet, and every fault (refusal, slow, 500, garbage, down, a caller that died, retries
// run out) ends with the money conserved at the operator, every round settled, and nothing applied
// twice.
import { createHash, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { makeWalletCall, type QueuedWalletCall, sendWalletCall } from '../../supabase/functions/_shared/wallet-call.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { freePort } from '../../scripts/lib/embedded-postgres.ts';
import { expectResponseMatches } from '../openapi/contract.ts';
import { connectDatabase } from '../../supabase/functions/_shared/database.ts';
import { as, cast, outcome } from '../helpers/db.ts';
import { databaseProxy } from '../helpers/db-proxy.ts';
import { type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { isolatedDatabase, newOperator, type Operator, sessionRequest, validBody } from '../helpers/api.ts';
import { launchToken, providerCalls } from '../helpers/provider-api.ts';

const TIMEOUT_MS = 300;
const local = { allowPrivateUrls: true, walletTimeoutMs: TIMEOUT_MS };
let owner: Sql;
let endpoint: Sql;
let handle: (request: Request) => Promise<Response>;
let operator: Operator;
let providerKey: string;
let wallet: ReferenceWallet;
let signer: Awaited<ReturnType<typeof createSessionTokenSigner>>;
let databaseUrl: string;

beforeAll(async () => {
  ({ owner, endpoint, url: databaseUrl } = await isolatedDatabase('seamless'));
  signer = await createSessionTokenSigner({ issuer: 'https://cgs.test' });
  handle = createApp({ sql: endpoint, signer, config: local });
  operator = await newOperator(owner, 'seamless');
  providerKey = (await owner`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  const setTo = (url: string) => owner`
    select * from private.change_wallet_settings(${operator.account.id}, true, 'seamless', ${url}, false)`;
  const [{ secret }] = await setTo('https://wallet.operator.test/');
  wallet = await startReferenceWallet(secret);
  await setTo(wallet.url);
});
afterAll(() => wallet?.close());

const id = (prefix: string) => `${prefix}-${randomUUID()}`;

/** A new session's launch token (POST /v3/sessions), for a player of its own. */
async function launch(player = id('player')): Promise<{ token: string; player: string }> {
  return { token: await launchToken(handle, operator, { player_id: player }), player };
}

/** A provider call with the provider's key, through the handler in use. */
const post = (path: 'bets' | 'wins' | 'rollbacks', body: object) => providerCalls(handle, providerKey)(path, body);

async function balance(token: string) {
  const response = await handle(new Request(`http://api.test/v3/provider/balance?session_token=${token}`, {
    headers: { authorization: `Bearer ${providerKey}` },
  }));
  const body = await response.json();
  expectResponseMatches('providerBalance', response, body);
  return { status: response.status, body };
}

const callsOf = (player: string) => wallet.calls.filter((call) => call.player_id === player);
const roundOf = async (round: string) => (await owner`select * from public.game_round where provider_round_id = ${round}`)[0];
/** Runs the delivery runner once with every pending wallet call made due. */
async function runDue() {
  await owner`update public.wallet_call set next_attempt_at = now() where status = 'pending'`;
  return runDeliveries(endpoint, local);
}

describe('seamless mode through the provider API', () => {
  it('answers the balance, takes a bet, pays a win and rolls back, each once at the operator', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    expect(await balance(token)).toEqual({ status: 200, body: { balance: '100.0000', currency: 'EUR' } });
    const [tx, round] = [id('bet'), id('round')];
    const bet = { session_token: token, transaction_id: tx, round_id: round, amount: '12.5' };
    const first = await post('bets', bet);
    expect(first).toMatchObject({ status: 200, body: { transaction_id: tx, round_id: round, balance: '87.5000', currency: 'EUR' } });
    expect(await post('bets', bet)).toMatchObject({ status: 200, text: first.text, replayed: 'true' });
    expect(callsOf(player).filter((call) => call.action === 'debit')).toHaveLength(1);
    expect(callsOf(player).at(-1)).toMatchObject({
      action: 'debit', transaction_id: `pragmatic-play:${tx}`, round_id: `pragmatic-play:${round}`, amount: '12.5000', currency: 'EUR',
      game_id: validBody.game_id,
    });

    const won = await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '30', round_closed: true });
    expect(won).toMatchObject({ status: 200, body: { balance: '117.5000' } });
    expect(await roundOf(round)).toMatchObject({ status: 'closed', total_bet: '12.5000', total_win: '30.0000' });

    const [tx2, round2] = [id('bet'), id('round')];
    await post('bets', { session_token: token, transaction_id: tx2, round_id: round2, amount: '7' });
    const back = await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: tx2 });
    expect(back).toMatchObject({ status: 200, body: { balance: '117.5000' } });
    expect(await roundOf(round2)).toMatchObject({ status: 'cancelled' });
    expect(wallet.balance(player)).toBe('117.5000');
    // The float is untouched: no ledger row for a seamless operator.
    expect((await owner`select count(*)::int as n from public.transaction where client_id = ${operator.account.id}`)[0].n).toBe(0);
  });

  it('refuses a bet the operator refuses, writing nothing, and judges the same bet again later', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const bet = { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '150' };
    expect(await post('bets', bet)).toMatchObject({
      status: 422, body: { code: 'insufficient_funds', balance: '100.0000', currency: 'EUR', retryable: false },
    });
    expect(await roundOf(bet.round_id)).toBeUndefined();
    expect((await owner`select count(*)::int as n from public.round_transaction where transaction_id = ${bet.transaction_id}`)[0].n).toBe(0);
    wallet.balances.set(player, 2_000_000n);
    expect(await post('bets', bet)).toMatchObject({ status: 200, body: { balance: '50.0000' } });
  });

  it("answers a debit the operator refuses for its own reason as wallet_refused, with its code and any balance it gave, writing nothing", async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const bet = () => ({ session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '5' });
    const written = async (b: { transaction_id: string; round_id: string }) => [
      (await owner`select count(*)::int as n from public.round_transaction where transaction_id = ${b.transaction_id}`)[0].n,
      await roundOf(b.round_id),
    ];
    try {
      // With the balance it keeps: the problem carries it, in the session's currency.
      wallet.refuse = (call) => (call.action === 'debit' ? { code: 'player_blocked', balance: '100.0000' } : undefined);
      const withBalance = bet();
      const refused = await post('bets', withBalance);
      expect(refused).toMatchObject({ status: 422, body: {
        code: 'wallet_refused', wallet_code: 'player_blocked', balance: '100.0000', currency: 'EUR', retryable: false,
        detail: "The operator's wallet refused the debit (player_blocked); nothing was written.",
      } });
      expect(await written(withBalance)).toEqual([0, undefined]);
      // Without one: no balance and no currency, rather than a balance of null.
      wallet.refuse = (call) => (call.action === 'debit' ? { code: 'account_frozen' } : undefined);
      const without = bet();
      const bare = await post('bets', without);
      expect(bare).toMatchObject({ status: 422, body: { code: 'wallet_refused', wallet_code: 'account_frozen' } });
      expect(Object.keys(bare.body)).not.toContain('balance');
      expect(Object.keys(bare.body)).not.toContain('currency');
      expect(await written(without)).toEqual([0, undefined]);
      // Refused means never made: the same bet, sent again once the operator takes it, stands.
      wallet.refuse = undefined;
      expect(await post('bets', without)).toMatchObject({ status: 200, body: { balance: '95.0000' } });
      expect(callsOf(player).map((call) => call.action)).toEqual(['debit', 'debit', 'debit']);
    } finally {
      wallet.refuse = undefined;
    }
  });

  it('a debit unanswered in time fails, and its compensating rollback gives back what the slow operator took', async () => {
    const { token, player } = await launch();
    const [tx, round] = [id('bet'), id('round')];
    wallet.misbehave = 'slow';
    wallet.slowMs = TIMEOUT_MS * 3;
    const bet = { session_token: token, transaction_id: tx, round_id: round, amount: '10' };
    expect(await post('bets', bet)).toMatchObject({ status: 502, body: { code: 'wallet_failed', retryable: false } });
    expect(await roundOf(round)).toMatchObject({ status: 'cancelled' });
    // The slow operator applied it after all; the rollback the platform queued gives it back.
    await expect.poll(() => wallet.balance(player)).toBe('90.0000');
    wallet.misbehave = 'none';
    expect(await runDue()).toMatchObject({ wallet_calls: 1, wallet_accepted: 1 });
    expect(wallet.balance(player)).toBe('100.0000');
    expect(callsOf(player).at(-1)).toMatchObject({
      action: 'rollback', transaction_id: expect.stringMatching(/^cgs-undo-/), rolled_back_transaction_id: `pragmatic-play:${tx}`, amount: '10.0000',
    });
    // The same bet again is still refused, and asks the operator nothing.
    const before = callsOf(player).length;
    expect(await post('bets', bet)).toMatchObject({ status: 502, body: { code: 'wallet_failed' } });
    expect(callsOf(player)).toHaveLength(before);
  });

  it.each(['error', 'garbage'] as const)('a debit answered with %s fails and is rolled back at the operator', async (fault) => {
    const { token, player } = await launch();
    wallet.misbehave = fault;
    const bet = { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '5' };
    expect(await post('bets', bet)).toMatchObject({ status: 502, body: { code: 'wallet_failed' } });
    wallet.misbehave = 'none';
    await runDue();
    expect(wallet.balance(player)).toBe('100.0000');
    expect(await roundOf(bet.round_id)).toMatchObject({ status: 'cancelled', total_bet: '0.0000' });
  });

  it('a credit the operator fails is recorded, retried by the runner until accepted, and applied once', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const round = id('round');
    await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: '4' });
    wallet.misbehave = 'error';
    const win = { session_token: token, transaction_id: id('win'), round_id: round, amount: '9', round_closed: true };
    expect(await post('wins', win)).toMatchObject({ status: 502, body: { code: 'wallet_pending', retryable: true } });
    // The round is settled at the platform; the operator is owed the credit.
    expect(await roundOf(round)).toMatchObject({ status: 'closed', total_win: '9.0000' });
    expect(await post('wins', win)).toMatchObject({ status: 502, body: { code: 'wallet_pending' } });
    expect(await runDue()).toMatchObject({ wallet_calls: 1, wallet_retrying: 1 });
    wallet.misbehave = 'none';
    expect(await runDue()).toMatchObject({ wallet_calls: 1, wallet_accepted: 1 });
    expect(wallet.balance(player)).toBe('105.0000');
    const answered = await post('wins', win);
    expect(answered).toMatchObject({ status: 200, replayed: 'true', body: { balance: '105.0000' } });
    // Every attempt carried the same message id and body: the operator applied it once.
    const credits = callsOf(player).filter((call) => call.action === 'credit');
    expect(credits.length).toBeGreaterThanOrEqual(3);
    expect(new Set(credits.map((call) => JSON.stringify(call))).size).toBe(1);
  });

  it('answers a balance request the wallet cannot answer with a retryable 502', async () => {
    const { token } = await launch();
    wallet.misbehave = 'error';
    expect(await balance(token)).toMatchObject({ status: 502, body: { code: 'wallet_unavailable', retryable: true } });
    wallet.misbehave = 'none';
  });

  it('holds wins and rollbacks of a bet whose debit is under way, and fails a debit whose caller died', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const [tx, round] = [id('bet'), id('round')];
    // The engine's first half alone: the debit is queued and claimed, as by a provider call that then died.
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const [{ session_id }] = await owner`select id as session_id from public.game_session where player_id = ${player}`;
    const [queued] = await owner`select outcome from private.round_bet(${sha(providerKey)}, ${session_id}, ${tx}, ${round},
      3, false, ${sha('abandoned')})`;
    expect(queued.outcome).toBe('wallet_call');
    expect(await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '1' }))
      .toMatchObject({ status: 409, body: { code: 'transaction_pending', retryable: true } });
    expect(await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: tx }))
      .toMatchObject({ status: 409, body: { code: 'transaction_pending' } });
    // The lease runs out: the runner fails the debit and tells the operator, who never saw it, to roll it back.
    expect(await runDue()).toMatchObject({ wallet_calls: 1, wallet_accepted: 1 });
    expect(await roundOf(round)).toMatchObject({ status: 'cancelled' });
    expect(callsOf(player).map((call) => call.action)).toEqual(['rollback']);
    expect(wallet.balance(player)).toBe('100.0000');
  });

  it('gives up on a credit after the schedule, tells the client, and staff send it again', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const round = id('round');
    await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: '2' });
    wallet.misbehave = 'error';
    const win = await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '6', round_closed: true });
    expect(win.body.code).toBe('wallet_pending');
    const [call] = await owner`select c.id from public.wallet_call c join public.round_transaction t on t.id = c.round_transaction_id
      where t.round_id = (select id from public.game_round where provider_round_id = ${round}) and c.action = 'credit'`;
    for (let attempt = 2; attempt <= 8; attempt++) await runDue();
    expect((await owner`select status, attempts from public.wallet_call where id = ${call.id}`)[0]).toEqual({ status: 'failed', attempts: 8 });
    const [event] = await owner`select data from public.event where type = 'wallet_call.failed' and data->>'id' = ${call.id}`;
    expect(event.data).toMatchObject({ action: 'credit', amount: '6.0000', attempts: 8 });
    wallet.misbehave = 'none';
    const people = await cast(owner);
    await as(owner, people.adam, (tx) => tx`select * from public.retry_wallet_call(${call.id})`);
    expect(await runDue()).toMatchObject({ wallet_accepted: 1 });
    expect(wallet.balance(player)).toBe('104.0000');
  });
});

describe('seamless mode when the database goes away mid-call', () => {
  it('loses nothing: the call stays queued, and the runner settles it with the operator', async () => {
    const { token, player } = await launch();
    const round = id('round');
    await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: '20' });
    // The function's database goes down while the operator is answering the credit, as in a
    // restart: every connection cut, none taken, so the answer cannot be recorded.
    const proxy = await databaseProxy(databaseUrl);
    const sql = connectDatabase(proxy.url, { max: 2 });
    const logged: string[] = [];
    const viaProxy = createApp({ sql, signer, config: local, logError: (message) => logged.push(message) });
    wallet.misbehave = 'slow';
    let answerCredit!: () => void;
    wallet.slowUntil = new Promise<void>((resolve) => (answerCredit = resolve));
    const win = { session_token: token, transaction_id: id('win'), round_id: round, amount: '50', round_closed: true };
    const answered = viaProxy(new Request('http://api.test/v3/provider/wins', {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` }, body: JSON.stringify(win),
    }));
    // The operator has the credit; the database goes before its answer comes back.
    await expect.poll(() => callsOf(player).some((call) => call.action === 'credit')).toBe(true);
    await proxy.down();
    answerCredit();
    wallet.slowUntil = undefined;
    const first = await answered;
    await proxy.up();
    await sql.end();
    wallet.misbehave = 'none';
    // The win was recorded before the credit went out: its outcome is unknown, never "nothing written".
    expect(first.status).toBe(503);
    expect(await first.json()).toMatchObject({ code: 'outcome_unknown', retryable: true });
    expect(logged).toEqual(['database unavailable']);
    expect(wallet.balance(player)).toBe('130.0000');
    // The credit is still queued: the runner sends it again, the operator answers as the first time.
    expect(await runDue()).toMatchObject({ wallet_accepted: 1 });
    expect(await post('wins', win)).toMatchObject({ status: 200, body: { balance: '130.0000' } });
    expect(wallet.balance(player)).toBe('130.0000');
    expect(callsOf(player).filter((call) => call.action === 'credit').length).toBeGreaterThanOrEqual(1);
    expect(await roundOf(round)).toMatchObject({ status: 'closed', total_bet: '20.0000', total_win: '50.0000' });
  });
});

describe('seamless mode when the wallet is down', () => {
  it('fails a debit and answers a balance request with a retryable 502', async () => {
    const down = `http://127.0.0.1:${await freePort()}/wallet`;
    const other = await newOperator(owner, 'seamless-down');
    await owner`select * from private.change_wallet_settings(${other.account.id}, true, 'seamless', ${down}, false)`;
    const response = await handle(sessionRequest(validBody, { key: other.key }));
    const token = new URL((await response.json()).launch_url).searchParams.get('token')!;
    expect(await balance(token)).toMatchObject({ status: 502, body: { code: 'wallet_unavailable' } });
    expect(await post('bets', { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '1' }))
      .toMatchObject({ status: 502, body: { code: 'wallet_failed' } });
  });
});

describe('seamless wallet calls, each sent as often as its kind allows', () => {
  afterEach(() => {
    wallet.fault = undefined;
    wallet.misbehave = 'none';
  });
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const debitsOf = (player: string, tx: string) =>
    callsOf(player).filter((call) => call.action === 'debit' && call.transaction_id === `pragmatic-play:${tx}`);
  const callOf = async (transactionId: string, action: string) => (await owner`
    select c.id, c.status, c.attempts, c.balance::text, t.response_body from public.wallet_call c
    join public.round_transaction t on t.id = c.round_transaction_id
    where t.transaction_id = ${transactionId} and c.action = ${action}`)[0];

  it.each(['error', 'slow'] as const)('a debit answered with %s reaches the operator once: never again, by the runner or a repeat', async (fault) => {
    const { token, player } = await launch();
    wallet.slowMs = TIMEOUT_MS * 3;
    wallet.fault = (call) => (call.action === 'debit' ? fault : 'none');
    const bet = { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '3' };
    expect(await post('bets', bet)).toMatchObject({ status: 502, body: { code: 'wallet_failed' } });
    for (let pass = 0; pass < 3; pass++) await runDue();
    expect(await post('bets', bet)).toMatchObject({ status: 502, body: { code: 'wallet_failed' } });
    await runDue();
    expect(debitsOf(player, bet.transaction_id)).toHaveLength(1);
    // What goes out instead is the compensating rollback, once accepted.
    expect(callsOf(player).map((call) => call.action)).toEqual(['debit', 'rollback']);
    expect(wallet.balance(player)).toBe('100.0000');
  });

  it('a debit whose caller died after sending it is never sent again: the runner sends its rollback', async () => {
    const { player } = await launch();
    const tx = id('bet');
    const [{ session_id }] = await owner`select id as session_id from public.game_session where player_id = ${player}`;
    const [queued] = await owner`select outcome, body from private.round_bet(${sha(providerKey)}, ${session_id}, ${tx}, ${id('round')},
      3, false, ${sha(tx)})`;
    expect(queued.outcome).toBe('wallet_call');
    // Sent and taken by the operator; the caller dies before recording the answer.
    expect(await sendWalletCall(queued.body as QueuedWalletCall, { timeoutMs: TIMEOUT_MS, allowPrivateUrls: true }))
      .toEqual({ kind: 'accepted', balance: '97.0000' });
    for (let pass = 0; pass < 3; pass++) await runDue();
    expect(debitsOf(player, tx)).toHaveLength(1);
    expect(callsOf(player).map((call) => call.action)).toEqual(['debit', 'rollback']);
    expect(wallet.balance(player)).toBe('100.0000');
  });

  it.each(['credit', 'rollback'] as const)('a late answer from a superseded attempt of a %s changes nothing', async (action) => {
    const { token } = await launch();
    const [tx, round] = [id('bet'), id('round')];
    expect(await post('bets', { session_token: token, transaction_id: tx, round_id: round, amount: '4' })).toMatchObject({ status: 200 });
    const [path, request, balance] = action === 'credit'
      ? ['wins' as const, { session_token: token, transaction_id: id('win'), round_id: round, amount: '9', round_closed: true }, '105.0000']
      : ['rollbacks' as const, { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: tx }, '100.0000'];
    wallet.misbehave = 'error';
    expect(await post(path, request)).toMatchObject({ status: 502, body: { code: 'wallet_pending' } });
    expect(await runDue()).toMatchObject({ wallet_calls: 1, wallet_retrying: 1 });
    const retrying = await callOf(request.transaction_id, action);
    expect(retrying).toMatchObject({ status: 'pending', attempts: 2, balance: null, response_body: null });
    // Attempt 1's answer arrives now, after attempt 2 replaced it.
    const [late] = await owner`select outcome, body from private.finish_wallet_call(${retrying.id}, 1, 'accepted', '999.0000')`;
    expect(late).toEqual({ outcome: 'wallet_pending', body: null });
    expect(await callOf(request.transaction_id, action)).toEqual(retrying);
    wallet.misbehave = 'none';
    expect(await runDue()).toMatchObject({ wallet_calls: 1, wallet_accepted: 1 });
    const accepted = await callOf(request.transaction_id, action);
    expect(accepted).toMatchObject({ status: 'accepted', attempts: 3, balance });
    // And attempt 2's failure, after attempt 3 was accepted.
    await owner`select * from private.finish_wallet_call(${retrying.id}, 2, 'failed', null, null, 'late')`;
    expect(await callOf(request.transaction_id, action)).toEqual(accepted);
    expect(await post(path, request)).toMatchObject({ status: 200, replayed: 'true', body: { balance } });
  });

  it("a runner's attempt replaced by another runner's while the operator answered is counted stale, and changes nothing", async () => {
    const { token, player } = await launch();
    const tx = id('bet');
    wallet.fault = (call) => (call.action === 'debit' ? 'error' : 'none');
    expect(await post('bets', { session_token: token, transaction_id: tx, round_id: id('round'), amount: '6' }))
      .toMatchObject({ status: 502, body: { code: 'wallet_failed' } });
    // The compensating rollback's first attempt reaches the operator, which holds its answer.
    let release!: () => void;
    wallet.slowUntil = new Promise<void>((resolve) => (release = resolve));
    wallet.fault = (call) => (call.action === 'rollback' ? 'slow' : 'none');
    const rollbacks = () => callsOf(player).filter((call) => call.action === 'rollback').length;
    const running = runDue();
    await expect.poll(rollbacks).toBe(1);
    // Its lease ends (its runner seemed gone): another runner claims attempt 2 before the answer lands.
    const rollback = await callOf(tx, 'rollback');
    await owner`update public.wallet_call set next_attempt_at = now() where id = ${rollback.id}`;
    const claimed = await owner<{ call: QueuedWalletCall }[]>`select call from private.claim_wallet_calls(50, 60)`;
    const taken = claimed.map(({ call }) => call).find((call) => call.call_id === rollback.id)!;
    expect(taken).toMatchObject({ attempt: 2 });
    release();
    wallet.slowUntil = undefined;
    wallet.fault = undefined;
    expect(await running).toMatchObject({ wallet_calls: 1, wallet_stale: 1 });
    expect(await callOf(tx, 'rollback')).toMatchObject({ status: 'pending', attempts: 2, balance: null });
    // Attempt 2's runner finishes it; the operator applied the rollback once.
    expect(await makeWalletCall(endpoint, taken, { timeoutMs: TIMEOUT_MS, allowPrivateUrls: true })).toMatchObject({ outcome: 'ok' });
    expect(await callOf(tx, 'rollback')).toMatchObject({ status: 'accepted', attempts: 2, balance: '100.0000' });
    expect(rollbacks()).toBe(2);
    expect(wallet.balance(player)).toBe('100.0000');
  });

  it('staff retry sends a failed rollback again, and never a failed debit', async () => {
    const people = await cast(owner);
    const retry = (callId: string) => as(owner, people.adam, (tx) => tx`select * from public.retry_wallet_call(${callId})`);
    const { token, player } = await launch();
    const refused = { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '5' };
    wallet.fault = (call) => (call.action === 'debit' ? 'error' : 'none');
    expect(await post('bets', refused)).toMatchObject({ status: 502, body: { code: 'wallet_failed' } });
    wallet.fault = undefined;
    const debit = await callOf(refused.transaction_id, 'debit');
    expect(debit).toMatchObject({ status: 'failed', attempts: 1 });
    expect(await outcome(() => retry(debit.id))).toBe('P0002');
    expect(await callOf(refused.transaction_id, 'debit')).toEqual(debit);
    await runDue();
    expect(debitsOf(player, refused.transaction_id)).toHaveLength(1);

    const tx = id('bet');
    expect(await post('bets', { session_token: token, transaction_id: tx, round_id: id('round'), amount: '5' })).toMatchObject({ status: 200 });
    wallet.misbehave = 'error';
    const rb = id('rb');
    expect(await post('rollbacks', { session_token: token, transaction_id: rb, rolled_back_transaction_id: tx }))
      .toMatchObject({ status: 502, body: { code: 'wallet_pending' } });
    for (let attempt = 2; attempt <= 8; attempt++) await runDue();
    const given = await callOf(rb, 'rollback');
    expect(given).toMatchObject({ status: 'failed', attempts: 8 });
    wallet.misbehave = 'none';
    expect((await retry(given.id))[0]).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await runDue()).toMatchObject({ wallet_accepted: 1 });
    expect(await callOf(rb, 'rollback')).toMatchObject({ status: 'accepted' });
    expect(wallet.balance(player)).toBe('100.0000');
    expect(callsOf(player).filter((call) => call.transaction_id === `pragmatic-play:${rb}`)).toHaveLength(9);
  });
});

describe('seamless debits the runner gave up on', () => {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const debitOf = async (transactionId: string) => (await owner`
    select c.id, c.status, c.attempts, c.balance::text from public.wallet_call c
    join public.round_transaction t on t.id = c.round_transaction_id
    where t.transaction_id = ${transactionId} and c.action = 'debit'`)[0];
  async function queuedDebit(player: string, round = id('round')) {
    const tx = id('bet');
    const [{ session_id }] = await owner`select id as session_id from public.game_session where player_id = ${player}`;
    const [queued] = await owner`select outcome from private.round_bet(${sha(providerKey)}, ${session_id}, ${tx}, ${round},
      1, false, ${sha(tx)})`;
    expect(queued.outcome).toBe('wallet_call');
    return tx;
  }

  it("a debit the runner failed stays failed when its caller's answer for the same attempt comes late", async () => {
    const { player } = await launch();
    const round = id('round');
    const tx = await queuedDebit(player, round);
    const debit = await debitOf(tx);
    // The runner fails it (its caller seemed dead), then the caller's answer arrives, for the same attempt.
    await owner`select * from private.finish_wallet_call(${debit.id}, ${debit.attempts}, 'failed', error => 'the call was never finished')`;
    const [late] = await owner`select outcome from private.finish_wallet_call(${debit.id}, ${debit.attempts}, 'accepted', '99.0000')`;
    expect(late.outcome).toBe('wallet_failed');
    expect(await debitOf(tx)).toMatchObject({ status: 'failed', balance: null });
    expect(await roundOf(round)).toMatchObject({ status: 'cancelled', total_bet: '0.0000' });
    await runDue();
  });

  it('the runner leaves a debit alone while its caller may still be waiting for the operator', async () => {
    const { player } = await launch();
    const tx = await queuedDebit(player);
    await runDeliveries(endpoint, local);
    expect(await debitOf(tx)).toMatchObject({ status: 'pending' });
    // Once its lease is up, the caller is taken for dead.
    await runDue();
    expect(await debitOf(tx)).toMatchObject({ status: 'failed' });
  });

  it('the runner never claims a debit to send, even with more debits due than it fails in one batch', async () => {
    const { player } = await launch();
    const txs = [await queuedDebit(player), await queuedDebit(player)];
    const before = await Promise.all(txs.map(debitOf));
    const ids = before.map((d) => d.id as string);
    // Both the oldest due calls there are.
    await owner`update public.wallet_call set next_attempt_at = now() - interval '1 hour' where id = any (${ids}::uuid[])`;
    const claimed = await owner<{ call: { action: string } }[]>`select call from private.claim_wallet_calls(1, 30)`;
    expect(claimed.map(({ call }) => call.action)).not.toContain('debit');
    expect((await Promise.all(txs.map(debitOf))).map((d) => d.attempts)).toEqual(before.map((d) => d.attempts));
    await runDue();
    await runDue();
    expect((await Promise.all(txs.map(debitOf))).map((d) => d.status)).toEqual(['failed', 'failed']);
  });
});
