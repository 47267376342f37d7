// The wallet mode: GET and PUT /v3/wallet-settings for the operator, set_wallet_settings for staff.
// Transfer until set; seamless needs a url and makes a signing secret, shown once and kept where no
// API role reads it; a rotation keeps the old secret signing for 24 hours; no change of mode while
// a round is open; each key mode has its own settings.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { as, cast, connect, outcome } from '../helpers/db.ts';
import { issueKey, newOperator, type Operator, recordedSession, sessionsHandler } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler();
let operator: Operator;

beforeAll(async () => {
  operator = await newOperator(sql, 'wallet-modes');
});

async function call(method: 'GET' | 'PUT', body?: object, key = operator.key) {
  const response = await handle(new Request('http://api.test/v3/wallet-settings', {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }));
  const json = await response.json();
  expectResponseMatches(method === 'GET' ? 'getWalletSettings' : 'putWalletSettings', response, json);
  return { status: response.status, body: json };
}

const secretOf = async () =>
  (await sql`select s.* from private.wallet_secret s where client_id = ${operator.account.id} and livemode`)[0];

describe('wallet settings', () => {
  it('is transfer until set; seamless needs a url, and makes a secret shown once', async () => {
    expect(await call('GET')).toEqual({
      status: 200, body: { mode: 'transfer', url: null, secret_prefix: null, low_balance_alerts: {}, livemode: true, updated_at: null },
    });
    expect(await call('PUT', { mode: 'seamless' })).toMatchObject({
      status: 400,
      body: {
        code: 'validation_failed', detail: 'The request body has invalid fields; see `errors`.',
        errors: [{ pointer: '#/url', code: 'required', detail: 'url is required to switch to seamless.' }],
      },
    });
    const made = await call('PUT', { mode: 'seamless', url: 'https://wallet.operator.test/cgs' });
    expect(made.status).toBe(200);
    expect(made.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(made.body).toMatchObject({ mode: 'seamless', url: 'https://wallet.operator.test/cgs', secret_prefix: made.body.secret.slice(0, 12) });
    expect((await secretOf()).secret).toBe(made.body.secret);
    const read = await call('GET');
    expect(read.body).not.toHaveProperty('secret');
    expect(read.body.secret_prefix).toBe(made.body.secret_prefix);
    const again = await call('PUT', { mode: 'seamless', url: 'https://wallet.operator.test/v2' });
    expect(again.body).not.toHaveProperty('secret');
    expect(again.body.url).toBe('https://wallet.operator.test/v2');
  });

  it('rotates the secret, the old one still signing for 24 hours', async () => {
    const before = await secretOf();
    const rotated = await call('PUT', { mode: 'seamless', rotate_secret: true });
    expect(rotated.body.secret).not.toBe(before.secret);
    const after = await secretOf();
    expect(after).toMatchObject({ secret: rotated.body.secret, previous_secret: before.secret });
    expect(after.previous_until.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
  });

  it('refuses a change of mode while a round is open, and keeps test and live settings apart', async () => {
    const [{ key: provider }] = await sql`select key from public.issue_provider_key('pragmatic-play')`;
    await sql`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 10::numeric)`;
    await call('PUT', { mode: 'transfer' });
    const session = { id: await recordedSession(sql, operator.account.id) };
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const [bet] = await sql`select outcome from private.round_bet(${sha(provider)}, ${session.id}, ${randomUUID()}, ${randomUUID()},
      1, false, ${sha('bet')})`;
    expect(bet.outcome).toBe('ok');
    expect(await call('PUT', { mode: 'seamless' })).toMatchObject({ status: 409, body: { code: 'rounds_open' } });
    expect((await call('PUT', { mode: 'transfer', rotate_secret: false })).status).toBe(200);
    // A seamless operator's bet moves no float: it is a call queued to its wallet.
    const seamless = await newOperator(sql, 'seamless');
    await as(sql, (await cast(sql)).adam, (tx) => tx`select * from public.set_wallet_settings(${seamless.account.id}, 'seamless', 'https://w.test/')`);
    const other = { id: await recordedSession(sql, seamless.account.id) };
    const [queued] = await sql`select outcome, body from private.round_bet(${sha(provider)}, ${other.id}, ${randomUUID()}, ${randomUUID()},
      1, false, ${sha('bet')})`;
    expect(queued).toMatchObject({ outcome: 'wallet_call', body: { url: 'https://w.test/', request: { action: 'debit', amount: '1.0000' } } });
    const test = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
    expect((await call('GET', undefined, test)).body).toMatchObject({ mode: 'transfer', livemode: false });
    expect((await call('PUT', { mode: 'seamless', url: 'http://localhost:9999/wallet' }, test)).body).toMatchObject({ mode: 'seamless', livemode: false });
    expect((await call('GET')).body.mode).toBe('transfer');
  });

  it('lets staff set a client\'s mode, nobody else; the secrets are out of every API role\'s reach', async () => {
    const people = await cast(sql);
    const client = await newOperator(sql, 'staff-set');
    const [set] = await as(sql, people.adam, (tx) =>
      tx`select * from public.set_wallet_settings(${client.account.id}, 'seamless', 'https://wallet.client.test/')`);
    expect(set).toMatchObject({ outcome: 'updated', settings: { mode: 'seamless' }, secret: expect.stringMatching(/^whsec_/) });
    expect(await outcome(() => as(sql, people.alice, (tx) =>
      tx`select * from public.set_wallet_settings(${client.account.id}, 'transfer')`))).toBe('42501');
    for (const caller of [people.alice, people.adam, 'anon'] as const) {
      expect(await outcome(() => as(sql, caller, (tx) => tx`select * from private.wallet_secret`))).toBe('42501');
    }
  });

  it('tells the operator once when a movement takes its float below its alert: wallet.balance_low', async () => {
    const alerted = await newOperator(sql, 'low-balance');
    await sql`insert into public.wallet (client_id, currency_code) values (${alerted.account.id}, 'EUR')`;
    await sql`select * from public.record_transaction(${alerted.account.id}::uuid, 'EUR', 'deposit', 100::numeric)`;
    expect(await call('PUT', { mode: 'transfer', low_balance_alerts: { EUR: '50' } }, alerted.key)).toMatchObject({
      status: 200, body: { low_balance_alerts: { EUR: '50.0000' } },
    });
    const move = (amount: number) => sql`select * from public.record_transaction(${alerted.account.id}::uuid, 'EUR',
      ${amount < 0 ? 'withdraw' : 'deposit'}, ${amount}::numeric)`;
    const alerts = async () => (await sql`select data from public.event where client_id = ${alerted.account.id}
      and type = 'wallet.balance_low' order by created_at`).map((e) => e.data);
    await move(-40);
    expect(await alerts()).toEqual([]);
    await move(-20);
    await move(-5);
    expect(await alerts()).toEqual([expect.objectContaining({ currency: 'EUR', balance: '40.0000', threshold: '50.0000' })]);
    await move(30);
    await move(-30);
    expect(await alerts()).toHaveLength(2);
    // Left out of a change, the alerts stay.
    expect((await call('PUT', { mode: 'transfer' }, alerted.key)).body.low_balance_alerts).toEqual({ EUR: '50.0000' });
  });
});
