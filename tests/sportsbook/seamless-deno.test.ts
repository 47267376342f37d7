// A seamless operator's sportsbook bet end to end under real Deno, against the reference operator
// wallet, on a database of its own (the delivery runner takes whatever is due): the operator
// launches the product over HTTP, the provider places a bet (one debit, however often the
// placement is repeated), settles it (a credit), resettles it against the player while the wallet
// fails (a clawback debit, retried by the runner until the wallet takes it) and closes it; the wallet
// holds the final payout less the stake, and the bets API and the events agree.
import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedFunction, serveFunction } from '../../scripts/lib/deno-function.ts';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { connectDatabase } from '../../supabase/functions/_shared/database.ts';
import { isolatedDatabase, newOperator, type Operator } from '../helpers/api.ts';
import { type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { sportsbookGame } from './sportsbook.ts';

let owner: Sql;
let runner: Sql;
let served: ServedFunction;
let operator: Operator;
let providerKey: string;
let gameId: string;
let wallet: ReferenceWallet;

beforeAll(async () => {
  const database = await isolatedDatabase('sportsbook_seamless_deno');
  owner = database.owner;
  runner = database.endpoint;
  // Local-run semantics, as npm start: the reference wallet listens on 127.0.0.1.
  served = await serveFunction({ databaseUrl: database.url, env: { ALLOW_PRIVATE_URLS: 'true', WALLET_TIMEOUT_MS: '2000' } });
  operator = await newOperator(owner, 'sportsbook-seamless-deno');
  providerKey = (await owner`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  gameId = `pragmatic-play:${await sportsbookGame(owner)}`;
  const setTo = (url: string) => owner`
    select * from private.change_wallet_settings(${operator.account.id}, true, 'seamless', ${url}, false)`;
  const [{ secret }] = await setTo('https://wallet.operator.test/');
  wallet = await startReferenceWallet(secret);
  await setTo(wallet.url);
});
afterAll(async () => {
  await served?.stop();
  await wallet?.close();
});

const call = async (path: string, key: string, body?: object) => {
  const response = await fetch(`${served.url}/v3${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, text: await response.clone().text(), body: await response.json() };
};

describe('a seamless sportsbook bet under Deno', () => {
  it('one debit for the stake, a credit, a clawback retried until taken: the wallet holds the final payout less the stake', async () => {
    const session = await call('/sessions', operator.key, { player_id: 'p-sb-seamless', game_id: gameId, currency: 'EUR' });
    expect(session.status).toBe(201);
    const token = new URL(session.body.launch_url).searchParams.get('token')!;
    const bet = `bet-${randomUUID()}`;
    const tx = () => `tx-${randomUUID()}`;
    const placement = {
      session_token: token, bet_id: bet, transaction_id: tx(), amount: '10', odds: '3.2', potential_payout: '32',
      selections: [{ event: 'Northport v Eastbay', pick: '1' }, { event: 'Westfield v Southgate', pick: 'X' }],
    };
    const placed = await call('/provider/sportsbook/bets', providerKey, placement);
    expect(placed.body).toMatchObject({ status: 'open', balance: '90.0000' });
    expect((await call('/provider/sportsbook/bets', providerKey, placement)).text).toBe(placed.text);
    expect((await call(`/provider/sportsbook/bets/${bet}/settlements`, providerKey, { transaction_id: tx(), result: 'won', payout: '32' })).body)
      .toMatchObject({ status: 'settled', balance: '122.0000' });

    // The wallet fails the clawback: recorded, and the runner sends it again until it is taken.
    const lost = { transaction_id: tx(), result: 'lost', payout: '0' };
    wallet.fault = (request) => (request.transaction_id === `pragmatic-play:${lost.transaction_id}` ? 'error' : 'none');
    expect(await call(`/provider/sportsbook/bets/${bet}/settlements`, providerKey, lost))
      .toMatchObject({ status: 502, body: { code: 'wallet_pending', retryable: true } });
    await owner`update public.wallet_call set next_attempt_at = now() where status = 'pending'`;
    expect(await runDeliveries(runner, { allowPrivateUrls: true })).toMatchObject({ wallet_calls: 1, wallet_retrying: 1 });
    wallet.fault = undefined;
    await owner`update public.wallet_call set next_attempt_at = now() where status = 'pending'`;
    expect(await runDeliveries(runner, { allowPrivateUrls: true })).toMatchObject({ wallet_calls: 1, wallet_accepted: 1 });
    expect(await call(`/provider/sportsbook/bets/${bet}/settlements`, providerKey, lost))
      .toMatchObject({ status: 200, body: { result: 'lost', paid: '0.0000', balance: '90.0000' } });
    expect((await call(`/provider/sportsbook/bets/${bet}/close`, providerKey, { transaction_id: tx() })).body)
      .toMatchObject({ status: 'closed', balance: null });

    const received = wallet.calls.map((request) => `${request.action} ${request.amount}`);
    expect(received.filter((request) => request.startsWith('debit 10'))).toEqual(['debit 10.0000']);
    expect(received).toEqual(['debit 10.0000', 'credit 32.0000', 'debit 32.0000', 'debit 32.0000', 'debit 32.0000']);
    expect(wallet.calls.every((request) => request.bet_id === `pragmatic-play:${bet}`)).toBe(true);
    expect(wallet.balance('p-sb-seamless')).toBe('90.0000');
    // No float moved; the bets API and the events tell the same story.
    expect((await call('/transactions', operator.key)).body.data).toEqual([]);
    const [listed] = (await call('/sportsbook/bets?player_id=p-sb-seamless', operator.key)).body.data;
    expect(listed).toMatchObject({ bet_id: bet, wallet_mode: 'seamless', status: 'closed', result: 'lost', payout: '0.0000', paid: '0.0000' });
    expect(listed.settlements.map((s: { result: string; moved: string }) => `${s.result} ${s.moved}`)).toEqual(['won 32.0000', 'lost -32.0000']);
    const events = await call('/events?limit=10', operator.key);
    expect(events.body.data.filter((e: { type: string }) => e.type.startsWith('sportsbook.')).map((e: { type: string }) => e.type))
      .toEqual(['sportsbook.bet.closed', 'sportsbook.bet.resettled', 'sportsbook.bet.settled', 'sportsbook.bet.placed']);
  });
});
