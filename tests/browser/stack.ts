// What the browser tests run against, as npm start serves it: the static pages (the demo game at
// /demo/, and whatever else is mounted), the v3 function under Deno on a database of its own (its
// delivery runner must not send other files' events) with DEMO_GAME_URL pointing at the demo game,
// Chromium, and a webhook receiver that keeps every delivery with its headers.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { Sql } from 'postgres';
import { afterAll, beforeAll } from 'vitest';
import { paths } from '../../scripts/lib/database.ts';
import { serveFunction, type ServedFunction } from '../../scripts/lib/deno-function.ts';
import { freePort } from '../../scripts/lib/embedded-postgres.ts';
import { sandboxPages, serveStatic, type StaticSite } from '../../scripts/lib/static-site.ts';
import { runDeliveries } from '../../supabase/functions/deliver/deliveries.ts';
import { isolatedDatabase } from '../helpers/api.ts';

export const screenshots = join(paths.root, '.tmp/screenshots');

export interface Received {
  body: string;
  headers: Record<string, string>;
}

export interface BrowserStack {
  owner: Sql;
  site: StaticSite;
  served: ServedFunction;
  browser: Browser;
  /** The receiver's URL, for a webhook endpoint. */
  receiverUrl: string;
  received: Received[];
  /** Runs the delivery runner until the receiver holds `count` deliveries (or gives up). */
  deliver: (count: number) => Promise<void>;
  /** The API as an operator calls it (a POST with `body`): the JSON answer; throws on anything but 2xx. */
  api: (key: string, path: string, body?: unknown) => Promise<any>;
  /** A GET answered as CSV: its bytes (text() would drop the byte-order mark); throws on anything but 2xx. */
  csv: (key: string, path: string) => Promise<Buffer>;
}

/** A call to the stack's function with an operator's key; throws on anything but 2xx. */
async function operatorCall(stack: BrowserStack, key: string, path: string, body: unknown, accept: string): Promise<Response> {
  const response = await fetch(`${stack.served.url}/v3${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response;
}

/**
 * Spins the demo game on `page` until it has both won and lost (at most 60 spins), each spin's
 * history row written and the button enabled again; returns how many spins it took and the outcomes.
 */
export async function spinUntilWinAndLoss(page: Page): Promise<{ spins: number; outcomes: string[] }> {
  const outcomes = new Set<string>();
  let spins = 0;
  while (spins < 60 && outcomes.size < 2) {
    spins++;
    await page.getByTestId('spin').click();
    await page.locator('[data-testid=history] tr').nth(spins - 1).waitFor();
    await page.getByTestId('spin').and(page.locator(':enabled')).waitFor();
    outcomes.add((await page.locator('[data-testid=history] tr').first().getAttribute('class'))!);
  }
  return { spins, outcomes: [...outcomes].sort() };
}

/** Starts it all before the file's tests (`before` first, e.g. a build) and stops it after. */
export function browserStack(
  name: string, chromiumPath: string, mounts: () => Promise<Record<string, string>> = async () => ({}),
): BrowserStack {
  const stack = { received: [] as Received[] } as BrowserStack;
  stack.api = async (key, path, body) => (await operatorCall(stack, key, path, body, 'application/json')).json();
  stack.csv = async (key, path) => Buffer.from(await (await operatorCall(stack, key, path, undefined, 'text/csv')).arrayBuffer());
  const receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => {
      stack.received.push({ body, headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])) });
      res.writeHead(204).end();
    });
  });
  let denoDir: string | undefined;
  beforeAll(async () => {
    const [extra, database] = await Promise.all([mounts(), isolatedDatabase(name)]);
    stack.owner = database.owner;
    denoDir = await mkdtemp(join(tmpdir(), 'cgs-deno-'));
    const port = await freePort();
    const functionUrl = `http://127.0.0.1:${port}/functions/v1`;
    stack.site = await serveStatic({ ...sandboxPages(paths.root), ...extra }, 0, { '/api/': `${functionUrl}/` });
    [stack.served, stack.browser] = await Promise.all([
      serveFunction({
        databaseUrl: database.url, port,
        env: { DENO_DIR: denoDir, ALLOW_PRIVATE_URLS: 'true', DEMO_GAME_URL: `${stack.site.url}/demo/?api=${functionUrl}/v3` },
      }),
      chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] }),
      new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve)),
      mkdir(screenshots, { recursive: true }),
    ]);
    stack.receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    stack.deliver = async (count) => {
      for (let tries = 0; stack.received.length < count && tries < 50; tries++) {
        await runDeliveries(stack.owner, { allowPrivateUrls: true });
      }
    };
  }, 300_000);
  afterAll(async () => {
    await stack.browser?.close();
    await stack.served?.stop();
    await stack.site?.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    if (denoDir) await rm(denoDir, { recursive: true, force: true });
  });
  return stack;
}
