// The signed POST every outgoing call is (standard-webhooks.ts over pinned-post.ts), seen from the
// receiving end: a POST whose body is the bytes signed, announced by its length, with the Standard
// Webhooks headers; one signature per secret; one deadline that covers resolving the name; nothing
// sent once the time is up; an answer cut short is a failure, not a hang or a crash. Against a local
// server that records what it got (loopback: the rule for private URLs is off).
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getDefaultAutoSelectFamily, setDefaultAutoSelectFamily } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinnedPost } from '../../supabase/functions/_shared/pinned-post.ts';
import { callableTarget } from '../../supabase/functions/_shared/public-url.ts';
import { postSigned, signedHeaders } from '../../supabase/functions/_shared/standard-webhooks.ts';
import { SERVICE_VERSION, USER_AGENT } from '../../supabase/functions/_shared/user-agent.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { answering } from '../helpers/answering-resolver.ts';

interface Received { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer }
const received: Received[] = [];
let connections = 0;
let base: string;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
    if (req.url === '/cut') {
      // Announces 1000 bytes, sends 10, and hangs up.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"balance"', () => setImmediate(() => res.socket?.destroy()));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '11', 'retry-after': '7' }).end('{"ok":true}');
  });
}).on('connection', () => connections++);

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
}));

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;

describe('a signed POST', () => {
  it('is a POST of exactly the bytes signed, announced by their length, with the Standard Webhooks headers', async () => {
    const key = secret();
    const messageId = randomUUID();
    const body = JSON.stringify({ note: 'déjà vu, 10 €' });
    const answer = await postSigned({ url: `${base}/hook`, secrets: [key], messageId, body, timeoutMs: 20_000, allowPrivateUrls: true, keepBody: true });
    expect(answer).toMatchObject({ status: 200, text: '{"ok":true}' });
    // The answer's headers are the ones the server sent, and no other.
    const headers = (answer as { headers: Headers }).headers;
    expect(headers.get('retry-after')).toBe('7');
    expect([...headers.keys()].sort()).toEqual(['connection', 'content-length', 'content-type', 'date', 'retry-after']);
    const got = received.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', url: '/hook' });
    expect(got.body.toString('utf8')).toBe(body);
    expect(got.headers).toMatchObject({ 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'webhook-id': messageId });
    expect(got.headers['transfer-encoding']).toBeUndefined();
    // The platform and its version, not the runtime's default ("node").
    expect(got.headers['user-agent']).toBe(`CasinoGamingIntegrationService/${packageJson.version} (+https://docs.cgs.example/webhooks)`);
    expect(USER_AGENT).toContain(SERVICE_VERSION);
    expect(new Webhook(key).verify(got.body.toString('utf8'), got.headers as Record<string, string>)).toEqual(JSON.parse(body));
  });

  it('carries one signature per secret, space-separated, each verifying alone, over the timestamp in whole seconds', () => {
    const [current, previous] = [secret(), secret()];
    const at = new Date(1_700_000_000_999);
    const headers = signedHeaders([current, previous], 'msg_1', at, '{"n":1}');
    expect(Object.keys(headers).sort()).toEqual(['content-type', 'webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000' });
    const signatures = headers['webhook-signature'].split(' ');
    expect(signatures).toEqual([new Webhook(current).sign('msg_1', at, '{"n":1}'), new Webhook(previous).sign('msg_1', at, '{"n":1}')]);
    expect(signatures.every((signature) => signature.startsWith('v1,'))).toBe(true);
  });

  it('is never sent unsigned: no secret is an error, not a POST', () => {
    expect(() => signedHeaders([], 'msg_1', new Date(), '{}')).toThrow('a signed message needs a secret');
  });

  it('has one deadline that covers resolving the name: a resolver that never answers is a timeout, and nothing is sent', async () => {
    const before = connections;
    const silent = Object.assign(() => new Promise<string[]>(() => {}), { asked: [] });
    const answer = await postSigned({
      url: `http://silent.test:${new URL(base).port}/hook`, secrets: [secret()], messageId: randomUUID(), body: '{}', timeoutMs: 50,
      allowPrivateUrls: true, resolve: silent,
    });
    expect(answer).toEqual({ failure: 'timeout' });
    expect(connections).toBe(before);
  });

  it('sends nothing once its time is up before the connection is made', async () => {
    const target = await callableTarget(`${base}/late`, { allowPrivateUrls: true });
    if ('refusal' in target) throw new Error(target.refusal);
    const before = received.length;
    const answer = await pinnedPost(target, { headers: {}, body: '{}', signal: AbortSignal.abort(), keepBody: true });
    expect(answer).toEqual({ failure: 'timeout' });
    // Anything sent would have been received by now: a POST that was answered after it.
    expect(await postSigned({ url: `${base}/after`, secrets: [secret()], messageId: randomUUID(), body: '{}', timeoutMs: 20_000, allowPrivateUrls: true }))
      .toMatchObject({ status: 200 });
    expect(received.slice(before).map((got) => got.url)).toEqual(['/after']);
  });

  it('is unreachable when the answer is cut short in its body, with the body kept', async () => {
    expect(await postSigned({ url: `${base}/cut`, secrets: [secret()], messageId: randomUUID(), body: '{}', timeoutMs: 20_000, allowPrivateUrls: true, keepBody: true }))
      .toEqual({ failure: 'unreachable' });
  });

  it('connects to the address checked when the runtime asks its lookup for one address, not all', async () => {
    // Node asks for every address (all: true) while it picks among families; without that, one.
    const selecting = getDefaultAutoSelectFamily();
    setDefaultAutoSelectFamily(false);
    try {
      const resolve = answering(['127.0.0.1']);
      const answer = await postSigned({
        url: `http://one.test:${new URL(base).port}/one`, secrets: [secret()], messageId: randomUUID(), body: '{}', timeoutMs: 20_000,
        allowPrivateUrls: true, resolve,
      });
      expect(answer).toMatchObject({ status: 200 });
      expect(received.at(-1)).toMatchObject({ url: '/one', headers: { host: `one.test:${new URL(base).port}` } });
      expect(resolve.asked).toEqual(['one.test']);
    } finally {
      setDefaultAutoSelectFamily(selecting);
    }
  });
});
