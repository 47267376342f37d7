// The sandbox's test players, in-process against the test database: POST /v3/sandbox/players with a
// test key only; a test session's bets, wins and rollbacks move its player's test balance, never
// the float nor the ledger; `insufficient_funds` refuses every bet; each answer as documented.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches, type OperationId } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { createApp } from '../../supabase/functions/v3/app.ts';
import { createSessionTokenSigner } from '../../supabase/functions/v3/session-token.ts';
import { ISSUER, isolatedDatabase, issueKey, newOperator, type Operator, sessionRequest, sessionsHandler, validBody } from '../helpers/api.ts';

const sql = connect();
// A short wallet timeout: the slow_wallet behaviour waits it out.
const WALLET_TIMEOUT_MS = 300;
const { handle } = await sessionsHandler({ config: { walletTimeoutMs: WALLET_TIMEOUT_MS } });
let operator: Operator;
let testKey: string;
let providerKey: string;

beforeAll(async () => {
  operator = await newOperator(sql, 'sandbox');
  testKey = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
  await sql`insert into public.wallet (client_id, currency_code) values (${operator.account.id}, 'EUR')`;
  await sql`select * from public.record_transaction(${operator.account.id}::uuid, 'EUR', 'deposit', 500::numeric)`;
  providerKey = (await sql`select key from public.issue_provider_key('pragmatic-play')`)[0].key;
});

async function call(operationId: OperationId, path: string, body: object | null, key: string) {
  const response = await handle(new Request(`http://api.test/v3${path}`, {
    method: body ? 'POST' : 'GET', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }));
  const json = await response.json();
  expectResponseMatches(operationId, response, json);
  return { status: response.status, body: json };
}
const player = (body: object, key = testKey) => call('createSandboxPlayer', '/sandbox/players', body, key);
async function testSession(playerId: string): Promise<string> {
  const response = await handle(sessionRequest({ ...validBody, player_id: playerId }, { key: testKey }));
  return new URL((await response.json()).launch_url).searchParams.get('token')!;
}
const provider = (path: 'bets' | 'wins' | 'rollbacks', body: object) => call(
  ({ bets: 'providerBet', wins: 'providerWin', rollbacks: 'providerRollback' } as const)[path], `/provider/${path}`, body, providerKey);

describe('test players', () => {
  it('are made with a test key only, and reset when made again', async () => {
    expect(await player({ player_id: 'p-1', currency: 'EUR', balance: '100' }, operator.key))
      .toMatchObject({ status: 403, body: { code: 'live_key' } });
    expect(await player({ player_id: 'p-1', currency: 'EUR', balance: '100' })).toEqual({
      status: 200,
      body: { player_id: 'p-1', currency: 'EUR', balance: '100.0000', behaviour: 'normal', livemode: false, created_at: expect.any(String) },
    });
    expect((await player({ player_id: 'p-1', currency: 'EUR', balance: '7.5' })).body.balance).toBe('7.5000');
    // A currency the service does not have: 422, as everywhere (docs/validation.md).
    expect(await player({ player_id: 'p-1', currency: 'XXQ', balance: '1' }))
      .toMatchObject({ status: 422, body: { code: 'reference_unavailable', errors: [{ pointer: '#/currency', code: 'unknown_currency' }] } });
    expect(await player({ player_id: 'p-1', currency: 'EUR', balance: '-1' })).toMatchObject({ status: 400 });
  });

  it('play a test session on their test balance: bets, wins and rollbacks, the float and ledger untouched', async () => {
    const id = `p-${randomUUID()}`;
    await player({ player_id: id, currency: 'EUR', balance: '50' });
    const token = await testSession(id);
    const ledgerBefore = await sql`select count(*)::int as n from public.transaction where client_id = ${operator.account.id}`;
    const [round, bet, other] = [randomUUID(), randomUUID(), randomUUID()];
    expect(await provider('bets', { session_token: token, transaction_id: bet, round_id: round, amount: '20' }))
      .toMatchObject({ status: 200, body: { balance: '30.0000' } });
    expect(await provider('bets', { session_token: token, transaction_id: other, round_id: round, amount: '5' }))
      .toMatchObject({ body: { balance: '25.0000' } });
    expect(await provider('rollbacks', { session_token: token, transaction_id: randomUUID(), rolled_back_transaction_id: other }))
      .toMatchObject({ body: { balance: '30.0000' } });
    expect(await provider('wins', { session_token: token, transaction_id: randomUUID(), round_id: round, amount: '45', round_closed: true }))
      .toMatchObject({ body: { balance: '75.0000' } });
    expect(await provider('bets', { session_token: token, transaction_id: randomUUID(), round_id: randomUUID(), amount: '75.01' }))
      .toMatchObject({ status: 422, body: { code: 'insufficient_funds', balance: '75.0000' } });
    expect(await sql`select count(*)::int as n from public.transaction where client_id = ${operator.account.id}`).toEqual(ledgerBefore);
    expect((await sql`select balance::text from public.wallet where client_id = ${operator.account.id}`)[0].balance).toBe('500.0000');
    const [round_] = await sql`select livemode, status from public.game_round where provider_round_id = ${round}`;
    expect(round_).toEqual({ livemode: false, status: 'closed' });
  });

  it('need not exist when their session is made (201): each bet is 422 test_player_unknown, nothing written, until they do', async () => {
    const id = `p-${randomUUID()}`;
    const token = await testSession(id);
    const [round, first] = [randomUUID(), randomUUID()];
    expect(await provider('bets', { session_token: token, transaction_id: first, round_id: round, amount: '1' }))
      .toMatchObject({ status: 422, body: { code: 'test_player_unknown', retryable: false } });
    expect(await sql`select 1 from public.game_round where provider_round_id = ${round}`).toEqual([]);
    await player({ player_id: id, currency: 'EUR', balance: '10' });
    expect(await provider('bets', { session_token: token, transaction_id: randomUUID(), round_id: round, amount: '1' }))
      .toMatchObject({ status: 200, body: { balance: '9.0000' } });
  });

  it('are read back by GET /v3/sandbox/players/{player_id}: a row per currency, the caller\'s own, test keys only', async () => {
    const id = `p ${randomUUID()}/é`;
    await player({ player_id: id, currency: 'USD', balance: '5', behaviour: 'slow_wallet' });
    await player({ player_id: id, currency: 'EUR', balance: '12.5' });
    const path = `/sandbox/players/${encodeURIComponent(id)}`;
    expect(await call('getSandboxPlayer', path, null, testKey)).toMatchObject({
      status: 200,
      body: { data: [
        { player_id: id, currency: 'EUR', balance: '12.5000', behaviour: 'normal', livemode: false },
        { player_id: id, currency: 'USD', balance: '5.0000', behaviour: 'slow_wallet', livemode: false },
      ] },
    });
    expect(await call('getSandboxPlayer', path, null, operator.key)).toMatchObject({ status: 403, body: { code: 'live_key' } });
    const other = await newOperator(sql, 'sandbox-other');
    const othersTestKey = (await issueKey(sql, other.account, 'Sandbox', false)).key;
    expect(await call('getSandboxPlayer', path, null, othersTestKey)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await call('getSandboxPlayer', '/sandbox/players/%20%20', null, testKey)).toMatchObject({ status: 400, body: { code: 'invalid_parameters' } });
  });

  it('with behaviour insufficient_funds have every bet refused', async () => {
    const id = `p-${randomUUID()}`;
    await player({ player_id: id, currency: 'EUR', balance: '1000', behaviour: 'insufficient_funds' });
    const token = await testSession(id);
    expect(await provider('bets', { session_token: token, transaction_id: randomUUID(), round_id: randomUUID(), amount: '1' }))
      .toMatchObject({ status: 422, body: { code: 'insufficient_funds', balance: '0.0000' } });
  });

  it.each([['failing_wallet', 0], ['slow_wallet', WALLET_TIMEOUT_MS]])(
    'with behaviour %s have every bet answered 502 wallet_failed (after %i ms): nothing taken, no round opened',
    async (behaviour, waited) => {
      const id = `p-${randomUUID()}`;
      await player({ player_id: id, currency: 'EUR', balance: '40', behaviour });
      const token = await testSession(id);
      const started = Date.now();
      expect(await provider('bets', { session_token: token, transaction_id: randomUUID(), round_id: randomUUID(), amount: '1' }))
        .toMatchObject({ status: 502, body: { code: 'wallet_failed', retryable: false } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(waited);
      expect((await sql`select balance::text from public.sandbox_player where player_id = ${id}`)[0].balance).toBe('40.0000');
      expect(await provider('wins', { session_token: token, transaction_id: randomUUID(), round_id: randomUUID(), amount: '0' }))
        .toMatchObject({ status: 422, body: { code: 'unknown_round' } });
      // Back to normal, the same session bets.
      await player({ player_id: id, currency: 'EUR', balance: '40', behaviour: 'normal' });
      expect(await provider('bets', { session_token: token, transaction_id: randomUUID(), round_id: randomUUID(), amount: '1' }))
        .toMatchObject({ status: 200, body: { balance: '39.0000' } });
    },
  );
});

describe('a test player in a currency the service has switched off', () => {
  it('is refused 422 currency_unavailable, and nothing is written', async () => {
    // A database of its own: switching a currency off must not reach other files' tests.
    const { owner, endpoint } = await isolatedDatabase('inactive_currency');
    const app = createApp({ sql: endpoint, signer: await createSessionTokenSigner({ issuer: ISSUER }) });
    const client = await newOperator(owner, 'inactive-currency');
    const key = (await issueKey(owner, client.account, 'Sandbox', false)).key;
    await owner`update public.currency set is_active = false where code = 'BDT'`;
    const response = await app(new Request('http://api.test/v3/sandbox/players', {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ player_id: 'p-bdt', currency: 'BDT', balance: '5' }),
    }));
    const problem = await response.json();
    expect(response.status).toBe(422);
    expect(problem.errors.map((e: { code: string }) => e.code)).toEqual(['currency_unavailable']);
    expect(await owner`select 1 from public.sandbox_player where client_id = ${client.account.id}`).toHaveLength(0);
  });
});
