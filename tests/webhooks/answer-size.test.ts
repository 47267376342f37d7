// An operator's server cannot fill the platform's memory: at most 64 KiB of an answer is read. A
// seamless wallet's answer over that is a failed call; a webhook receiver's body is never read, only
// its status. Against a local server that wants to send 256 MB: the call ends as said, and the
// server sees the connection closed having sent a small part of it (the same under real Deno:
// outgoing-in-deno.test.ts).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../supabase/functions/_shared/pinned-post.ts';
import { postSigned } from '../../supabase/functions/_shared/standard-webhooks.ts';
import { callWallet } from '../../supabase/functions/_shared/wallet-call.ts';
import { type FloodServer, floodServer, signedPost } from '../helpers/operator-servers.ts';

const WANTED = 256 * 1024 * 1024;
/** A small part of what the server wanted to send: more than the connection's buffers hold. */
const A_SMALL_PART = WANTED / 8;
let server: FloodServer;
// Answers a wallet's JSON with a balance, padded to the length its path names (`/bytes/65536`).
const padded = createServer((req, res) => req.resume().on('end', () => {
  const length = Number(req.url!.split('/').at(-1));
  const json = '{"balance":"12.5000","pad":""}';
  res.writeHead(200, { 'content-type': 'application/json' }).end(json.replace('""', `"${' '.repeat(length - json.length)}"`));
}));
let paddedBase: string;

beforeAll(async () => {
  server = await floodServer(WANTED);
  await new Promise<void>((resolve) => padded.listen(0, '127.0.0.1', resolve));
  paddedBase = `http://127.0.0.1:${(padded.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => padded.close(resolve));
});

describe('an answer is read up to 64 KiB', () => {
  it('a seamless wallet answering more is a failed call, and its connection is closed', async () => {
    const answer = await callWallet({ action: 'balance', session_id: randomUUID(), player_id: 'player-1', game_id: 'g:g', currency: 'EUR' },
      signedPost(`${server.base}/wallet`, { allowPrivateUrls: true }));
    expect(answer).toEqual({ kind: 'failed', reason: 'answer too large (over 65536 bytes)' });
    expect(await server.written('/wallet')).toBeLessThan(A_SMALL_PART);
  });

  it('a wallet answer of exactly 64 KiB is read whole (it arrives in more than one read); one byte more is too large', async () => {
    const balance = { action: 'balance', session_id: randomUUID(), player_id: 'player-1', game_id: 'g:g', currency: 'EUR' } as const;
    expect(await callWallet(balance, signedPost(`${paddedBase}/bytes/${MAX_ANSWER_BYTES}`, { allowPrivateUrls: true })))
      .toEqual({ kind: 'accepted', balance: '12.5000' });
    expect(await callWallet(balance, signedPost(`${paddedBase}/bytes/${MAX_ANSWER_BYTES + 1}`, { allowPrivateUrls: true })))
      .toEqual({ kind: 'failed', reason: 'answer too large (over 65536 bytes)' });
  });

  it('a webhook receiver\'s body is not read at all: its status is the answer', async () => {
    expect(await postSigned(signedPost(`${server.base}/hook`, { allowPrivateUrls: true }))).toMatchObject({ status: 200, text: null });
    expect(await server.written('/hook')).toBeLessThan(A_SMALL_PART);
  });
});
