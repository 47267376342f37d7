// The operator's own money, in-process against the test database: GET /v3/wallets and GET
// /v3/transactions. Exact decimal strings (no float on the way), only the caller's rows (two
// clients), newest first, filters, cursor pages that neither repeat nor skip, 400 for bad filters
// and cursors, 401 first.
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { cursorOf, newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';

const sql = connect();
const { handle, buildApp } = await sessionsHandler();
let alice: Operator;
let eve: Operator;

const record = (client: Operator, currency: string, type: string, amount: string, reference?: string) =>
  sql`select * from public.record_transaction(${client.account.id}::uuid, ${currency}, ${type}, ${amount}::numeric, null, ${reference ?? null})`;

beforeAll(async () => {
  [alice, eve] = await Promise.all([newOperator(sql, 'alice'), newOperator(sql, 'eve')]);
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values
    (${alice.account.id}, 'EUR', true), (${alice.account.id}, 'USD', false), (${eve.account.id}, 'EUR', true)`;
  await record(alice, 'EUR', 'deposit', '12345678901.2345', 'dep-1');
  await record(alice, 'EUR', 'bet', '-0.0001');
  await record(alice, 'USD', 'deposit', '10');
  await record(alice, 'EUR', 'win', '2.5');
  await record(alice, 'EUR', 'fee', '-1');
  await record(eve, 'EUR', 'deposit', '99');
});

const get = (path: string, who: Operator | null = alice) =>
  handle(new Request(`http://api.test/v3${path}`, { headers: who ? { authorization: `Bearer ${who.key}` } : {} }));
const amounts = (body: { data: { amount: string }[] }) => body.data.map((t) => t.amount);

describe('the routes', () => {
  // The app is built inside the test, so what the routes are (their paths, methods and handlers)
  // is the test's own: an app built when the file loads is built before a mutant under test is on.
  it('answers at each of its paths, with the handler of its method', async () => {
    const app = buildApp();
    const send = async (method: string, path: string, body?: object) => {
      const response = await app(new Request(`http://api.test/v3${path}`, {
        method, body: body && JSON.stringify(body),
        headers: { authorization: `Bearer ${eve.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      }));
      return { status: response.status, body: await response.json() };
    };
    expect((await send('GET', '/wallets')).body.data).toEqual([expect.objectContaining({ currency: 'EUR', balance: '99.0000' })]);
    expect((await send('GET', '/transactions')).body.data).toEqual([expect.objectContaining({ type: 'deposit', amount: '99.0000' })]);
    expect((await send('GET', '/wallet-settings')).body).toMatchObject({ mode: 'transfer' });
    expect((await send('PUT', '/wallet-settings', { mode: 'transfer', low_balance_alerts: { EUR: '10' } })).body)
      .toMatchObject({ mode: 'transfer', low_balance_alerts: { EUR: '10.0000' } });
    expect((await send('POST', '/wallets')).status).toBe(405);
    expect((await send('GET', '/wallets/EUR/x')).status).toBe(404);
  });
});

describe('GET /v3/wallets', () => {
  it('lists the caller\'s balances as exact decimal strings, the primary first, never another client\'s', async () => {
    const response = await get('/wallets');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(body).toEqual({
      data: [
        { currency: 'EUR', balance: '12345678902.7344', is_primary: true, updated_at: expect.any(String) },
        { currency: 'USD', balance: '10.0000', is_primary: false, updated_at: expect.any(String) },
      ],
      next_cursor: null,
      has_more: false,
    });
    expect((await (await get('/wallets', eve)).json()).data).toEqual([expect.objectContaining({ currency: 'EUR', balance: '99.0000' })]);
  });
});

describe('GET /v3/wallets pages like every list', () => {
  it('one currency a page with limit=1, and a stale cursor refused', async () => {
    const first = await (await get('/wallets?limit=1')).json();
    expect(first.data.map((w: { currency: string }) => w.currency)).toEqual(['EUR']);
    const second = await (await get(`/wallets?limit=1&cursor=${first.next_cursor}`)).json();
    expect(second).toMatchObject({ data: [expect.objectContaining({ currency: 'USD' })], has_more: false, next_cursor: null });
    expect((await get(`/wallets?cursor=${Buffer.from('["XXX"]').toString('base64url')}`)).status).toBe(400);
  });
});

describe('GET /v3/transactions', () => {
  it('lists the caller\'s ledger newest first, every field as recorded, amounts exact', async () => {
    const body = await (await get('/transactions')).json();
    expect(amounts(body)).toEqual(['-1.0000', '2.5000', '10.0000', '-0.0001', '12345678901.2345']);
    expect(body.data[4]).toEqual({
      id: expect.any(String), type: 'deposit', currency: 'EUR', amount: '12345678901.2345', balance_after: '12345678901.2345',
      reference: 'dep-1', note: null, created_at: expect.any(String),
    });
    expect(amounts(await (await get('/transactions', eve)).json())).toEqual(['99.0000']);
  });

  it('filters by currency and type, and by created_after and created_before', async () => {
    expect(amounts(await (await get('/transactions?currency=EUR&type=deposit')).json())).toEqual(['12345678901.2345']);
    expect(amounts(await (await get('/transactions?currency=USD')).json())).toEqual(['10.0000']);
    expect((await (await get('/transactions?created_after=2999-01-01T00:00:00Z')).json()).data).toEqual([]);
    expect((await (await get('/transactions?created_before=2000-01-01T00:00:00Z')).json()).data).toEqual([]);
    expect(amounts(await (await get('/transactions?created_after=2000-01-01T00:00:00Z&created_before=2999-01-01T00:00:00Z')).json()))
      .toHaveLength(5);
  });

  it('pages by cursor: each transaction once, in order, whatever the page size', async () => {
    for (const limit of [1, 2, 4]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const body = await (await get(`/transactions?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)).json();
        seen.push(...amounts(body));
        cursor = body.next_cursor;
      } while (cursor);
      expect(seen).toEqual(['-1.0000', '2.5000', '10.0000', '-0.0001', '12345678901.2345']);
    }
  });

  it('refuses bad filters and cursors with 400 naming each, after the key', async () => {
    for (const [query, parameter] of [
      ['type=refund', 'type'], ['currency=eur', 'currency'], ['created_after=today', 'created_after'],
      // Shaped right but not a date the database takes: refused here, not a 500 there.
      ['created_after=2026-02-30T00:00:00Z', 'created_after'], ['created_before=0000-01-01T00:00:00Z', 'created_before'],
      ['created_after=2026-01-01T24:00:00Z', 'created_after'], ['created_after=2026-01-01T00:00:00%2B15:00', 'created_after'],
      [`cursor=${cursorOf(['abc'])}`, 'cursor'], [`cursor=${cursorOf(['1', '2'])}`, 'cursor'], ['limit=1000', 'limit'],
      // A position is the ledger's sequence number, whole: 1 to 18 digits, no sign, no leading zero.
      [`cursor=${cursorOf(['x1'])}`, 'cursor'], [`cursor=${cursorOf(['1x'])}`, 'cursor'], [`cursor=${cursorOf(['01'])}`, 'cursor'],
      [`cursor=${cursorOf(['9'.repeat(19)])}`, 'cursor'],
    ]) {
      const response = await get(`/transactions?${query}`);
      expect(response.status, query).toBe(400);
      expect((await response.json()).errors.map((e: { parameter: string }) => e.parameter)).toEqual([parameter]);
    }
    for (const position of ['1', '9'.repeat(18)]) {
      expect((await get(`/transactions?cursor=${cursorOf([position])}`)).status, position).toBe(200);
    }
    // A well-formed key that does not authenticate: 401 after the lookup, whatever the query says.
    const unknown = { key: `cgs_live_${'x'.repeat(43)}` } as Operator;
    expect((await get('/transactions?type=refund', unknown)).status).toBe(401);
    expect((await get('/wallets?colour=red', unknown)).status).toBe(401);
    expect((await get('/transactions?type=refund', null)).status).toBe(401);
  });
});
