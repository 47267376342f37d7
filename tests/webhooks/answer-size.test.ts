// An operator's server cannot fill the platform's memory: at most 64 KiB of an answer is read. A
// seamless wallet's answer over that is a failed call; a webhook receiver's body is never read, only
// its status. Against a local server that wants to send 256 MB: the call ends as said, and the
// server sees the connection closed having sent a small part of it (the same under real Deno:
// outgoing-in-deno.test.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSigned } from '../../supabase/functions/_shared/standard-webhooks.ts';
import { callWallet } from '../../supabase/functions/_shared/wallet-call.ts';
import { type FloodServer, floodServer, signedPost } from '../helpers/operator-servers.ts';

const WANTED = 256 * 1024 * 1024;
/** A small part of what the server wanted to send: more than the connection's buffers hold. */
const A_SMALL_PART = WANTED / 8;
let server: FloodServer;

beforeAll(async () => {
  server = await floodServer(WANTED);
});
afterAll(() => server.close());

describe('an answer is read up to 64 KiB', () => {
  it('a seamless wallet answering more is a failed call, and its connection is closed', async () => {
    const answer = await callWallet({ action: 'balance', session_id: randomUUID(), player_id: 'player-1', game_id: 'g:g', currency: 'EUR' },
      signedPost(`${server.base}/wallet`, { allowPrivateUrls: true }));
    expect(answer).toEqual({ kind: 'failed', reason: 'answer too large (over 65536 bytes)' });
    expect(await server.written('/wallet')).toBeLessThan(A_SMALL_PART);
  });

  it('a webhook receiver\'s body is not read at all: its status is the answer', async () => {
    expect(await postSigned(signedPost(`${server.base}/hook`, { allowPrivateUrls: true }))).toMatchObject({ status: 200, text: null });
    expect(await server.written('/hook')).toBeLessThan(A_SMALL_PART);
  });
});
