// A sportsbook bet end to end under real Deno, as a sportsbook provider's server plays it: the
// operator launches its product over HTTP, the provider places a bet with the launch token, settles
// it, resettles it against the player and closes it with its key alone; the operator's ledger shows
// each movement once, and its bets API and events show every settlement.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { serveApiForFile } from '../openapi/served-api.ts';
import { sportsbookGame } from './sportsbook.ts';

const api = serveApiForFile('sportsbook-e2e');
let providerKey: string;
let gameId: string;

beforeAll(async () => {
  await api.sql`insert into public.wallet (client_id, currency_code, is_primary) values (${api.operator.account.id}, 'EUR', true)`;
  await api.sql`select * from public.record_transaction(${api.operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  providerKey = (await api.sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  gameId = `pragmatic-play:${await sportsbookGame(api.sql)}`;
});

const call = async (path: string, key: string, body?: object) => {
  const response = await fetch(`${api.url}/v3${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
};

describe('a sportsbook bet under Deno', () => {
  it('placed, settled, resettled against the player and closed: the float moves by the final payout less the stake', async () => {
    const session = await call('/sessions', api.operator.key, { player_id: 'p-sb-e2e', game_id: gameId, currency: 'EUR' });
    expect(session.status).toBe(201);
    const token = new URL(session.body.launch_url).searchParams.get('token')!;
    const bet = `bet-${randomUUID()}`;
    const tx = () => `tx-${randomUUID()}`;
    expect((await call('/provider/sportsbook/bets', providerKey, {
      session_token: token, bet_id: bet, transaction_id: tx(), amount: '10', odds: '3.2', potential_payout: '32',
      selections: [{ event: 'Northport v Eastbay', pick: '1' }, { event: 'Westfield v Southgate', pick: 'X' }],
    })).body).toMatchObject({ status: 'open', balance: '90.0000' });
    expect((await call(`/provider/sportsbook/bets/${bet}/settlements`, providerKey, { transaction_id: tx(), result: 'won', payout: '32' })).body)
      .toMatchObject({ status: 'settled', balance: '122.0000' });
    expect((await call(`/provider/sportsbook/bets/${bet}/settlements`, providerKey, { transaction_id: tx(), result: 'lost', payout: '0' })).body)
      .toMatchObject({ result: 'lost', paid: '0.0000', balance: '90.0000' });
    expect((await call(`/provider/sportsbook/bets/${bet}/close`, providerKey, { transaction_id: tx() })).body)
      .toMatchObject({ status: 'closed', balance: '90.0000' });
    const ledger = await call('/transactions?limit=4', api.operator.key);
    expect(ledger.body.data.map((t: { type: string; amount: string }) => `${t.type} ${t.amount}`))
      .toEqual(['adjustment -32.0000', 'win 32.0000', 'bet -10.0000', 'deposit 100.0000']);
    const [listed] = (await call('/sportsbook/bets?player_id=p-sb-e2e', api.operator.key)).body.data;
    expect(listed).toMatchObject({ bet_id: bet, status: 'closed', result: 'lost', stake: '10.0000', odds: '3.2', paid: '0.0000' });
    expect(listed.settlements.map((s: { result: string; moved: string }) => `${s.result} ${s.moved}`)).toEqual(['won 32.0000', 'lost -32.0000']);
    expect((await call(`/sportsbook/bets/${listed.id}`, api.operator.key)).body).toEqual(listed);
    const events = await call('/events?limit=10', api.operator.key);
    expect(events.body.data.filter((e: { type: string }) => e.type.startsWith('sportsbook.')).map((e: { type: string }) => e.type))
      .toEqual(['sportsbook.bet.closed', 'sportsbook.bet.resettled', 'sportsbook.bet.settled', 'sportsbook.bet.placed']);
  });
});
