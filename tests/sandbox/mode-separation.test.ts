// Live and test data never mix, endpoint by endpoint: one operator with a live and a test key makes
// the same records in each mode (a session played for a round and closed, a webhook endpoint, the
// events they raise, a player's restrictions, wallet settings), and the other mode's key neither
// reads, lists nor changes any of them. Reference data (catalogue, currencies, jurisdictions, JWKS)
// is the same for both, by design; the sandbox refuses live keys (tests/sandbox/test-players).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { issueKey, newOperator, sessionsHandler } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();

type Mode = 'live' | 'test';
interface Made {
  key: string;
  session: string;
  round: string;
  endpoint: string;
  event: string;
}
const made = {} as Record<Mode, Made>;
const PLAYER = 'player-modes';

async function call(key: string, method: string, path: string, body?: unknown) {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }));
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
}
const ok = async (key: string, method: string, path: string, body?: unknown) => {
  const answer = await call(key, method, path, body);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};
const ids = (page: { data: { id: string }[] }) => page.data.map((item) => item.id);

beforeAll(async () => {
  const operator = await newOperator(sql, 'modes-apart');
  const keys: Record<Mode, string> = { live: operator.key, test: (await issueKey(sql, operator.account, 'Sandbox', false)).key };
  const providerKey = (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  await sql`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'EUR')`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
  await ok(keys.test, 'POST', '/sandbox/players', { player_id: PLAYER, currency: 'EUR', balance: '100' });
  for (const mode of ['live', 'test'] as const) {
    const key = keys[mode];
    const endpoint = await ok(key, 'POST', '/webhook-endpoints', { url: `https://hooks.example/${mode}` });
    const session = await ok(key, 'POST', '/sessions', { player_id: PLAYER, game_id: 'pragmatic-play:vs20olympgate', currency: 'EUR' });
    const token = new URL(session.launch_url).searchParams.get('token');
    const roundId = `round-${randomUUID()}`;
    for (const [path, amount] of [['bets', '2'], ['wins', '3']] as const) {
      const answer = await handle(new Request(`http://api.test/v3/provider/${path}`, {
        method: 'POST', headers: { authorization: `Bearer ${providerKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ session_token: token, transaction_id: randomUUID(), round_id: roundId, amount, round_closed: path === 'wins' }),
      }));
      expect(answer.status).toBe(200);
    }
    await ok(key, 'POST', `/sessions/${session.id}/close`);
    await ok(key, 'PUT', `/players/${PLAYER}/restrictions`, { stake_limits: { EUR: mode === 'live' ? '7' : '3' } });
    await ok(key, 'PUT', '/wallet-settings', { mode: 'transfer', low_balance_alerts: { EUR: mode === 'live' ? '11' : '22' } });
    const [round] = (await ok(key, 'GET', `/rounds?session_id=${session.id}`)).data;
    const [event] = (await ok(key, 'GET', '/events?type=session.created&limit=1')).data;
    made[mode] = { key, session: session.id, round: round.id, endpoint: endpoint.id, event: event.id };
  }
});

describe.each([['live', 'test'], ['test', 'live']] as const)('what the %s key made, the %s key', (mine, other) => {
  const theirs = () => made[mine];
  const key = () => made[other].key;

  it('does not read: each record by id is 404', async () => {
    const { session, round, endpoint, event } = theirs();
    for (const path of [`/sessions/${session}`, `/rounds/${round}`, `/webhook-endpoints/${endpoint}`, `/events/${event}`,
      `/events/${event}/deliveries`]) {
      expect(await call(key(), 'GET', path), path).toMatchObject({ status: 404, body: { code: 'not_found' } });
    }
  });

  it('does not list: sessions, rounds, webhook endpoints and events show only its own', async () => {
    const { session, round, endpoint, event } = theirs();
    const own = made[other];
    expect(ids(await ok(key(), 'GET', `/sessions?player_id=${PLAYER}`))).toEqual([own.session]);
    expect(ids(await ok(key(), 'GET', `/rounds?player_id=${PLAYER}`))).toEqual([own.round]);
    expect(ids(await ok(key(), 'GET', '/webhook-endpoints'))).toEqual([own.endpoint]);
    const events = ids(await ok(key(), 'GET', '/events?limit=100'));
    expect(events).toContain(own.event);
    expect(events).not.toContain(event);
    expect(ids(await ok(key(), 'GET', `/sessions?player_id=${PLAYER}`))).not.toContain(session);
    expect(ids(await ok(key(), 'GET', '/rounds'))).not.toContain(round);
    expect(ids(await ok(key(), 'GET', '/webhook-endpoints'))).not.toContain(endpoint);
  });

  it('does not change: closing, updating, rotating, testing, deleting and redelivering are 404', async () => {
    const { session, endpoint, event } = theirs();
    for (const [method, path, body] of [
      ['POST', `/sessions/${session}/close`], ['PATCH', `/webhook-endpoints/${endpoint}`, { description: 'taken' }],
      ['POST', `/webhook-endpoints/${endpoint}/rotate-secret`], ['POST', `/webhook-endpoints/${endpoint}/test`],
      ['DELETE', `/webhook-endpoints/${endpoint}`], ['POST', `/events/${event}/redeliver`],
    ] as const) {
      expect(await call(key(), method, path, body), `${method} ${path}`).toMatchObject({ status: 404, body: { code: 'not_found' } });
    }
    // Still there, unchanged, for its own mode.
    const kept = await ok(theirs().key, 'GET', `/webhook-endpoints/${endpoint}`);
    expect(kept.id).toBe(endpoint);
    expect(kept.description).not.toBe('taken');
  });

  it('keeps its own restrictions and wallet settings', async () => {
    expect((await ok(key(), 'GET', `/players/${PLAYER}/restrictions`)).stake_limits).toEqual({ EUR: other === 'live' ? '7.0000' : '3.0000' });
    expect((await ok(key(), 'GET', '/wallet-settings')).low_balance_alerts).toEqual({ EUR: other === 'live' ? '11.0000' : '22.0000' });
  });
});

describe('money', () => {
  it('test play moves the test balance and the test ledger only; the live float and ledger see live play alone', async () => {
    expect((await ok(made.test.key, 'GET', `/sandbox/players/${PLAYER}`)).data[0].balance).toBe('101.0000');
    expect((await ok(made.live.key, 'GET', '/wallets')).data).toEqual([expect.objectContaining({ currency: 'EUR', balance: '101.0000' })]);
    // The test float: the test player's 100 opened it, then the same bet of 2 and win of 3.
    expect((await ok(made.test.key, 'GET', '/wallets')).data)
      .toEqual([expect.objectContaining({ currency: 'EUR', balance: '101.0000', is_primary: false })]);
    const live = (await ok(made.live.key, 'GET', '/transactions')).data;
    const test = (await ok(made.test.key, 'GET', '/transactions')).data;
    expect(live.map((t: { type: string }) => t.type)).toEqual(['win', 'bet', 'deposit']);
    expect(test.map((t: { type: string }) => t.type)).toEqual(['win', 'bet', 'deposit']);
    // Never a line of the other mode's, by id, nor found by the ids the other mode's rounds name.
    const liveIds = ids({ data: live });
    const testIds = ids({ data: test });
    expect(liveIds.filter((id) => testIds.includes(id))).toEqual([]);
    for (const mode of ['live', 'test'] as const) {
      const named = await sql`
        select t.ledger_transaction_id as id from public.round_transaction t join public.game_round r on r.id = t.round_id
        where r.id = ${made[mode].round} order by t.created_at`;
      expect(named.map((t) => t.id).sort()).toEqual((mode === 'live' ? liveIds : testIds).slice(0, 2).sort());
    }
  });
});
