// Test mode: `cgs_test_` keys beside `cgs_live_` ones, and `livemode` on what the API creates. A
// key of one mode sees and changes only its mode's records: sessions (by id and in lists), its
// Idempotency-Keys, and the float, which is live money.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let live: Operator;
let test: string;

beforeAll(async () => {
  live = await newOperator(sql, 'modes');
  test = (await issueKey(sql, live.account, 'Sandbox', false)).key;
  await sql`insert into public.wallet (client_id, currency_code, is_primary) values (${live.account.id}, 'EUR', true)`;
  await sql`select * from public.record_transaction(${live.account.id}::uuid, 'EUR', 'deposit', 10::numeric, null, null)`;
});

const get = (path: string, key: string) =>
  handle(new Request(`http://api.test/v3${path}`, { headers: { authorization: `Bearer ${key}` } }));
const create = async (key: string, headers: Record<string, string> = {}) => {
  const response = await handle(sessionRequest(validBody, { key, headers }));
  expect(response.status).toBe(201);
  return response.json();
};

describe('test mode', () => {
  it('issues test keys as cgs_test_, their mode stored with them', async () => {
    expect(test).toMatch(/^cgs_test_[A-Za-z0-9_-]{43}$/);
    const [row] = await sql`select key_prefix, livemode from public.api_key where key_hash = ${createHash('sha256').update(test).digest('hex')}`;
    expect(row).toEqual({ key_prefix: test.slice(0, 16), livemode: false });
    await expect(sql`update public.api_key set livemode = true where key_prefix = ${test.slice(0, 16)}`)
      .rejects.toMatchObject({ code: '23514', constraint_name: 'api_key_prefix_names_mode' });
  });

  it('makes sessions in the key\'s mode, and each mode sees only its own, by id and in lists', async () => {
    const liveSession = await create(live.key);
    const testSession = await create(test);
    expect(liveSession.livemode).toBe(true);
    expect(testSession.livemode).toBe(false);
    expect((await get(`/sessions/${testSession.id}`, test)).status).toBe(200);
    expect((await get(`/sessions/${testSession.id}`, live.key)).status).toBe(404);
    expect((await get(`/sessions/${liveSession.id}`, test)).status).toBe(404);
    const listed = async (key: string) => (await (await get('/sessions?limit=100', key)).json()).data.map((s: { id: string }) => s.id);
    expect(await listed(test)).toContain(testSession.id);
    expect(await listed(test)).not.toContain(liveSession.id);
    expect(await listed(live.key)).toContain(liveSession.id);
    expect(await listed(live.key)).not.toContain(testSession.id);
    const [stored] = await sql`select livemode from public.game_session where id = ${testSession.id}`;
    expect(stored.livemode).toBe(false);
  });

  it('keeps each mode\'s Idempotency-Keys apart: the same key in the other mode is a new request', async () => {
    const headers = { 'idempotency-key': `modes-${Date.now()}` };
    const first = await create(live.key, headers);
    const other = await create(test, headers);
    expect(other.id).not.toBe(first.id);
    expect(other.livemode).toBe(false);
    expect((await create(test, headers)).id).toBe(other.id);
  });

  it('shows a test key no wallet and no movement of the live float', async () => {
    expect((await (await get('/wallets', live.key)).json()).data).toHaveLength(1);
    expect((await (await get('/transactions', live.key)).json()).data).toHaveLength(1);
    expect(await (await get('/wallets', test)).json()).toEqual({ data: [], next_cursor: null, has_more: false });
    expect(await (await get('/transactions', test)).json()).toEqual({ data: [], next_cursor: null, has_more: false });
  });

  it('refuses a key whose stored mode is not the one its prefix names', async () => {
    // Staff may write api_key rows directly; a row that stores a test key's hash as a live key
    // must not make live records for a key that says it is a test key.
    const key = `cgs_test_${'m'.repeat(43)}`;
    await sql`insert into public.api_key (client_id, key_prefix, key_hash, livemode)
      values (${live.account.id}, 'cgs_live_mislabel', ${createHash('sha256').update(key).digest('hex')}, true)`;
    const response = await handle(sessionRequest(validBody, { key }));
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe('invalid_api_key');
  });
});
