// DNS rebinding: a name that answers a public address to the URL check and a private one to the
// connection. At each send the name is resolved once and the connection goes to the addresses
// checked, keeping the name for the Host header, TLS SNI and the certificate check. Proven under
// Node (vitest) and under real Deno (the functions), against a local HTTPS server whose certificate
// is for a made-up name that only the injected resolver knows.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deno, denoEnv, runAsFunction } from '../../scripts/lib/deno-function.ts';
import { postSigned, type SignedPost } from '../../supabase/functions/_shared/standard-webhooks.ts';
import { answering } from '../helpers/answering-resolver.ts';
import type { DenoAnswer, DenoPost } from '../helpers/post-signed-in-deno.ts';
import { selfSigned } from '../helpers/self-signed.ts';

const NAME = 'wallet.operator.test';
const IN_DENO = fileURLToPath(new URL('../helpers/post-signed-in-deno.ts', import.meta.url));
const tls = selfSigned(NAME);
let connections = 0;
const server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => req.resume().on('end', () => {
  res.writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ host: req.headers.host, sni: (req.socket as TLSSocket).servername }));
})).on('connection', () => connections++);
let port: number;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => {
  server.closeAllConnections();
  server.close(resolve);
}));

/** A signed POST to `name` on the test server's port, keeping the answer. */
const postTo = (name: string, allowPrivateUrls: boolean): Omit<SignedPost, 'resolve'> => ({
  url: `https://${name}:${port}/hook`, secrets: [`whsec_${randomBytes(32).toString('base64')}`], messageId: randomUUID(), body: '{}',
  timeoutMs: 10_000, keepBody: true, allowPrivateUrls, ca: [tls.cert],
});

describe('a send connects where its check looked', () => {
  it('resolves the name once and connects to that address, with the name as Host, TLS server name and certificate name', async () => {
    // The rule is off (the server is on loopback); the name is resolved and pinned all the same.
    const resolve = answering(['127.0.0.1']);
    const answer = await postSigned({ ...postTo(NAME, true), resolve });
    expect(answer).toMatchObject({ status: 200 });
    expect(JSON.parse((answer as { text: string }).text)).toEqual({ host: `${NAME}:${port}`, sni: NAME });
    expect(resolve.asked).toEqual([NAME]);
    // The certificate is checked against the name, not against the address connected to.
    expect(await postSigned({ ...postTo('other.operator.test', true), resolve: answering(['127.0.0.1']) })).toEqual({ failure: 'unreachable' });
  });

  it('never reaches an address the name answers after the one it was checked at', async () => {
    const before = connections;
    // First 127.0.0.2, where nothing listens; then 127.0.0.1, where the server does.
    const rebinding = answering(['127.0.0.2'], ['127.0.0.1']);
    expect(await postSigned({ ...postTo(NAME, true), resolve: rebinding })).toEqual({ failure: 'unreachable' });
    expect(rebinding.asked).toEqual([NAME]);
    // The rule on: private at the check is refused, whatever the name would answer next.
    const privateFirst = answering(['10.0.0.1'], ['93.184.216.34']);
    expect(await postSigned({ ...postTo(NAME, false), resolve: privateFirst })).toEqual({ failure: 'refused', refusal: 'not_public' });
    expect(privateFirst.asked).toEqual([NAME]);
    expect(connections).toBe(before);
  });

  it('does the same under Deno, as the functions run', async () => {
    const posts: DenoPost[] = [
      { post: postTo(NAME, true), answers: [['127.0.0.1']] },
      { post: postTo('other.operator.test', true), answers: [['127.0.0.1']] },
      { post: postTo(NAME, true), answers: [['127.0.0.2'], ['127.0.0.1']] },
    ];
    const before = connections;
    const { stdout } = await promisify(execFile)(deno, [...runAsFunction('deliver'), IN_DENO, JSON.stringify(posts)], { env: denoEnv() });
    const [pinned, wrongName, rebound] = JSON.parse(stdout) as DenoAnswer[];
    expect(pinned.asked).toEqual([NAME]);
    expect(pinned.answer).toMatchObject({ status: 200 });
    expect(JSON.parse((pinned.answer as { text: string }).text)).toEqual({ host: `${NAME}:${port}`, sni: NAME });
    expect(wrongName.answer).toEqual({ failure: 'unreachable' });
    expect(rebound).toEqual({ answer: { failure: 'unreachable' }, asked: [NAME] });
    // The pinned call and the one refused for its certificate: the rebound one never arrived.
    expect(connections - before).toBe(2);
  });
});
