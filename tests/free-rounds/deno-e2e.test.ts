// Free rounds end to end under real Deno, over HTTP: the operator makes a campaign for a player
// (and reads it back through the TypeScript SDK), the provider lists the session's usable grants,
// plays them (free bets moving no money, per-round wins credited once, up to max_win), pays a
// lump-sum grant once, and the operator's ledger and events show each credit once; in seamless
// mode the reference operator wallet takes no debit and one credit naming the grant.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorClient } from '../../sdks/typescript/src/index.ts';
import { serveApiForFile } from '../openapi/served-api.ts';
import { startReferenceWallet } from '../helpers/reference-wallet.ts';
import { newOperator } from '../helpers/api.ts';

const api = serveApiForFile('free-rounds-e2e');
let providerKey: string;
let games: { perRound: string; lumpSum: string };
const id = (prefix: string) => `${prefix}-${randomUUID()}`;

beforeAll(async () => {
  await api.sql`insert into public.wallet (client_id, currency_code, is_primary) values (${api.operator.account.id}, 'EUR', true)`;
  await api.sql`select * from public.record_transaction(${api.operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  providerKey = (await api.sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  const newGame = async (mode: string) => {
    const code = `fre-${randomUUID().slice(0, 8)}`;
    const [game] = await api.sql`insert into public.game (provider_id, code, name, category, currencies)
      select id, ${code}, 'Free Round E2E', 'slots', '{}' from public.game_provider where slug = 'pragmatic-play' returning id`;
    await api.sql`insert into public.game_free_rounds (game_id, payout_mode, max_rounds, max_validity_days, stakes)
                  values (${game.id}, ${mode}, 10, 30, ${api.sql.json({ EUR: [0.5] })})`;
    return `pragmatic-play:${code}`;
  };
  games = { perRound: await newGame('per_round'), lumpSum: await newGame('lump_sum') };
});

const call = async (path: string, key: string, body?: object) => {
  const response = await fetch(`${api.url}/v3${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
};

/** A campaign of `key`'s operator for a new player on `game`, and that player's session token. */
async function granted(key: string, game: string, rounds: number, maxWin?: string) {
  const player = id('p');
  const campaign = await call('/free-rounds/campaigns', key, {
    external_id: id('e2e'), name: 'E2E', game_ids: [game], currency: 'EUR', bet_amount: '0.50', rounds,
    valid_until: new Date(Date.now() + 86_400_000).toISOString(), player_ids: [player], ...(maxWin ? { max_win: maxWin } : {}),
  });
  expect(campaign.status).toBe(201);
  const session = await call('/sessions', key, { player_id: player, game_id: game, currency: 'EUR' });
  expect(session.status).toBe(201);
  const token = new URL(session.body.launch_url).searchParams.get('token')!;
  const usable = await call(`/provider/free-rounds?session_token=${token}`, providerKey);
  expect(usable.status).toBe(200);
  expect(usable.body.data).toHaveLength(1);
  return { player, campaign: campaign.body, token, grant: usable.body.data[0].id as string };
}

describe('free rounds under Deno', () => {
  it('a per-round grant played to its end: free bets move nothing, wins are credited up to max_win, the grant completes', async () => {
    const g = await granted(api.operator.key, games.perRound, 2, '4');
    const balances: string[] = [];
    for (const amount of ['3', '3']) {
      const round = id('round');
      const bet = await call('/provider/bets', providerKey, { session_token: g.token, transaction_id: id('fb'), round_id: round, amount: '0.5', free_round_grant_id: g.grant });
      expect(bet).toMatchObject({ status: 200, body: { balance: balances.at(-1) ?? '100.0000' } });
      const won = await call('/provider/wins', providerKey, { session_token: g.token, transaction_id: id('w'), round_id: round, amount, round_closed: true });
      balances.push(won.body.balance);
    }
    expect(balances).toEqual(['103.0000', '104.0000']);
    const client = createOperatorClient({ baseUrl: api.url, apiKey: api.operator.key });
    expect(await client.freeRounds.grants.get(g.grant)).toMatchObject({ status: 'completed', rounds_used: 2, rounds_left: 0, total_win: '4.0000' });
    // The operator's rounds name the grant, and so does each of their transactions.
    const rounds = await client.rounds.list({ playerId: g.player });
    expect(rounds.data.map((r) => [r.free_round_grant_id, r.total_bet, r.total_win])).toEqual([[g.grant, '0.0000', '1.0000'], [g.grant, '0.0000', '3.0000']]);
    const detail = await client.rounds.get(rounds.data[0].id);
    expect(detail.transactions.map((t) => [t.type, t.free_round_grant_id])).toEqual([['bet', g.grant], ['win', g.grant]]);
    const ledger = await call('/transactions?limit=3', api.operator.key);
    expect(ledger.body.data.map((t: { type: string; amount: string }) => `${t.type} ${t.amount}`)).toEqual(['win 1.0000', 'win 3.0000', 'deposit 100.0000']);
    const events = await call('/events?limit=100', api.operator.key);
    expect(events.body.data.filter((e: { type: string; data: { id: string } }) => e.data.id === g.grant).map((e: { type: string }) => e.type))
      .toEqual(['free_rounds.grant.completed', 'free_rounds.grant.started', 'free_rounds.grant.created']);
  });

  it('a player removed through the SDK: the grant cancelled (again harmless), its round in play settled, no new free bet', async () => {
    const g = await granted(api.operator.key, games.perRound, 3);
    const round = id('round');
    await call('/provider/bets', providerKey, { session_token: g.token, transaction_id: id('fb'), round_id: round, amount: '0.5', free_round_grant_id: g.grant });
    const client = createOperatorClient({ baseUrl: api.url, apiKey: api.operator.key });
    const removed = await client.freeRounds.campaigns.removePlayer(g.campaign.id, g.player);
    expect(removed).toMatchObject({ id: g.grant, status: 'cancelled', rounds_used: 1, rounds_left: 0 });
    expect(await client.freeRounds.campaigns.removePlayer(g.campaign.id, g.player)).toEqual(removed);
    expect((await call('/provider/bets', providerKey, { session_token: g.token, transaction_id: id('fb'), round_id: id('round'), amount: '0.5', free_round_grant_id: g.grant })).body)
      .toMatchObject({ code: 'free_round_campaign_cancelled' });
    expect((await call('/provider/wins', providerKey, { session_token: g.token, transaction_id: id('w'), round_id: round, amount: '2', round_closed: true })).status).toBe(200);
    expect(await client.freeRounds.grants.get(g.grant)).toMatchObject({ status: 'cancelled', total_win: '2.0000' });
    const events = await call('/events?limit=100', api.operator.key);
    expect(events.body.data.filter((e: { type: string; data: { id: string } }) => e.data.id === g.grant).map((e: { type: string }) => e.type))
      .toEqual(['free_rounds.grant.cancelled', 'free_rounds.grant.started', 'free_rounds.grant.created']);
  });

  it('a lump-sum grant: free wins track, one payout pays, once', async () => {
    const g = await granted(api.operator.key, games.lumpSum, 1);
    const round = id('round');
    await call('/provider/bets', providerKey, { session_token: g.token, transaction_id: id('fb'), round_id: round, amount: '0.5', free_round_grant_id: g.grant });
    const tracked = await call('/provider/wins', providerKey, { session_token: g.token, transaction_id: id('w'), round_id: round, amount: '2', round_closed: true });
    const before = Number(tracked.body.balance);
    const pay = { transaction_id: id('pay'), amount: '2' };
    const paid = await call(`/provider/free-rounds/${g.grant}/payout`, providerKey, pay);
    expect(paid).toMatchObject({ status: 200, body: { balance: (before + 2).toFixed(4) } });
    expect(await call(`/provider/free-rounds/${g.grant}/payout`, providerKey, pay)).toEqual(paid);
    expect(await call(`/provider/free-rounds/${g.grant}/payout`, providerKey, { ...pay, transaction_id: id('pay') }))
      .toMatchObject({ status: 422, body: { code: 'free_round_already_paid' } });
  });
});

describe('seamless free rounds under Deno', () => {
  const wallets: { close(): Promise<void> }[] = [];
  afterAll(() => Promise.all(wallets.map((wallet) => wallet.close())));

  it('no debit for a free bet; the win is one credit naming the grant', async () => {
    const operator = await newOperator(api.sql, 'free-rounds-seamless-e2e');
    const put = (url: string) => fetch(`${api.url}/v3/wallet-settings`, {
      method: 'PUT', headers: { authorization: `Bearer ${operator.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'seamless', url }),
    }).then((response) => response.json());
    const wallet = await startReferenceWallet((await put('http://127.0.0.1:9/wallet')).secret, '50');
    wallets.push(wallet);
    await put(wallet.url);
    const g = await granted(operator.key, games.perRound, 1);
    const round = id('round');
    expect((await call('/provider/bets', providerKey, { session_token: g.token, transaction_id: id('fb'), round_id: round, amount: '0.5', free_round_grant_id: g.grant })).body)
      .toMatchObject({ balance: '50.0000' });
    expect((await call('/provider/wins', providerKey, { session_token: g.token, transaction_id: id('w'), round_id: round, amount: '1.5', round_closed: true })).body)
      .toMatchObject({ balance: '51.5000' });
    expect(wallet.calls.map((c) => c.action)).toEqual(['balance', 'credit']);
    expect(wallet.calls[1]).toMatchObject({ free_round: { grant_id: g.grant, campaign_external_id: g.campaign.external_id } });
    expect(wallet.balance(g.player)).toBe('51.5000');
  });
});
