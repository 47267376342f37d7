// A round end to end under real Deno, as a game provider's server plays it: the operator creates a
// session over HTTP, the provider takes a bet, pays a win and rolls another bet back with its own
// key and the launch token, and the operator's ledger shows each movement once; in seamless mode,
// the reference operator wallet does.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorClient } from '../../sdks/typescript/src/index.ts';
import { serveApiForFile } from '../openapi/served-api.ts';
import { startReferenceWallet } from '../helpers/reference-wallet.ts';
import { newOperator } from '../helpers/api.ts';

const api = serveApiForFile('rounds-e2e');
let providerKey: string;

beforeAll(async () => {
  await api.sql`insert into public.wallet (client_id, currency_code, is_primary) values (${api.operator.account.id}, 'EUR', true)`;
  await api.sql`select * from public.record_transaction(${api.operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  providerKey = (await api.sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
});

const call = async (path: string, key: string, body?: object) => {
  const response = await fetch(`${api.url}/v3${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
};

describe('a round under Deno', () => {
  it('bet, win, rollback: each answered with the balance, each moving the float once', async () => {
    const session = await call('/sessions', api.operator.key, { player_id: 'p-e2e', game_id: 'pragmatic-play:vs20olympgate', currency: 'EUR' });
    expect(session.status).toBe(201);
    const token = new URL(session.body.launch_url).searchParams.get('token')!;
    const round = `round-${randomUUID()}`;
    const [bet1, bet2] = [`bet-${randomUUID()}`, `bet-${randomUUID()}`];
    expect(await call(`/provider/balance?session_token=${token}`, providerKey)).toEqual({ status: 200, body: { balance: '100.0000', currency: 'EUR' } });
    expect((await call('/provider/bets', providerKey, { session_token: token, transaction_id: bet1, round_id: round, amount: '10' })).body)
      .toMatchObject({ balance: '90.0000' });
    expect((await call('/provider/bets', providerKey, { session_token: token, transaction_id: bet2, round_id: round, amount: '5' })).body)
      .toMatchObject({ balance: '85.0000' });
    expect((await call('/provider/rollbacks', providerKey, { session_token: token, transaction_id: `rb-${randomUUID()}`, rolled_back_transaction_id: bet2 })).body)
      .toMatchObject({ balance: '90.0000' });
    expect((await call('/provider/wins', providerKey, {
      session_token: token, transaction_id: `win-${randomUUID()}`, round_id: round, amount: '30', round_closed: true, bet_transaction_id: bet1,
    })).body).toMatchObject({ balance: '120.0000' });
    const ledger = await call('/transactions?limit=10', api.operator.key);
    expect(ledger.body.data.map((t: { type: string; amount: string }) => `${t.type} ${t.amount}`))
      .toEqual(['win 30.0000', 'adjustment 5.0000', 'bet -5.0000', 'bet -10.0000', 'deposit 100.0000']);
    // The operator reads the round back through the SDK.
    const client = createOperatorClient({ baseUrl: api.url, apiKey: api.operator.key });
    const [listed] = (await client.rounds.list({ sessionId: session.body.id })).data;
    expect(listed).toMatchObject({ round_id: round, status: 'closed', total_bet: '10.0000', total_win: '30.0000' });
    expect((await client.rounds.get(listed.id)).transactions.map((t) => t.type)).toEqual(['bet', 'bet', 'rollback', 'win']);
  });
});

describe('a seamless round under Deno', () => {
  const wallets: { close(): Promise<void> }[] = [];
  afterAll(() => Promise.all(wallets.map((wallet) => wallet.close())));

  it('bet, win, rollback: each a signed call the operator applies once, answered with its balance', async () => {
    const operator = await newOperator(api.sql, 'seamless-e2e');
    const put = (url: string) => fetch(`${api.url}/v3/wallet-settings`, {
      method: 'PUT', headers: { authorization: `Bearer ${operator.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'seamless', url }),
    }).then((response) => response.json());
    const wallet = await startReferenceWallet((await put('http://127.0.0.1:9/wallet')).secret, '50');
    wallets.push(wallet);
    await put(wallet.url);
    const session = await call('/sessions', operator.key, { player_id: 'p-seamless', game_id: 'pragmatic-play:vs20olympgate', currency: 'EUR' });
    const token = new URL(session.body.launch_url).searchParams.get('token')!;
    const round = `round-${randomUUID()}`;
    const [bet1, bet2] = [`bet-${randomUUID()}`, `bet-${randomUUID()}`];
    expect((await call(`/provider/balance?session_token=${token}`, providerKey)).body).toEqual({ balance: '50.0000', currency: 'EUR' });
    expect((await call('/provider/bets', providerKey, { session_token: token, transaction_id: bet1, round_id: round, amount: '10' })).body)
      .toMatchObject({ balance: '40.0000' });
    expect((await call('/provider/bets', providerKey, { session_token: token, transaction_id: bet2, round_id: round, amount: '5' })).body)
      .toMatchObject({ balance: '35.0000' });
    expect((await call('/provider/rollbacks', providerKey, { session_token: token, transaction_id: `rb-${randomUUID()}`, rolled_back_transaction_id: bet2 })).body)
      .toMatchObject({ balance: '40.0000' });
    expect(await call('/provider/wins', providerKey, {
      session_token: token, transaction_id: `win-${randomUUID()}`, round_id: round, amount: '25', round_closed: true,
    })).toEqual({ status: 200, body: expect.objectContaining({ balance: '65.0000' }) });
    expect(wallet.balance('p-seamless')).toBe('65.0000');
    expect(wallet.forged).toBe(0);
    expect(wallet.calls.map((c) => c.action)).toEqual(['balance', 'debit', 'debit', 'rollback', 'credit']);
    const [listed] = (await createOperatorClient({ baseUrl: api.url, apiKey: operator.key }).rounds.list({ sessionId: session.body.id })).data;
    expect(listed).toMatchObject({ status: 'closed', total_bet: '10.0000', total_win: '25.0000' });
  });
});
