// What every SDK's own test suite (go test, pytest, vitest) runs against: the v3 function under real
// Deno on a database of its own (its delivery runner must not send other files' events), a live
// and a test key, the same function over an unreachable database (every call a retryable 503), and
// messages the platform really signed: a webhook delivery from the runner, one sent during a secret
// rotation (two signatures), and a seamless wallet call. The suites read it all from the
// environment (`CGS_*`, described by SdkEnvironment), so they also run by hand against any server.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { serveFunction, type ServedFunction } from '../../scripts/lib/deno-function.ts';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { serveWithoutDatabase } from '../openapi/served-api.ts';
import { issueKey, isolatedDatabase, newOperator } from '../helpers/api.ts';

/** A message as the receiver got it: the exact body, the three Standard Webhooks headers. */
interface Captured {
  body: string;
  headers: Record<string, string>;
}

const signatureHeaders = (headers: IncomingHttpHeaders) => ({
  'webhook-id': String(headers['webhook-id']),
  'webhook-timestamp': String(headers['webhook-timestamp']),
  'webhook-signature': String(headers['webhook-signature']),
});

/** A local receiver keeping every POST, answering 200 with `answer`. */
async function receiver(answer: string) {
  const got: Captured[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => {
      got.push({ body, headers: signatureHeaders(req.headers) });
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    got,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

export interface SdkEnvironment {
  /** The server URL the OpenAPI document names ({url}/v3/sessions). */
  CGS_API_URL: string;
  CGS_LIVE_KEY: string;
  CGS_TEST_KEY: string;
  /** The same function over a database it cannot reach. */
  CGS_UNAVAILABLE_URL: string;
  /** A JSON file: { webhook, rotated, wallet_call }, each { secret(s), headers, body }. */
  CGS_SIGNED_MESSAGES: string;
}

/** Serves the function and records the signed messages once for this test file. */
export function sdkEnvironment(name: string): SdkEnvironment {
  const environment = {} as SdkEnvironment;
  const stops: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    const { owner, url } = await isolatedDatabase(`sdk_${name}`);
    const folder = await mkdtemp(join(tmpdir(), `cgs-sdk-${name}-`));
    stops.push(() => rm(folder, { recursive: true, force: true }));
    const [served, unavailable, operator] = await Promise.all([
      serveFunction({ databaseUrl: url, env: { DENO_DIR: join(folder, 'deno'), ALLOW_PRIVATE_URLS: 'true' } }),
      serveWithoutDatabase(),
      newOperator(owner, `sdk-${name}`),
    ]);
    stops.push(() => served.stop(), () => unavailable.stop());
    const testKey = (await issueKey(owner, operator.account, 'Sandbox', false)).key;
    const call = (path: string, init: { method?: string; key?: string; body?: unknown } = {}) =>
      fetch(`${served.url}${path}`, {
        method: init.method ?? (init.body ? 'POST' : 'GET'),
        headers: { authorization: `Bearer ${init.key ?? operator.key}`, 'content-type': 'application/json' },
        body: init.body ? JSON.stringify(init.body) : undefined,
      }).then(async (response) => {
        const body = await response.json();
        if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
        return body;
      });

    // A webhook delivery from the runner, then another after a rotation: signed with both secrets.
    const hooks = await receiver('{}');
    stops.push(hooks.close);
    const endpoint = await call('/v3/webhook-endpoints', { body: { url: hooks.url, event_types: ['session.created'] } });
    const deliver = async (count: number) => {
      while (hooks.got.length < count) await runDeliveries(owner, { allowPrivateUrls: true });
    };
    const session = { player_id: 'player-sdk', game_id: 'pragmatic-play:vs20olympgate', currency: 'EUR' };
    await call('/v3/sessions', { body: session });
    await deliver(1);
    const rotated = await call(`/v3/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: 'POST' });
    await call('/v3/sessions', { body: session });
    await deliver(2);

    // A seamless wallet call, as the wallet self-check sends it to the test wallet.
    const wallet = await receiver('{"balance":"100.0000"}');
    stops.push(wallet.close);
    const settings = await call('/v3/wallet-settings', { method: 'PUT', key: testKey, body: { mode: 'seamless', url: wallet.url } });
    await call('/v3/sandbox/wallet-checks', { key: testKey, body: { player_id: 'player-1', currency: 'EUR' } });

    const messages = join(folder, 'signed-messages.json');
    await writeFile(messages, JSON.stringify({
      webhook: { secret: endpoint.secret, ...hooks.got[0] },
      rotated: { secrets: [endpoint.secret, rotated.secret], ...hooks.got[1] },
      wallet_call: { secret: settings.secret, ...wallet.got[0] },
    }, null, 2));
    Object.assign(environment, {
      CGS_API_URL: served.url,
      CGS_LIVE_KEY: operator.key,
      CGS_TEST_KEY: testKey,
      CGS_UNAVAILABLE_URL: unavailable.url,
      CGS_SIGNED_MESSAGES: messages,
    } satisfies SdkEnvironment);
  }, 120_000);
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });
  return environment;
}

export { describeWithTool } from '../helpers/tools.ts';
