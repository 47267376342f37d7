// The provider API in-process against the test database: a provider's key and the launch token of
// a session POST /v3/sessions made; the balance, bets, wins and rollbacks; repeats replayed byte for
// byte; every refusal a problem with its code; 401 before 400; each answer as the document says.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
const { handle, buildApp } = await sessionsHandler();
let operator: Operator;
let providerKey: string;
let spribeKey: string;

beforeAll(async () => {
  operator = await newOperator(sql, 'provider-api');
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${operator.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 50::numeric)`;
  providerKey = (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
  spribeKey = (await sql`select key from public.issue_provider_key('spribe')`)[0].key;
});

/** A new session's launch token, made by POST /v3/sessions with the operator's key (or another). */
async function launchToken(key = operator.key, body: object = validBody): Promise<string> {
  const response = await handle(sessionRequest(body, { key }));
  expect(response.status).toBe(201);
  return new URL((await response.json()).launch_url).searchParams.get('token')!;
}

const operations: Record<string, OperationId> = { bets: 'providerBet', wins: 'providerWin', rollbacks: 'providerRollback' };

async function post(path: 'bets' | 'wins' | 'rollbacks', body: object, key: string | null = providerKey) {
  const response = await handle(new Request(`http://api.test/v3/provider/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  }));
  const text = await response.text();
  expectResponseMatches(operations[path], response, JSON.parse(text));
  return { status: response.status, text, body: JSON.parse(text), replayed: response.headers.get('idempotent-replayed') };
}

const id = (prefix: string) => `${prefix}-${randomUUID()}`;

describe('the provider API', () => {
  it('answers the balance of the session\'s currency', async () => {
    const token = await launchToken();
    const response = await handle(new Request(`http://api.test/v3/provider/balance?session_token=${token}`, {
      headers: { authorization: `Bearer ${providerKey}` },
    }));
    const body = await response.json();
    expectResponseMatches('providerBalance', response, body);
    expect(body).toEqual({ balance: '50.0000', currency: 'EUR' });
  });

  it('takes a bet, pays a win, and replays a repeat byte for byte', async () => {
    const token = await launchToken();
    const [tx, round] = [id('bet'), id('round')];
    const bet = { session_token: token, transaction_id: tx, round_id: round, amount: '2.5' };
    const first = await post('bets', bet);
    expect(first).toMatchObject({ status: 200, replayed: null });
    expect(first.body).toEqual({ transaction_id: tx, round_id: round, balance: expect.any(String), currency: 'EUR' });
    const again = await post('bets', bet);
    expect(again).toMatchObject({ status: 200, text: first.text, replayed: 'true' });
    expect(await post('bets', { ...bet, amount: '3' })).toMatchObject({ status: 409, body: { code: 'duplicate_transaction' } });
    const won = await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '10', round_closed: true });
    expect(won.status).toBe(200);
    expect(Number(won.body.balance) - Number(first.body.balance)).toBe(10);
    expect(await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: tx }))
      .toMatchObject({ status: 422, body: { code: 'bet_settled', retryable: false } });
  });

  it('rolls a bet back, and answers a rollback of an unseen bet with OK', async () => {
    const token = await launchToken();
    const [tx, round] = [id('bet'), id('round')];
    const bet = await post('bets', { session_token: token, transaction_id: tx, round_id: round, amount: '1' });
    const back = await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: tx });
    expect(back).toMatchObject({ status: 200, body: { round_id: round } });
    expect(Number(back.body.balance) - Number(bet.body.balance)).toBe(1);
    const unseen = await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: id('never') });
    expect(unseen).toMatchObject({ status: 200, body: { round_id: null } });
  });

  it('refuses a bet the float cannot cover with the balance, and says which currency', async () => {
    const token = await launchToken();
    const refused = await post('bets', { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '1000000' });
    expect(refused).toMatchObject({ status: 422, body: { code: 'insufficient_funds', balance: expect.any(String), currency: 'EUR' } });
  });

  it('checks the key first (401), then the body (400) and the token (403), then the session (404, 422)', async () => {
    const token = await launchToken();
    const bet = { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '1' };
    expect(await post('bets', { nonsense: true }, null)).toMatchObject({ status: 401, body: { code: 'missing_api_key' } });
    expect(await post('bets', { nonsense: true }, operator.key)).toMatchObject({ status: 401, body: { code: 'invalid_provider_key' } });
    expect(await post('bets', { nonsense: true }, `cgs_prov_${'x'.repeat(43)}`)).toMatchObject({ status: 401 });
    const invalid = await post('bets', { ...bet, amount: 1, round_closed: 'yes', extra: 1 });
    expect(invalid).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect(invalid.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['#/amount', '#/extra', '#/round_closed']);
    for (const amount of ['0', '0.00', '1.23456', '-1', '1e3', '01']) {
      expect(await post('bets', { ...bet, amount }), amount).toMatchObject({ status: 400 });
    }
    const [header, payload, signature] = token.split('.');
    // The first character of the signature: all its bits count (the last one's low bits are padding).
    const forged = `${header}.${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(await post('bets', { ...bet, session_token: forged })).toMatchObject({ status: 403, body: { code: 'invalid_session_token' } });
    expect(await post('bets', bet, spribeKey)).toMatchObject({ status: 404, body: { code: 'unknown_session' } });
    const test = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
    expect(await post('bets', { ...bet, session_token: await launchToken(test) }))
      .toMatchObject({ status: 422, body: { code: 'test_player_unknown' } });
  });

  it('stores only the hash of a provider key, and refuses one once revoked', async () => {
    const [issued] = await sql`select * from public.issue_provider_key('pragmatic-play', 'Short-lived')`;
    expect(issued.key).toMatch(/^cgs_prov_[A-Za-z0-9_-]{43}$/);
    const [row] = await sql`select key_hash from public.provider_key where id = ${issued.id}`;
    expect(row.key_hash).toBe(createHash('sha256').update(issued.key).digest('hex'));
    const token = await launchToken();
    const bet = { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '1' };
    await sql`select * from public.revoke_provider_key(${issued.id})`;
    expect(await post('bets', bet, issued.key)).toMatchObject({ status: 401, body: { code: 'invalid_provider_key' } });
    await expect(sql`update public.provider_key set status = 'active', revoked_at = null where id = ${issued.id}`)
      .rejects.toMatchObject({ code: '23514' });
  });
});

describe('the operator\'s rounds', () => {
  const get = async (path: string, key = operator.key) => {
    const response = await handle(new Request(`http://api.test/v3${path}`, { headers: { authorization: `Bearer ${key}` } }));
    const body = await response.json();
    expectResponseMatches(path.startsWith('/rounds?') ? 'listRounds' : 'getRound', response, body);
    return { status: response.status, body };
  };

  it('lists the caller\'s rounds newest first with their totals, and reads one with its transactions', async () => {
    const token = await launchToken();
    const [b1, b2, round] = [id('bet'), id('bet'), id('round')];
    await post('bets', { session_token: token, transaction_id: b1, round_id: round, amount: '2' });
    await post('bets', { session_token: token, transaction_id: b2, round_id: round, amount: '3' });
    await post('rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: b2 });
    await post('wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '4.5', round_closed: true });
    const [{ id: sessionId }] = await sql`select session_id as id from public.game_round where provider_round_id = ${round}`;
    const listed = await get(`/rounds?session_id=${sessionId}`);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      round_id: round, game_id: 'pragmatic-play:vs20olympgate', status: 'closed', total_bet: '2.0000', total_win: '4.5000', livemode: true,
    });
    const read = await get(`/rounds/${listed.body.data[0].id}`);
    expect(read.body.transactions.map((t: { type: string; amount: string; rolled_back: boolean }) => `${t.type} ${t.amount} ${t.rolled_back}`))
      .toEqual(['bet 2.0000 false', 'bet 3.0000 true', 'rollback 3.0000 false', 'win 4.5000 false']);
  });

  it('pages by cursor, filters by status and finds rounds left open (opened_before)', async () => {
    const token = await launchToken();
    const rounds = [id('round'), id('round'), id('round')];
    for (const round of rounds) await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: '0.01' });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { round_id: string }[]; next_cursor: string | null } } =
        await get(`/rounds?status=open&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.data.map((r) => r.round_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen.slice(0, 3)).toEqual([...rounds].reverse());
    expect((await get(`/rounds?status=open&opened_before=2000-01-01T00:00:00Z`)).body.data).toEqual([]);
    expect((await get(`/rounds?status=open&opened_before=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.data.length)
      .toBeGreaterThanOrEqual(3);
    expect(await get('/rounds?status=stuck')).toMatchObject({ status: 400, body: { code: 'invalid_parameters' } });
  });

  it('pages through rounds opened within one millisecond: a cursor keeps its microseconds', async () => {
    const token = await launchToken();
    const rounds = [id('round'), id('round'), id('round')];
    for (const round of rounds) await post('bets', { session_token: token, transaction_id: id('bet'), round_id: round, amount: '0.01' });
    const [{ session_id: sessionId }] = await sql`select session_id from public.game_round where provider_round_id = ${rounds[0]}`;
    for (const [i, round] of rounds.entries()) {
      await sql`update public.game_round set opened_at = ${`2026-01-01T00:00:00.1234${i}1Z`}::text::timestamptz where provider_round_id = ${round}`;
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { round_id: string }[]; next_cursor: string | null } } =
        await get(`/rounds?session_id=${sessionId}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.data.map((r) => r.round_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...rounds].reverse());
  });

  it('shows another client, and a test key, none of them', async () => {
    const [{ id: roundId }] = await sql`select id from public.game_round where client_id = ${operator.account.id} limit 1`;
    const other = await newOperator(sql, 'other');
    expect(await get(`/rounds/${roundId}`, other.key)).toMatchObject({ status: 404 });
    expect((await get('/rounds?limit=100', other.key)).body.data).toEqual([]);
    const test = (await issueKey(sql, operator.account, 'Sandbox reads', false)).key;
    expect((await get('/rounds?limit=100', test)).body.data).toEqual([]);
    expect(await get('/rounds/not-a-uuid')).toMatchObject({ status: 404 });
  });
});

describe('the provider API, found in review', () => {
  it('replays a transfer-mode bet byte for byte after the float has moved under other bets', async () => {
    const token = await launchToken();
    const bet = { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '1' };
    const first = await post('bets', bet);
    expect(first.status).toBe(200);
    const other = await post('bets', { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '2' });
    expect(other.status).toBe(200);
    expect(Number(other.body.balance)).toBe(Number(first.body.balance) - 2);
    const again = await post('bets', bet);
    expect(again).toMatchObject({ status: 200, text: first.text, replayed: 'true' });
  });

  it('knows a retry however it is spelt, and never answers a win with a bet\'s answer', async () => {
    const token = await launchToken();
    const [tx, round] = [id('bet'), id('round')];
    const first = await post('bets', { session_token: token, transaction_id: tx, round_id: round, amount: '1' });
    expect(first.status).toBe(200);
    const respelt = await post('bets', { amount: '1.00', round_closed: false, round_id: round, transaction_id: tx, session_token: token });
    expect(respelt).toMatchObject({ status: 200, text: first.text, replayed: 'true' });
    const response = await handle(new Request('http://api.test/v3/provider/wins/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` },
      body: JSON.stringify({ session_token: token, transaction_id: tx, round_id: round, amount: '1' }),
    }));
    expect(response.status).toBe(409);
    expect((await response.json()).code).toBe('duplicate_transaction');
  });
});

describe('the engine\'s refusals, through the provider API', () => {
  it('answers each with 422, its code and a sentence saying why', async () => {
    const own = await newOperator(sql, 'provider-refusals');
    await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${own.account.id}, 'EUR', true)`;
    await sql`select * from public.record_transaction(${own.account.id}::uuid, 'EUR', 'deposit', 50::numeric)`;
    const session = async (player = `p-${randomUUID()}`) => {
      const response = await handle(sessionRequest({ ...validBody, player_id: player }, { key: own.key }));
      expect(response.status).toBe(201);
      const body = await response.json();
      return { id: body.id as string, token: new URL(body.launch_url).searchParams.get('token')! };
    };
    const restricted = async (restrictions: object) => {
      const player = `p-${randomUUID()}`;
      const response = await handle(new Request(`http://api.test/v3/players/${player}/restrictions`, {
        method: 'PUT', headers: { authorization: `Bearer ${own.key}`, 'content-type': 'application/json' }, body: JSON.stringify(restrictions),
      }));
      expect(response.status).toBe(200);
      return session(player);
    };
    // Each refusal's problem: the contract check in post() also holds that its detail is not empty.
    const refused = async (path: 'bets' | 'wins' | 'rollbacks', body: object, code: string) =>
      expect(await post(path, body), code).toMatchObject({ status: 422, body: { code, detail: expect.stringMatching(/^[A-Z].+\.$/) } });
    const bet = (token: string, round = id('round'), amount = '1', more: object = {}) =>
      ({ session_token: token, transaction_id: id('bet'), round_id: round, amount, ...more });

    const closed = await session();
    await sql`update public.game_session set status = 'closed' where id = ${closed.id}`;
    await refused('bets', bet(closed.token), 'session_closed');
    const expired = await session();
    await sql`update public.game_session set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour'
              where id = ${expired.id}`;
    await refused('bets', bet(expired.token), 'session_expired');

    const [a, b] = [await session(), await session()];
    const round = id('round');
    expect((await post('bets', bet(a.token, round))).status).toBe(200);
    await refused('bets', bet(b.token, round), 'round_mismatch');
    await refused('wins', { session_token: a.token, transaction_id: id('win'), round_id: id('never'), amount: '1' }, 'unknown_round');
    await refused('wins', { session_token: a.token, transaction_id: id('win'), round_id: round, amount: '1', bet_transaction_id: id('never') },
      'unknown_transaction');
    const win = id('win');
    expect((await post('wins', { session_token: a.token, transaction_id: win, round_id: round, amount: '1' })).status).toBe(200);
    await refused('rollbacks', { session_token: a.token, transaction_id: id('rb'), rolled_back_transaction_id: win }, 'invalid_rollback');
    const shut = id('round');
    expect((await post('bets', bet(a.token, shut, '1', { round_closed: true }))).status).toBe(200);
    await refused('bets', bet(a.token, shut), 'round_closed');

    await refused('bets', bet((await restricted({ stake_limits: { EUR: '1' } })).token, id('round'), '2'), 'stake_limit_exceeded');
    await refused('bets', bet((await restricted({ loss_limits: { EUR: { day: '1' } } })).token, id('round'), '2'), 'loss_limit_reached');
    const long = await restricted({ session_time_limit_minutes: 1 });
    await sql`update public.game_session set created_at = now() - interval '2 minutes' where id = ${long.id}`;
    await refused('bets', bet(long.token), 'session_time_exceeded');

    // Last: the float filled to its 16 digits, which giving a bet back would pass.
    const taken = bet(a.token);
    const { body: { balance } } = await post('bets', taken);
    await sql`select * from public.record_transaction(${own.account.id}::uuid, 'EUR', 'deposit', 9999999999999999 - ${balance}::numeric)`;
    await refused('rollbacks', { session_token: a.token, transaction_id: id('rb'), rolled_back_transaction_id: taken.transaction_id }, 'amount_too_large');
  });
});

describe('the provider API, as the mutation campaign asked', () => {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const fingerprint = async (tx: string) =>
    (await sql`select request_fingerprint from public.round_transaction where transaction_id = ${tx}`)[0].request_fingerprint as string;

  it('fingerprints a request by a fixed recipe, so a retry made across a release still replays', async () => {
    const response = await handle(sessionRequest(validBody, { key: operator.key }));
    const { id: sessionId, launch_url: url } = await response.json();
    const token = new URL(url).searchParams.get('token')!;
    const [bet, other, round] = [id('bet'), id('bet'), id('round')];
    expect((await post('bets', { session_token: token, transaction_id: bet, round_id: round, amount: '1.50' })).status).toBe(200);
    expect(await fingerprint(bet)).toBe(sha(JSON.stringify(['bet', sessionId, bet, round, '1.5', false])));
    expect((await post('bets', { session_token: token, transaction_id: other, round_id: round, amount: '2' })).status).toBe(200);
    const win = id('win');
    expect((await post('wins', { session_token: token, transaction_id: win, round_id: round, amount: '3.10', bet_transaction_id: bet })).status)
      .toBe(200);
    expect(await fingerprint(win)).toBe(sha(JSON.stringify(['win', sessionId, win, round, '3.1', false, bet])));
    const rollback = id('rb');
    expect((await post('rollbacks', { session_token: token, transaction_id: rollback, rolled_back_transaction_id: other })).status).toBe(200);
    expect(await fingerprint(rollback)).toBe(sha(JSON.stringify(['rollback', sessionId, rollback, other])));
  });

  // The app is built inside the test, not when the file loads, so what the routes' table and the
  // CORS middleware are made of is this test's to hold: every path answers as itself, from any origin.
  it('answers at each of its paths, to a page of any origin: the preflight, and every answer and refusal', async () => {
    const app = buildApp();
    const request = (path: string, init: RequestInit) => app(new Request(`http://api.test/v3/provider/${path}`, init));
    const origin = 'https://game.example';
    const call = async (method: string, path: string, body?: object) => {
      const response = await request(path, {
        method, body: body && JSON.stringify(body),
        headers: { authorization: `Bearer ${providerKey}`, origin, ...(body ? { 'content-type': 'application/json' } : {}) },
      });
      return [path, response.status, (await response.json()).code ?? 'ok', response.headers.get('access-control-allow-origin')];
    };
    const token = await launchToken();
    const [tx, round] = [id('bet'), id('round')];
    expect([
      await call('GET', `balance?session_token=${token}`),
      await call('GET', `free-rounds?session_token=${token}`),
      await call('POST', 'bets', { session_token: token, transaction_id: tx, round_id: round, amount: '1' }),
      await call('POST', 'wins', { session_token: token, transaction_id: id('win'), round_id: round, amount: '0' }),
      await call('POST', 'rollbacks', { session_token: token, transaction_id: id('rb'), rolled_back_transaction_id: id('never') }),
      await call('POST', `free-rounds/${randomUUID()}/payout`, { transaction_id: id('pay'), amount: '1' }),
    ]).toEqual([
      [`balance?session_token=${token}`, 200, 'ok', '*'],
      [`free-rounds?session_token=${token}`, 200, 'ok', '*'],
      ['bets', 200, 'ok', '*'],
      ['wins', 200, 'ok', '*'],
      ['rollbacks', 200, 'ok', '*'],
      [expect.stringMatching(/payout$/), 422, 'free_round_grant_unknown', '*'],
    ]);
    for (const path of ['balance', 'bets', 'free-rounds/x/payout']) {
      const preflight = await request(path, {
        // A header the API does not read is asked for too: the answer names only the two it allows.
        method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,x-other' },
      });
      expect([path, preflight.status, Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith('access-control-')))]).toEqual([
        path, 204, {
          'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET,POST',
          'access-control-allow-headers': 'authorization,content-type', 'access-control-max-age': '600',
        },
      ]);
    }
  });

  it('answers are never stored by a cache: the balance, a bet and its replay', async () => {
    const token = await launchToken();
    const balance = await handle(new Request(`http://api.test/v3/provider/balance?session_token=${token}`, {
      headers: { authorization: `Bearer ${providerKey}` },
    }));
    const bet = { session_token: token, transaction_id: id('bet'), round_id: id('round'), amount: '1' };
    const send = () => handle(new Request('http://api.test/v3/provider/bets', {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` }, body: JSON.stringify(bet),
    }));
    for (const [name, answer] of [['balance', balance], ['bet', await send()], ['replay', await send()]] as const) {
      expect([name, answer.status, answer.headers.get('cache-control'), answer.headers.get('content-type')])
        .toEqual([name, 200, 'no-store', 'application/json']);
    }
  });

  it('refuses a balance or free-rounds request without a session token (400) or of another provider (404), and a payout naming no grant id (422)', async () => {
    for (const path of ['balance', 'free-rounds']) {
      const response = await handle(new Request(`http://api.test/v3/provider/${path}`, { headers: { authorization: `Bearer ${providerKey}` } }));
      const body = await response.json();
      expectResponseMatches(path === 'balance' ? 'providerBalance' : 'providerFreeRounds', response, body);
      // The problem names the missing parameter, and says so in a sentence.
      expect([path, response.status, body.code, body.detail, body.errors.map((e: { parameter: string }) => e.parameter)])
        .toEqual([path, 400, 'invalid_parameters', expect.stringMatching(/^[A-Z].+\.$/), ['session_token']]);
    }
    // Another provider's key finds no session behind the token.
    const other = await handle(new Request(`http://api.test/v3/provider/free-rounds?session_token=${await launchToken()}`, {
      headers: { authorization: `Bearer ${spribeKey}` },
    }));
    expect([other.status, (await other.json()).code]).toEqual([404, 'unknown_session']);
    const payout = await handle(new Request('http://api.test/v3/provider/free-rounds/not-a-grant/payout', {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` },
      body: JSON.stringify({ transaction_id: id('pay'), amount: '1' }),
    }));
    const body = await payout.json();
    expectResponseMatches('providerFreeRoundPayout', payout, body);
    expect([payout.status, body.code]).toEqual([422, 'free_round_grant_unknown']);
  });
});
