// An operator's server cannot fill the platform's memory: at most 64 KiB of an answer is read. A
// seamless wallet's answer over that is a failed call; a webhook receiver's body is never read, only
// its status. Against a local server that wants to send 256 MB, under Node and under real Deno: the
// call ends as said, and the server sees the connection closed having sent a small part of it.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deno, denoEnv, runAsFunction } from '../../scripts/lib/deno-function.ts';
import { postSigned, type SignedPost } from '../../supabase/functions/_shared/standard-webhooks.ts';
import { callWallet } from '../../supabase/functions/_shared/wallet-call.ts';
import type { DenoAnswer, DenoPost } from '../helpers/post-signed-in-deno.ts';

const WANTED = 256 * 1024 * 1024;
const IN_DENO = fileURLToPath(new URL('../helpers/post-signed-in-deno.ts', import.meta.url));
/** Bytes each answer got written before its connection closed, by request path. */
const closed = new Map<string, { bytes: Promise<number>; resolve: (bytes: number) => void }>();
const written = (path: string) => {
  if (!closed.has(path)) {
    let resolve!: (bytes: number) => void;
    closed.set(path, { bytes: new Promise((r) => (resolve = r)), resolve });
  }
  return closed.get(path)!.bytes;
};
// A balance that never ends: valid JSON as far as it goes, 256 MB announced.
const server = createServer((req, res) => req.resume().on('end', () => {
  written(req.url!);
  const chunk = Buffer.alloc(64 * 1024, ' ');
  let sent = 0;
  res.on('close', () => closed.get(req.url!)!.resolve(sent));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(WANTED) });
  const pump = () => {
    while (sent < WANTED && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.write('{"balance":"100.0000"');
  pump();
}));
let base: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => {
  server.closeAllConnections();
  server.close(resolve);
}));

const post = (path: string, keepBody: boolean): SignedPost => ({
  url: `${base}${path}`, secrets: [`whsec_${randomBytes(32).toString('base64')}`], messageId: randomUUID(), body: '{}',
  timeoutMs: 25_000, keepBody, allowPrivateUrls: true,
});
/** A small part of what the server wanted to send: what the connection's buffers hold at most. */
const aSmallPart = WANTED / 8;

describe('an answer is read up to 64 KiB', () => {
  it('a seamless wallet answering more is a failed call, and its connection is closed', async () => {
    const answer = await callWallet({ action: 'balance', session_id: randomUUID(), player_id: 'player-1', game_id: 'g:g', currency: 'EUR' },
      { ...post('/wallet', true), now: () => new Date() });
    expect(answer).toEqual({ kind: 'failed', reason: 'answer too large (over 65536 bytes)' });
    expect(await written('/wallet')).toBeLessThan(aSmallPart);
  });

  it('a webhook receiver\'s body is not read at all: its status is the answer', async () => {
    expect(await postSigned(post('/hook', false))).toMatchObject({ status: 200, text: null });
    expect(await written('/hook')).toBeLessThan(aSmallPart);
  });

  it('the same under Deno, as the functions run', async () => {
    const posts: DenoPost[] = [{ post: post('/deno-wallet', true), answers: [] }, { post: post('/deno-hook', false), answers: [] }];
    const { stdout } = await promisify(execFile)(deno, [...runAsFunction('deliver'), IN_DENO, JSON.stringify(posts)], { env: denoEnv() });
    const [wallet, hook] = JSON.parse(stdout) as DenoAnswer[];
    expect(wallet.answer).toEqual({ failure: 'too_large' });
    expect(hook.answer).toEqual({ status: 200, text: null });
    expect(await written('/deno-wallet')).toBeLessThan(aSmallPart);
    expect(await written('/deno-hook')).toBeLessThan(aSmallPart);
  });
});
