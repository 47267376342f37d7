// The TypeScript SDK's sportsbook reads and the demo sportsbook's fixtures against the v3 app
// in-process (its fetch is the app's): a single and an accumulator placed on the demo sportsbook
// with the demo provider's public key, a fixture settled, resettled and voided with
// client.sandbox, the bets listed (a page, and every page by cursor) and read with
// client.sportsbook.bets; refusals are ApiErrors with the problem's code.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createOperatorClient, type OperatorClient, type SportsbookBet } from '../../../sdks/typescript/src/index.ts';
import { connect, signUp } from '../../helpers/db.ts';
import { issueKey, sessionsHandler } from '../../helpers/api.ts';

const SANDBOX_PROVIDER_KEY = 'cgs_prov_SANDBOX-demo-game-public-key-test-only-0000';
const sql = connect();
const { handle } = await sessionsHandler();
let client: OperatorClient;

beforeAll(async () => {
  const account = await signUp(sql, 'sdk-sportsbook');
  const { key } = await issueKey(sql, account, 'Sandbox', false);
  client = createOperatorClient({
    baseUrl: 'http://api.test/functions/v1', apiKey: key, retries: 0,
    fetch: (url, init) => handle(new Request(url, init)),
  });
});

const leg = (fixture_id: string, pick: string, odds: string) => ({ fixture_id, event: fixture_id, market: '1X2', pick, odds });

describe('sportsbook', () => {
  it('settles the demo fixtures and reads the bets they settled', async () => {
    await client.sandbox.createPlayer({ playerId: 'sdk-punter', currency: 'EUR', balance: '50' });
    const session = await client.sessions.create({ playerId: 'sdk-punter', gameId: 'cgs-sandbox:sportsbook', currency: 'EUR' });
    const token = new URL(session.launch_url).searchParams.get('token')!;
    const [north, west] = [`north-${randomUUID().slice(0, 8)}`, `west-${randomUUID().slice(0, 8)}`];
    const place = async (legs: object[], odds: string, potential: string) => {
      const bet = `sb-${randomUUID()}`;
      const response = await handle(new Request('http://api.test/v3/provider/sportsbook/bets', {
        method: 'POST', headers: { authorization: `Bearer ${SANDBOX_PROVIDER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ session_token: token, bet_id: bet, transaction_id: `tx-${randomUUID()}`, amount: '5', odds,
          potential_payout: potential, selections: legs }),
      }));
      expect(response.status).toBe(200);
      return bet;
    };
    const single = await place([leg(north, 'away', '3.25')], '3.25', '16.25');
    const acca = await place([leg(north, 'away', '3.25'), leg(west, 'home', '1.85')], '6.0125', '30.0625');

    expect((await client.sandbox.settleFixture(north, 'away')).bets.map((b) => [b.bet_id, b.payout])).toEqual([[single, '16.2500']]);
    const error = await client.sandbox.settleFixture(north, 'home').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'fixture_settled' });
    expect((await client.sandbox.settleFixture(west, 'home')).bets.map((b) => [b.bet_id, b.payout])).toEqual([[acca, '30.0625']]);
    expect((await client.sandbox.resettleFixture(west, 'draw')).bets.map((b) => [b.bet_id, b.result])).toEqual([[acca, 'lost']]);
    expect((await client.sandbox.voidFixture(west)).bets.map((b) => [b.bet_id, b.result, b.payout])).toEqual([[acca, 'won', '16.2500']]);

    const page = await client.sportsbook.bets.list({ playerId: 'sdk-punter', status: 'settled', limit: 1 });
    expect(page.data).toHaveLength(1);
    const all: SportsbookBet[] = [];
    for await (const bet of client.sportsbook.bets.iterate({ playerId: 'sdk-punter', limit: 1 })) all.push(bet);
    expect(all.map((b) => b.bet_id)).toEqual([acca, single]);
    const read = await client.sportsbook.bets.get(all[0].id);
    expect(read).toEqual(all[0]);
    expect(read.settlements.map((s) => `${s.result} ${s.moved}`)).toEqual(['won 30.0625', 'lost -30.0625', 'won 16.2500']);
    expect((await client.sandbox.getPlayer('sdk-punter')).data[0].balance).toBe('72.5000');
  });
});
