// The sportsbook in seamless mode, in-process against a database of its own (the runner takes
// whatever is due) and the reference operator wallet the casino's seamless tests use: the stake is
// one debit, never retried (refused: nothing placed; unanswered: the bet discarded and the debit
// rolled back); payouts are credits and clawbacks debits naming the bet's settlement, retried until
// the wallet takes them; a discard is a rollback of the stake; a clawback the wallet refuses for
// funds is owed and taken from the player's next payout; a bet settles in the wallet mode it was
// placed in. Every count is of the requests the wallet received.
import { createHash, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../supabase/functions/_shared/database.ts';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner, type SessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { databaseProxy } from '../helpers/db-proxy.ts';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { as, cast } from '../helpers/db.ts';
import { type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { isolatedDatabase, newOperator, type Operator, sessionRequest, validBody } from '../helpers/api.ts';
import { sportsbookGame } from './sportsbook.ts';

// Long enough for a loaded machine's answer; the slow wallet below answers only once the test says.
const TIMEOUT_MS = 2_000;
const local = { allowPrivateUrls: true, walletTimeoutMs: TIMEOUT_MS };
let owner: Sql;
let endpoint: Sql;
let handle: (request: Request) => Promise<Response>;
let operator: Operator;
let providerKey: string;
let wallet: ReferenceWallet;
let gameId: string;
let databaseUrl: string;
let signer: SessionTokenSigner;

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  ({ owner, endpoint, url: databaseUrl } = await isolatedDatabase('sportsbook_seamless'));
  signer = await createSessionTokenSigner({ issuer: 'https://cgs.test' });
  handle = createApp({ sql: endpoint, signer, config: local });
  operator = await newOperator(owner, 'sportsbook-seamless');
  providerKey = (await owner`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  gameId = `pragmatic-play:${await sportsbookGame(owner)}`;
  const setTo = (url: string) => owner`
    select * from private.change_wallet_settings(${operator.account.id}, true, 'seamless', ${url}, false)`;
  const [{ secret }] = await setTo('https://wallet.operator.test/');
  wallet = await startReferenceWallet(secret);
  await setTo(wallet.url);
});
afterAll(() => wallet?.close());

const id = (prefix: string) => `${prefix}-${randomUUID()}`;

/** A new session's launch token (POST /v3/sessions) of the sportsbook game, for a player of its own. */
async function launch(who: Operator = operator, player = id('player')): Promise<{ token: string; player: string }> {
  const response = await handle(sessionRequest({ ...validBody, player_id: player, game_id: gameId }, { key: who.key }));
  expect(response.status).toBe(201);
  return { token: new URL((await response.json()).launch_url).searchParams.get('token')!, player };
}

const operations: Record<string, OperationId> = {
  '': 'providerSportsbookPlace', commit: 'providerSportsbookCommit', discard: 'providerSportsbookDiscard',
  settlements: 'providerSportsbookSettle', unsettle: 'providerSportsbookUnsettle', close: 'providerSportsbookClose',
};

/** A provider call: POST /v3/provider/sportsbook/bets, or .../bets/{bet_id}/{what}; each answer held to the document. */
async function post(bet: string | null, what: keyof typeof operations, body: object) {
  const path = bet === null ? '' : `/${encodeURIComponent(bet)}/${what}`;
  const response = await handle(new Request(`http://api.test/v3/provider/sportsbook/bets${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` },
    body: JSON.stringify(body),
  }));
  const text = await response.text();
  expectResponseMatches(operations[what], response, JSON.parse(text));
  return { status: response.status, text, body: JSON.parse(text), replayed: response.headers.get('idempotent-replayed') };
}

const placement = (token: string, bet: string, extra: object = {}) => ({
  session_token: token, bet_id: bet, transaction_id: id('tx'), amount: '10.00', odds: '3.00', potential_payout: '30.00',
  selections: [{ event: 'Northport v Eastbay', market: '1X2', pick: '1' }], ...extra,
});

const callsOf = (player: string) => wallet.calls.filter((call) => call.player_id === player);
const actionsOf = (player: string) => callsOf(player).map((call) => call.action);
const betOf = async (bet: string) => (await owner`
  select b.status, b.payout::text, b.paid::text, b.owed::text, b.settlements, r.wallet_mode, r.status as round_status
  from public.sportsbook_bet b join public.game_round r on r.id = b.round_id where r.provider_round_id = ${bet}`)[0];
const eventsOf = async (bet: string) => (await owner`
  select type, data from public.event where data->>'bet_id' = ${bet} order by created_at, id`);
/** Runs the delivery runner once with every pending wallet call made due. */
async function runDue() {
  await owner`update public.wallet_call set next_attempt_at = now() where status = 'pending'`;
  return runDeliveries(endpoint, local);
}

describe('the sportsbook in seamless mode', () => {
  it('takes the stake with one debit and pays, claws back and pays again with calls naming the bet', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const bet = id('bet');
    const body = placement(token, bet);
    const placed = await post(null, '', body);
    expect(placed).toMatchObject({ status: 200, body: { status: 'open', balance: '90.0000', currency: 'EUR', paid: '0.0000' } });
    expect(await post(null, '', body)).toMatchObject({ status: 200, text: placed.text, replayed: 'true' });
    expect(callsOf(player)).toEqual([expect.objectContaining({
      action: 'debit', transaction_id: `pragmatic-play:${body.transaction_id}`, round_id: `pragmatic-play:${bet}`,
      bet_id: `pragmatic-play:${bet}`, amount: '10.0000', currency: 'EUR', game_id: gameId,
    })]);

    const won = { transaction_id: id('tx'), result: 'won', payout: '30' };
    const settled = await post(bet, 'settlements', won);
    expect(settled).toMatchObject({ status: 200, body: { status: 'settled', result: 'won', payout: '30.0000', paid: '30.0000', balance: '120.0000' } });
    expect(await post(bet, 'settlements', won)).toMatchObject({ text: settled.text, replayed: 'true' });
    const lost = { transaction_id: id('tx'), result: 'lost', payout: '0' };
    expect(await post(bet, 'settlements', lost)).toMatchObject({ status: 200, body: { payout: '0.0000', paid: '0.0000', balance: '90.0000' } });
    // The same payout again moves nothing: no call, no balance known.
    expect(await post(bet, 'settlements', { transaction_id: id('tx'), result: 'lost', payout: '0' }))
      .toMatchObject({ status: 200, body: { payout: '0.0000', balance: null } });
    const again = { transaction_id: id('tx'), result: 'half_won', payout: '20' };
    expect(await post(bet, 'settlements', again)).toMatchObject({ status: 200, body: { paid: '20.0000', balance: '110.0000' } });
    expect(await post(bet, 'unsettle', { transaction_id: id('tx') })).toMatchObject({ status: 200, body: { status: 'open', balance: '90.0000' } });
    await post(bet, 'settlements', { transaction_id: id('tx'), result: 'void', payout: '10' });
    expect(await post(bet, 'close', { transaction_id: id('tx') })).toMatchObject({ status: 200, body: { status: 'closed', balance: null } });

    expect(actionsOf(player)).toEqual(['debit', 'credit', 'debit', 'credit', 'debit', 'credit']);
    const calls = callsOf(player);
    expect(calls.every((call) => call.bet_id === `pragmatic-play:${bet}`)).toBe(true);
    // A clawback is a debit naming the settlement that made it.
    expect(calls[2]).toMatchObject({ action: 'debit', transaction_id: `pragmatic-play:${lost.transaction_id}`, amount: '30.0000' });
    expect(wallet.balance(player)).toBe('100.0000');
    expect(await betOf(bet)).toMatchObject({ status: 'closed', payout: '10.0000', paid: '10.0000', owed: '0.0000', wallet_mode: 'seamless' });
    expect((await eventsOf(bet)).map((event) => event.type)).toEqual(['sportsbook.bet.placed', 'sportsbook.bet.settled',
      'sportsbook.bet.resettled', 'sportsbook.bet.resettled', 'sportsbook.bet.resettled', 'sportsbook.bet.unsettled',
      'sportsbook.bet.settled', 'sportsbook.bet.closed']);
    // The float is untouched: no ledger row for a seamless operator.
    expect((await owner`select count(*)::int as n from public.transaction where client_id = ${operator.account.id}`)[0].n).toBe(0);
  });

  it('places nothing when the wallet refuses the stake, and judges the same bet again later', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const bet = id('bet');
    const body = placement(token, bet, { amount: '150', potential_payout: '450' });
    expect(await post(null, '', body)).toMatchObject({
      status: 422, body: { code: 'insufficient_funds', balance: '100.0000', currency: 'EUR', retryable: false },
    });
    expect(await betOf(bet)).toBeUndefined();
    expect((await owner`select count(*)::int as n from public.round_transaction where transaction_id = ${body.transaction_id}`)[0].n).toBe(0);
    expect(await eventsOf(bet)).toEqual([]);
    wallet.balances.set(player, 2_000_000n);
    expect(await post(null, '', body)).toMatchObject({ status: 200, body: { status: 'open', balance: '50.0000' } });
    expect(actionsOf(player)).toEqual(['debit', 'debit']);
  });

  it("answers a stake the operator refuses for its own reason as wallet_refused, with its code and any balance it gave, placing nothing", async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    try {
      wallet.refuse = (call) => (call.action === 'debit' ? { code: 'player_blocked', balance: '100.0000' } : undefined);
      const withBalance = placement(token, id('bet'));
      expect(await post(null, '', withBalance)).toMatchObject({ status: 422, body: {
        code: 'wallet_refused', wallet_code: 'player_blocked', balance: '100.0000', currency: 'EUR', retryable: false,
        detail: "The operator's wallet refused the stake (player_blocked); the bet is not placed.",
      } });
      expect(await betOf(withBalance.bet_id)).toBeUndefined();
      // Without one: no balance and no currency, rather than a balance of null.
      wallet.refuse = (call) => (call.action === 'debit' ? { code: 'account_frozen' } : undefined);
      const without = placement(token, id('bet'));
      const bare = await post(null, '', without);
      expect(bare).toMatchObject({ status: 422, body: { code: 'wallet_refused', wallet_code: 'account_frozen' } });
      expect(Object.keys(bare.body)).not.toContain('balance');
      expect(Object.keys(bare.body)).not.toContain('currency');
      // Refused means never made: the same bet, sent again once the operator takes it, stands.
      wallet.refuse = undefined;
      expect(await post(null, '', without)).toMatchObject({ status: 200, body: { status: 'open', balance: '90.0000' } });
      expect(actionsOf(player)).toEqual(['debit', 'debit', 'debit']);
    } finally {
      wallet.refuse = undefined;
    }
  });

  it('discards a bet whose stake the wallet never answers, and rolls the debit back there', async () => {
    const { token, player } = await launch();
    const bet = id('bet');
    const body = placement(token, bet);
    wallet.misbehave = 'slow';
    let answer!: () => void;
    wallet.slowUntil = new Promise<void>((resolve) => (answer = resolve));
    expect(await post(null, '', body)).toMatchObject({ status: 502, body: { code: 'wallet_failed', retryable: false } });
    answer();
    wallet.slowUntil = undefined;
    expect(await betOf(bet)).toMatchObject({ status: 'discarded', round_status: 'cancelled', paid: '0.0000' });
    expect((await betOf(bet)).settlements).toEqual([expect.objectContaining({ type: 'discard', reason: 'wallet_failed' })]);
    expect((await eventsOf(bet)).map((event) => [event.type, event.data.reason])).toEqual([['sportsbook.bet.discarded', 'wallet_failed']]);
    // The slow wallet took it after all; the rollback the platform queued gives it back.
    await expect.poll(() => wallet.balance(player)).toBe('90.0000');
    wallet.misbehave = 'none';
    expect(await runDue()).toMatchObject({ wallet_calls: 1, wallet_accepted: 1 });
    expect(wallet.balance(player)).toBe('100.0000');
    expect(callsOf(player).at(-1)).toMatchObject({
      action: 'rollback', rolled_back_transaction_id: `pragmatic-play:${body.transaction_id}`, bet_id: `pragmatic-play:${bet}`,
    });
    // The same placement again is still refused and asks the wallet nothing; the bet takes nothing more.
    expect(await post(null, '', body)).toMatchObject({ status: 502, body: { code: 'wallet_failed' } });
    expect(await post(bet, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '30' }))
      .toMatchObject({ status: 422, body: { code: 'bet_discarded' } });
    expect(actionsOf(player)).toEqual(['debit', 'rollback']);
  });

  it('holds every call on a bet whose stake is under way, and discards it when its caller died', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const [bet, tx] = [id('bet'), id('tx')];
    // The engine's first half alone: the debit is queued and claimed, as by a provider call that then died.
    const [{ session_id }] = await owner`select id as session_id from public.game_session where player_id = ${player}`;
    const [queued] = await owner`select outcome from private.sportsbook_place(${sha(providerKey)}, ${session_id}, ${bet}, ${tx},
      10, 3, 30, '[]'::jsonb, true, ${sha('abandoned')})`;
    expect(queued.outcome).toBe('wallet_call');
    for (const [what, body] of [['commit', {}], ['discard', {}], ['settlements', { result: 'lost', payout: '0' }], ['unsettle', {}]] as const) {
      expect(await post(bet, what, { transaction_id: id('tx'), ...body }))
        .toMatchObject({ status: 409, body: { code: 'transaction_pending', retryable: true } });
    }
    // Reserved and waiting: not the engine's to discard as expired.
    await owner`update public.sportsbook_bet set placed_at = now() - interval '1 day' where round_id = (
      select id from public.game_round where provider_round_id = ${bet})`;
    expect(await owner`select private.sportsbook_discard_expired() as n`).toEqual([{ n: 0 }]);
    expect(await betOf(bet)).toMatchObject({ status: 'reserved' });
    // The lease runs out: the runner fails the debit, and tells the wallet, which never saw it, to roll it back.
    expect(await runDue()).toMatchObject({ wallet_calls: 1, wallet_accepted: 1 });
    expect(await betOf(bet)).toMatchObject({ status: 'discarded', round_status: 'cancelled' });
    expect(actionsOf(player)).toEqual(['rollback']);
    expect(wallet.balance(player)).toBe('100.0000');
  });

  it('gives a discarded reservation back with a rollback of its stake, by the provider or when left too long', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const [dropped, expired] = [id('bet'), id('bet')];
    const first = placement(token, dropped, { two_phase: true });
    expect(await post(null, '', first)).toMatchObject({ status: 200, body: { status: 'reserved', balance: '90.0000' } });
    const discard = { transaction_id: id('tx') };
    const given = await post(dropped, 'discard', discard);
    expect(given).toMatchObject({ status: 200, body: { status: 'discarded', balance: '100.0000' } });
    expect(await post(dropped, 'discard', discard)).toMatchObject({ text: given.text, replayed: 'true' });
    expect(callsOf(player).at(-1)).toMatchObject({
      action: 'rollback', transaction_id: `pragmatic-play:${discard.transaction_id}`,
      rolled_back_transaction_id: `pragmatic-play:${first.transaction_id}`, amount: '10.0000',
    });
    await post(null, '', placement(token, expired, { two_phase: true, amount: '5', potential_payout: '15' }));
    await owner`update public.sportsbook_bet set placed_at = now() - interval '1 day' where round_id = (
      select id from public.game_round where provider_round_id = ${expired})`;
    // The round that discards it queues its rollback, sent by that round or the next: a round runs
    // the sweep and the wallet calls side by side, so which claim sees it first is not fixed.
    const rounds = [await runDue(), await runDue()];
    expect(rounds[0]).toMatchObject({ sportsbook_discarded: 1 });
    expect(rounds.map((round) => round.wallet_accepted ?? 0).reduce((a, b) => a + b)).toBe(1);
    expect(await betOf(expired)).toMatchObject({ status: 'discarded' });
    expect(actionsOf(player)).toEqual(['debit', 'rollback', 'debit', 'rollback']);
    expect(wallet.balance(player)).toBe('100.0000');
  });

  it('retries a payout the wallet fails until it takes it, and applies it once', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const bet = id('bet');
    await post(null, '', placement(token, bet));
    wallet.misbehave = 'error';
    const won = { transaction_id: id('tx'), result: 'won', payout: '30' };
    expect(await post(bet, 'settlements', won)).toMatchObject({ status: 502, body: { code: 'wallet_pending', retryable: true } });
    // The bet is settled at the platform; the wallet is owed the credit.
    expect(await betOf(bet)).toMatchObject({ status: 'settled', payout: '30.0000', paid: '30.0000' });
    expect(await post(bet, 'settlements', won)).toMatchObject({ status: 502, body: { code: 'wallet_pending' } });
    expect(await runDue()).toMatchObject({ wallet_calls: 1, wallet_retrying: 1 });
    wallet.misbehave = 'none';
    expect(await runDue()).toMatchObject({ wallet_calls: 1, wallet_accepted: 1 });
    expect(wallet.balance(player)).toBe('120.0000');
    expect(await post(bet, 'settlements', won)).toMatchObject({
      status: 200, replayed: 'true', body: { status: 'settled', result: 'won', payout: '30.0000', balance: '120.0000' },
    });
    const credits = callsOf(player).filter((call) => call.action === 'credit');
    expect(credits.length).toBeGreaterThanOrEqual(3);
    expect(new Set(credits.map((call) => JSON.stringify(call))).size).toBe(1);
  });

  it('owes a clawback the wallet refuses for funds, and takes it from the next payout', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const [first, second] = [id('bet'), id('bet')];
    await post(null, '', placement(token, first));
    await post(null, '', placement(token, second, { odds: '4', potential_payout: '40' }));
    await post(first, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '30' });
    // The player spends it elsewhere: the wallet cannot cover the clawback.
    wallet.balances.set(player, 50_000n);
    const lost = { transaction_id: id('tx'), result: 'lost', payout: '0' };
    const owed = await post(first, 'settlements', lost);
    expect(owed).toMatchObject({ status: 200, body: { payout: '0.0000', paid: '30.0000', owed: '30.0000', balance: '5.0000' } });
    expect(await post(first, 'settlements', lost)).toMatchObject({ text: owed.text, replayed: 'true' });
    expect(await betOf(first)).toMatchObject({ payout: '0.0000', paid: '30.0000', owed: '30.0000' });
    expect((await betOf(first)).settlements.at(-1)).toMatchObject({ type: 'clawback_refused', moved: '30.0000', owed: '30.0000' });
    expect((await eventsOf(first)).at(-1)).toMatchObject({ type: 'sportsbook.clawback.pending', data: { amount: '30.0000', player_owed: '30.0000' } });
    // Done with, not retried: the runner has nothing to send, and staff have nothing to send again.
    expect(await runDue()).not.toHaveProperty('wallet_calls');
    const [refused] = await owner`select c.id, c.status, c.last_error from public.wallet_call c
      join public.round_transaction t on t.id = c.round_transaction_id where t.transaction_id = ${lost.transaction_id}`;
    expect(refused).toMatchObject({ status: 'accepted', last_error: 'refused: insufficient_funds (owed)' });
    const people = await cast(owner);
    await expect(as(owner, people.adam, (tx) => tx`select * from public.retry_wallet_call(${refused.id})`))
      .rejects.toMatchObject({ code: 'P0002' });
    // The next payout pays the debt first: all 25 of it withheld, so nothing to send and no balance known.
    expect(await post(second, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '25' }))
      .toMatchObject({ status: 200, body: { paid: '25.0000', balance: null } });
    expect(await betOf(first)).toMatchObject({ paid: '5.0000', owed: '5.0000' });
    expect((await betOf(first)).settlements.at(-1)).toMatchObject({ type: 'recovery', moved: '-25.0000', from_bet_id: second });
    // A rise of 15: 5 to the rest of the debt, 10 credited.
    expect(await post(second, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '40' }))
      .toMatchObject({ status: 200, body: { paid: '40.0000', balance: '15.0000' } });
    expect(await betOf(first)).toMatchObject({ paid: '0.0000', owed: '0.0000' });
    expect(callsOf(player).at(-1)).toMatchObject({ action: 'credit', amount: '10.0000', bet_id: `pragmatic-play:${second}` });
    expect(actionsOf(player)).toEqual(['debit', 'debit', 'credit', 'debit', 'credit']);
    // At the wallet the two bets moved their final payouts less their stakes, (0 - 10) + (40 - 10):
    // -10 - 10 + 30 + 10, on top of the 5 the player had left.
    expect(wallet.balance(player)).toBe('15.0000');
  });

  it('settles a bet in the wallet mode it was placed in, whatever the mode is since', async () => {
    const other = await newOperator(owner, 'sportsbook-switch');
    await owner`insert into public.wallet (client_id, currency_code, is_primary) values (${other.account.id}, 'EUR', true)`;
    await owner`select * from public.record_transaction(${other.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
    const change = (to: string, url: string | null) => owner`
      select outcome, secret from private.change_wallet_settings(${other.account.id}, true, ${to}, ${url}, false)`;
    const [{ secret }] = await change('seamless', 'https://wallet.operator.test/');
    const theirs = await startReferenceWallet(secret);
    try {
      await change('transfer', theirs.url);
      const { token, player } = await launch(other);
      const [transfer, seamless] = [id('bet'), id('bet')];
      expect(await post(null, '', placement(token, transfer))).toMatchObject({ status: 200, body: { balance: '90.0000' } });
      // Switched with the bet open (its round is never open): it stays the float's.
      expect((await change('seamless', null))[0].outcome).toBe('updated');
      expect(await post(null, '', placement(token, seamless))).toMatchObject({ status: 200, body: { balance: '90.0000' } });
      expect((await change('transfer', null))[0].outcome).toBe('updated');
      expect(await post(transfer, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '30' }))
        .toMatchObject({ status: 200, body: { balance: '120.0000' } });
      expect(await post(seamless, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '25' }))
        .toMatchObject({ status: 200, body: { balance: '115.0000' } });
      expect(theirs.calls.map((call) => [call.action, call.bet_id])).toEqual([
        ['debit', `pragmatic-play:${seamless}`], ['credit', `pragmatic-play:${seamless}`]]);
      expect(theirs.balance(player)).toBe('115.0000');
      expect((await owner`select balance::text from public.wallet where client_id = ${other.account.id}`)[0].balance).toBe('120.0000');
      expect((await betOf(transfer)).wallet_mode).toBe('transfer');
      expect((await betOf(seamless)).wallet_mode).toBe('seamless');
      // A clawback owed to the float is taken from the player's transfer payouts only: a seamless
      // payout is credited whole (the two wallets never pay each other's debts).
      await owner`select * from public.record_transaction(${other.account.id}::uuid, 'EUR', 'withdraw', -115::numeric)`;
      expect(await post(transfer, 'settlements', { transaction_id: id('tx'), result: 'lost', payout: '0' }))
        .toMatchObject({ status: 200, body: { owed: '25.0000', balance: '0.0000' } });
      expect(await post(seamless, 'settlements', { transaction_id: id('tx'), result: 'won', payout: '30' }))
        .toMatchObject({ status: 200, body: { balance: '120.0000' } });
      expect(theirs.calls.at(-1)).toMatchObject({ action: 'credit', amount: '5.0000' });
      expect(await betOf(transfer)).toMatchObject({ owed: '25.0000' });
    } finally {
      await theirs.close();
    }
  });

  it('answers outcome_unknown when the database goes while the wallet answers a payout: the credit stays queued', async () => {
    wallet.misbehave = 'none';
    const { token, player } = await launch();
    const bet = id('bet');
    await post(null, '', placement(token, bet));
    const proxy = await databaseProxy(databaseUrl);
    const sql = connectDatabase(proxy.url, { max: 2 });
    const logged: string[] = [];
    const viaProxy = createApp({ sql, signer, config: local, logError: (message) => logged.push(message) });
    wallet.misbehave = 'slow';
    let answerCredit!: () => void;
    wallet.slowUntil = new Promise<void>((resolve) => (answerCredit = resolve));
    const won = { transaction_id: id('tx'), result: 'won', payout: '30' };
    const answered = viaProxy(new Request(`http://api.test/v3/provider/sportsbook/bets/${bet}/settlements`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` }, body: JSON.stringify(won),
    }));
    // The operator has the credit; the database goes before its answer comes back.
    await expect.poll(() => actionsOf(player).includes('credit')).toBe(true);
    await proxy.down();
    answerCredit();
    wallet.slowUntil = undefined;
    const first = await answered;
    await proxy.up();
    await sql.end();
    wallet.misbehave = 'none';
    // The settlement was recorded before the credit went out: its outcome is unknown, never "nothing written".
    expect(first.status).toBe(503);
    expect(await first.json()).toMatchObject({ code: 'outcome_unknown', retryable: true });
    expect(logged).toEqual(['database unavailable']);
    expect(await runDue()).toMatchObject({ wallet_accepted: 1 });
    expect(await post(bet, 'settlements', won)).toMatchObject({ status: 200, body: { status: 'settled', balance: '120.0000' } });
    expect(wallet.balance(player)).toBe('120.0000');
  });
});
