// A call to an operator's seamless wallet (supabase/functions/_shared/wallet-call.ts) against the
// reference wallet: signed so the operator's Standard Webhooks library accepts it (with either
// secret during a rotation), and every answer sorted as the engine needs it: accepted with the
// balance, refused with the operator's code, or failed (timeout, down, 5xx, garbage).
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWallet, type WalletRequest } from '../../supabase/functions/_shared/wallet-call.ts';
import { freePort } from '../../scripts/lib/embedded-postgres.ts';
import { type ReferenceWallet, startReferenceWallet } from '../helpers/reference-wallet.ts';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const current = secret();
let wallet: ReferenceWallet;

beforeAll(async () => {
  wallet = await startReferenceWallet(current);
});
afterAll(() => wallet.close());

const request = (action: WalletRequest['action'], amount?: string): WalletRequest => ({
  action, session_id: randomUUID(), player_id: 'player-1', game_id: 'pragmatic-play:vs20olympgate', currency: 'EUR',
  transaction_id: `tx-${randomUUID()}`, round_id: 'round-1', ...(amount ? { amount } : {}),
});
const call = (body: WalletRequest, secrets = [current], timeoutMs = 1000, url = wallet.url) =>
  callWallet(body, { url, secrets, messageId: randomUUID(), timeoutMs, allowPrivateUrls: true });

describe('a seamless wallet call', () => {
  it('is signed as Standard Webhooks verifies, and answers the balance after a debit or a credit', async () => {
    wallet.misbehave = 'none';
    expect(await call(request('balance'))).toEqual({ kind: 'accepted', balance: '100.0000' });
    expect(await call(request('debit', '12.5'))).toEqual({ kind: 'accepted', balance: '87.5000' });
    expect(await call(request('credit', '2.5'))).toEqual({ kind: 'accepted', balance: '90.0000' });
    expect(wallet.forged).toBe(0);
    expect(wallet.calls.at(-1)).toMatchObject({ action: 'credit', amount: '2.5', player_id: 'player-1' });
  });

  it('passes verification with either secret during a rotation, and fails without a right one', async () => {
    expect(await call(request('balance'), [secret(), current])).toMatchObject({ kind: 'accepted' });
    expect(await call(request('balance'), [secret()])).toMatchObject({ kind: 'refused', code: 'bad_signature' });
    expect(wallet.forged).toBe(1);
  });

  it('sorts the operator\'s refusal from its failures', async () => {
    expect(await call(request('debit', '1000'))).toEqual({ kind: 'refused', code: 'insufficient_funds', balance: '90.0000' });
    wallet.misbehave = 'error';
    expect(await call(request('debit', '1'))).toEqual({ kind: 'failed', reason: 'HTTP 500' });
    wallet.misbehave = 'garbage';
    expect(await call(request('debit', '1'))).toMatchObject({ kind: 'failed' });
    wallet.misbehave = 'slow';
    wallet.slowMs = 400;
    expect(await call(request('debit', '1'), [current], 100)).toEqual({ kind: 'failed', reason: 'no answer within 100 ms' });
    wallet.misbehave = 'none';
    const down = `http://127.0.0.1:${await freePort()}/wallet`;
    expect(await call(request('debit', '1'), [current], 1000, down)).toEqual({ kind: 'failed', reason: 'the wallet could not be reached' });
  });

  it('a retry under the same transaction_id is applied once by the operator', async () => {
    const debit = request('debit', '5');
    const first = await call(debit);
    expect(await call(debit)).toEqual(first);
    expect(await call(request('balance'))).toEqual({ kind: 'accepted', balance: (Number((first as { balance: string }).balance)).toFixed(4) });
  });
});
