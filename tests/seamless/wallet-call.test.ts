// A call to an operator's seamless wallet (supabase/functions/_shared/wallet-call.ts) against the
// reference wallet: signed so the operator's Standard Webhooks library accepts it (with either
// secret during a rotation), and every answer sorted as the engine needs it: accepted with the
// balance, refused with the operator's code, or failed (timeout, down, 5xx, garbage).
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWallet, sendWalletCall, type WalletRequest } from '../../supabase/functions/_shared/wallet-call.ts';
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

describe("a seamless wallet's answer is taken only as the contract writes it", () => {
  // An operator server answering whatever the test scripts, and recording each call's webhook-id.
  let next: { status: number; body: string } = { status: 200, body: '{}' };
  const ids: string[] = [];
  const scripted = createServer((req, res) => req.resume().on('end', () => {
    ids.push(req.headers['webhook-id'] as string);
    res.writeHead(next.status, { 'content-type': 'application/json' }).end(next.body);
  }));
  let url: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => scripted.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(scripted.address() as AddressInfo).port}/wallet`;
  });
  afterAll(() => new Promise<void>((resolve) => {
    scripted.closeAllConnections();
    scripted.close(() => resolve());
  }));
  const answering = (status: number, body: unknown) => {
    next = { status, body: typeof body === 'string' ? body : JSON.stringify(body) };
    return call(request('debit', '1'), [current], 5_000, url);
  };
  const noBalance = { kind: 'failed', reason: 'the answer has no balance as a decimal string' };

  it('a balance is a decimal string of at most 16 digits before the point and 4 after, a sign allowed', async () => {
    for (const balance of ['0', '-5.25', '7', '0.0001', '1234567890123456', '1234567890123456.1234', '-1234567890123456.9999']) {
      expect(await answering(200, { balance }), balance).toEqual({ kind: 'accepted', balance });
    }
    for (const balance of ['12345678901234567', '1.12345', '01', '-01.5', '1.', '.5', ' 1', '1 ', '1e3', '+1', '1,5', '', 'x1', '1x']) {
      expect(await answering(200, { balance }), balance).toEqual(noBalance);
    }
    for (const body of [{ balance: 12.5 }, {}, [{ balance: '1' }], null, '"1"', 'not json', '']) {
      expect(await answering(200, body), JSON.stringify(body)).toEqual(noBalance);
    }
  });

  it('any 2xx is an answer; a 3xx (redirects are not followed) or a 5xx is a failure, whatever its body', async () => {
    for (const status of [200, 201, 299]) expect(await answering(status, { balance: '3' }), String(status)).toEqual({ kind: 'accepted', balance: '3' });
    for (const status of [300, 302, 399, 500, 503, 599]) {
      expect(await answering(status, { balance: '3', code: 'insufficient_funds' }), String(status)).toEqual({ kind: 'failed', reason: `HTTP ${status}` });
    }
  });

  it("a 4xx is a refusal only with the operator's code, snake_case up to 64 characters; its balance only if well-formed", async () => {
    for (const status of [400, 422, 499]) {
      expect(await answering(status, { code: 'insufficient_funds', balance: '2.5' }), String(status))
        .toEqual({ kind: 'refused', code: 'insufficient_funds', balance: '2.5' });
    }
    const longest = `a${'_'.repeat(62)}9`;
    for (const code of ['a', longest, 'limit_2']) expect(await answering(422, { code }), code).toEqual({ kind: 'refused', code, balance: null });
    expect(await answering(422, { code: 'player_blocked', balance: '1.123456' })).toEqual({ kind: 'refused', code: 'player_blocked', balance: null });
    for (const code of [`${longest}x`, 'Insufficient', '_funds', '9lives', 'no-funds', 'no funds', '', 'x\n']) {
      expect(await answering(422, { code }), code).toEqual({ kind: 'failed', reason: 'HTTP 422' });
    }
    for (const body of [{ code: 42 }, {}, 'not json', [{ code: 'insufficient_funds' }]]) {
      expect(await answering(422, body), JSON.stringify(body)).toEqual({ kind: 'failed', reason: 'HTTP 422' });
    }
  });

  it('a status below 200, which only a server writing raw HTTP sends, is a failure, whatever its body', async () => {
    // Node's client takes a final status under 100 as the server wrote it (a 1xx is never final).
    let statusLine = '';
    const raw = createTcpServer((socket) => {
      let request = '';
      socket.on('data', (chunk) => {
        request += chunk;
        const end = request.indexOf('\r\n\r\n');
        const length = Number(/content-length: *(\d+)/i.exec(request.slice(0, end))?.[1]);
        if (end >= 0 && Buffer.byteLength(request.slice(end + 4)) >= length) {
          socket.end(`${statusLine}\r\ncontent-type: application/json\r\ncontent-length: 15\r\n\r\n{"balance":"3"}`);
        }
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/wallet`;
      for (const [line, status] of [['HTTP/1.1 099 Odd', 99], ['HTTP/1.1 000 None', 0]] as const) {
        statusLine = line;
        expect(await call(request('debit', '1'), [current], 5_000, rawUrl), line).toEqual({ kind: 'failed', reason: `HTTP ${status}` });
      }
      // The same server with a 2xx status line: the body above is an answer.
      statusLine = 'HTTP/1.1 200 OK';
      expect(await call(request('debit', '1'), [current], 5_000, rawUrl)).toEqual({ kind: 'accepted', balance: '3' });
    } finally {
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    }
  });

  it('a wallet url the platform may not call is a failure that says why, and nothing is sent', async () => {
    const sent = ids.length;
    expect(await callWallet(request('debit', '1'), { url, secrets: [current], messageId: randomUUID(), timeoutMs: 1000, allowPrivateUrls: false }))
      .toEqual({ kind: 'failed', reason: 'the wallet url may not be called (not_https)' });
    expect(ids.length).toBe(sent);
  });

  it('a queued call is sent under its call id, the same on every attempt; a balance request, which has none, under a fresh one', async () => {
    next = { status: 200, body: '{"balance":"1"}' };
    const callId = randomUUID();
    const queued = { call_id: callId, attempt: 1, url, secrets: [current], request: request('credit', '1') };
    const settings = { timeoutMs: 5_000, allowPrivateUrls: true };
    expect(await sendWalletCall(queued, settings)).toEqual({ kind: 'accepted', balance: '1' });
    expect(await sendWalletCall({ ...queued, attempt: 2 }, settings)).toEqual({ kind: 'accepted', balance: '1' });
    await sendWalletCall({ ...queued, call_id: null, request: request('balance') }, settings);
    await sendWalletCall({ ...queued, call_id: null, request: request('balance') }, settings);
    const [first, second, balanceA, balanceB] = ids.slice(-4);
    expect([first, second]).toEqual([callId, callId]);
    expect(balanceA).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(balanceB).not.toBe(balanceA);
  });

  it("a queued call with no url or no secret (its client's wallet settings gone since it was queued) fails saying why, sending nothing", async () => {
    const sent = ids.length;
    const queued = { call_id: randomUUID(), attempt: 1, url, secrets: [current], request: request('credit', '1') };
    const settings = { timeoutMs: 5_000, allowPrivateUrls: true };
    const nowhere = { kind: 'failed', reason: 'the client has no wallet url and signing secret to call' };
    // As private.claim_wallet_calls hands such a call out; and either half missing alone.
    expect(await sendWalletCall({ ...queued, url: null, secrets: [] }, settings)).toEqual(nowhere);
    expect(await sendWalletCall({ ...queued, url: null }, settings)).toEqual(nowhere);
    expect(await sendWalletCall({ ...queued, secrets: [] }, settings)).toEqual(nowhere);
    expect(ids.length).toBe(sent);
  });
});
