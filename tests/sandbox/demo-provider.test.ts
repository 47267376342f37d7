// The sandbox's demo provider, in-process against the test database: `cgs-sandbox` and its games
// exist for test keys alone (listed, read and launched), never for live keys, so its public key
// can only ever play test money; a test session of its games launches the demo game page, and the
// public key plays it through the provider API, CORS allowed for the page's origin.
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, sessionRequest, sessionsHandler } from '../helpers/api.ts';

const DEMO_KEY = 'cgs_prov_SANDBOX-demo-game-public-key-test-only-0000';
const DEMO_PAGE = 'https://demo.operator.example/game/';
const sql = connect();
const { handle } = await sessionsHandler({ config: { demoGameUrl: DEMO_PAGE } });
let operator: Operator;
let testKey: string;

beforeAll(async () => {
  operator = await newOperator(sql, 'demo-provider');
  testKey = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
});

const get = (path: string, key: string) =>
  handle(new Request(`http://api.test/v3${path}`, { headers: { authorization: `Bearer ${key}` } }));
const body = async (response: Response | Promise<Response>) => (await response).json();
/** Every provider's slug the key lists, page after page (other files add providers meanwhile). */
async function providerSlugs(key: string): Promise<string[]> {
  const slugs: string[] = [];
  for (let cursor: string | null = ''; cursor !== null;) {
    const page = await body(get(`/providers?limit=100${cursor ? `&cursor=${cursor}` : ''}`, key));
    slugs.push(...page.data.map((p: { slug: string }) => p.slug));
    cursor = page.next_cursor;
  }
  return slugs;
}
const session = (key: string, game = 'cgs-sandbox:lucky-sevens', player_id = 'player-1') =>
  handle(sessionRequest({ player_id, game_id: game, currency: 'EUR' }, { key }));

describe('the demo provider in the catalogue', () => {
  it('lists, reads and launches its games for test keys', async () => {
    const games = await body(get('/games?provider=cgs-sandbox', testKey));
    expect(games.data.map((g: { game_id: string }) => g.game_id)).toEqual(
      ['cgs-sandbox:fruit-stand', 'cgs-sandbox:high-roller', 'cgs-sandbox:lucky-sevens', 'cgs-sandbox:sportsbook']);
    expect((await get('/games/cgs-sandbox:lucky-sevens', testKey)).status).toBe(200);
    expect(await providerSlugs(testKey)).toContain('cgs-sandbox');
    const created = await session(testKey);
    expect(created.status).toBe(201);
  });

  it('does not exist for live keys: not listed, not found, not launched', async () => {
    expect((await body(get('/games?provider=cgs-sandbox', operator.key))).data).toEqual([]);
    expect((await body(get('/games?provider=cgs-sandbox&updated_since=2000-01-01T00:00:00Z', operator.key))).data).toEqual([]);
    expect((await get('/games/cgs-sandbox:lucky-sevens', operator.key)).status).toBe(404);
    expect(await providerSlugs(operator.key)).not.toContain('cgs-sandbox');
    const refused = await session(operator.key);
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors).toEqual([expect.objectContaining({ pointer: '#/game_id', code: 'unknown_provider' })]);
  });
});

describe('the demo game', () => {
  it('is where a test session of a demo game launches; other games keep the launch page', async () => {
    const demo = await body(session(testKey));
    expect(demo.launch_url.startsWith(`${DEMO_PAGE}?token=`)).toBe(true);
    const other = await body(session(testKey, 'pragmatic-play:vs20olympgate'));
    expect(other.launch_url.startsWith(DEMO_PAGE)).toBe(false);
  });

  it('plays with the public key from another origin: the preflight is allowed, and a bet moves the test balance', async () => {
    const player = await handle(new Request('http://api.test/v3/sandbox/players', {
      method: 'POST', headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ player_id: 'player-demo', currency: 'EUR', balance: '20' }),
    }));
    expect(player.status).toBe(200);
    const token = new URL((await body(session(testKey, 'cgs-sandbox:high-roller', 'player-demo'))).launch_url).searchParams.get('token')!;
    const preflight = await handle(new Request('http://api.test/v3/provider/bets', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://demo.operator.example', 'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-other',
      },
    }));
    expect(preflight.status).toBe(204);
    // The provider API's methods and the two headers it reads, no others; browsers keep the answer ten minutes.
    expect(Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith('access-control-')))).toEqual({
      'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET,POST',
      'access-control-allow-headers': 'authorization,content-type', 'access-control-max-age': '600',
    });
    const bet = await handle(new Request('http://api.test/v3/provider/bets', {
      method: 'POST', headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json', origin: 'https://demo.operator.example' },
      body: JSON.stringify({ session_token: token, transaction_id: 'demo-bet-1', round_id: 'demo-round-1', amount: '2.50' }),
    }));
    expect(bet.headers.get('access-control-allow-origin')).toBe('*');
    expect(await bet.json()).toMatchObject({ balance: '17.5000', currency: 'EUR' });
    // A refusal, too, is readable by the page (else it would look like no answer at all).
    const refused = await handle(new Request('http://api.test/v3/provider/bets', {
      method: 'POST', headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json', origin: 'https://demo.operator.example' },
      body: JSON.stringify({ session_token: token, transaction_id: 'demo-bet-2', round_id: 'demo-round-2', amount: '500' }),
    }));
    expect(refused.status).toBe(422);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    const unauthorized = await handle(new Request(`http://api.test/v3/provider/balance?session_token=${token}`, {
      headers: { authorization: 'Bearer cgs_prov_wrong', origin: 'https://demo.operator.example' },
    }));
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe('*');
  });
});
