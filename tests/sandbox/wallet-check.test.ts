// POST /v3/sandbox/wallet-checks, in-process against the test database: the reference operator
// wallet passes every scenario, and leaves its balance where it was; a careless wallet (no
// signature check, no idempotency) fails the scenarios it breaks; live keys and transfer mode are
// refused. Every answer as the OpenAPI document says.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectResponseMatches } from '../openapi/contract.ts';
import { connect } from '../helpers/db.ts';
import { type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';
import { issueKey, newOperator, type Operator, sessionsHandler } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler({ config: { walletTimeoutMs: 2_000 } });
let operator: Operator;
let testKey: string;
let wallet: ReferenceWallet;
const careless = createServer((req, res) => req.resume().on('end', () => {
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":"100.0000"}');
}));

beforeAll(async () => {
  operator = await newOperator(sql, 'self-check');
  testKey = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
  const [{ secret }] = await sql`
    select * from private.change_wallet_settings(${operator.account.id}, false, 'seamless', 'http://127.0.0.1:9/', false)`;
  wallet = await startReferenceWallet(secret, '25');
  await sql`select * from private.change_wallet_settings(${operator.account.id}, false, 'seamless', ${wallet.url}, false)`;
  await new Promise<void>((resolve) => careless.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await wallet.close();
  careless.closeAllConnections();
  await new Promise((resolve) => careless.close(resolve));
});

async function check(key = testKey) {
  const response = await handle(new Request('http://api.test/v3/sandbox/wallet-checks', {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ player_id: 'player-1', currency: 'EUR' }),
  }));
  const body = await response.json();
  expectResponseMatches('checkSandboxWallet', response, body);
  return { status: response.status, body };
}

describe('the seamless wallet self-check', () => {
  it('passes every scenario against the reference wallet, leaving its balance as it was', async () => {
    const { status, body } = await check();
    expect(status).toBe(200);
    expect(body.scenarios.filter((s: { passed: boolean }) => !s.passed)).toEqual([]);
    expect(body.scenarios.map((s: { scenario: string }) => s.scenario)).toEqual([
      'balance', 'debit', 'duplicate debit', 'credit', 'rollback of an unknown transaction', 'debit after its rollback', 'signature tampering',
    ]);
    expect(body.passed).toBe(true);
    expect(wallet.balance('player-1')).toBe('25.0000');
    expect(wallet.forged).toBe(1);
  });

  it('fails what a careless wallet breaks: balances that do not move, a late debit taken, a forged call accepted', async () => {
    await sql`update public.wallet_setting set url = ${`http://127.0.0.1:${(careless.address() as AddressInfo).port}/w`}
              where client_id = ${operator.account.id} and not livemode`;
    const { body } = await check();
    expect(body.passed).toBe(false);
    const failed = body.scenarios.filter((s: { passed: boolean }) => !s.passed).map((s: { scenario: string }) => s.scenario);
    expect(failed).toEqual(['debit', 'debit after its rollback', 'signature tampering']);
    await sql`update public.wallet_setting set url = ${wallet.url} where client_id = ${operator.account.id} and not livemode`;
  });

  it('takes test keys only, and a test mode in seamless', async () => {
    expect(await check(operator.key)).toMatchObject({ status: 403, body: { code: 'live_key' } });
    const transfer = await newOperator(sql, 'self-check-transfer');
    const transferTest = (await issueKey(sql, transfer.account, 'Sandbox', false)).key;
    expect(await check(transferTest)).toMatchObject({ status: 409, body: { code: 'not_seamless' } });
  });
});
