// The developer portal in a real browser (Debian's Chromium, driven by playwright-core), served as
// npm start serves it (beside the demo game), with the real function under Deno behind it. A new
// operator follows the quickstart with the page's own code blocks, run as they are (curl, in sh)
// with its own test key: a test player, a webhook endpoint, a session; the session's launch URL
// opens the demo game, which spins until a win and a loss; the rounds block lists them, and every
// round.closed delivery verifies with the TypeScript SDK. The API reference renders the operations.
// Nothing is loaded from outside the site. Screenshots of the home page, the quickstart and the API
// reference at desktop (1280) and phone (390) widths go to .tmp/screenshots/ to be looked at.
import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { verifyWebhook } from '../../sdks/typescript/src/index.ts';
import { freePort } from '../../scripts/lib/embedded-postgres.ts';
import { builtPortal } from '../portal/built-portal.ts';
import { describeWithTool, which } from '../helpers/tools.ts';
import { issueKey } from '../helpers/api.ts';
import { signUp } from '../helpers/db.ts';
import { type BrowserStack, browserStack, screenshots, spinUntilWinAndLoss } from './stack.ts';

const run = promisify(execFile);
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let stack: BrowserStack;
let portalDir: string;

/** A page that records every request leaving `allowed` origins (and refuses it), and every error. */
async function openPage(viewport: { width: number; height: number }, allowed: string[] = [stack.site.url]) {
  const page = await stack.browser.newPage({ viewport });
  const outside: string[] = [];
  const errors: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (allowed.some((origin) => url.startsWith(`${origin}/`) || url === origin)) return route.continue();
    outside.push(url);
    return route.abort();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return { page, outside, errors };
}

/** How far the page is wider than the window (0: no sideways scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The code blocks of the page, as the copy button copies them. */
const codeBlocks = (page: Page) => page.locator('.vp-doc div[class*="language-"] pre code').allTextContents();

/** The one block containing `needle`. */
function codeBlock(blocks: string[], needle: string): string {
  const found = blocks.filter((b) => b.includes(needle));
  expect(found, `one code block with ${needle}`).toHaveLength(1);
  return found[0]!;
}

/** Runs a block as a reader would paste it into sh, with the variables the quickstart set. */
async function shell(block: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run('sh', ['-c', block], { env: { ...process.env, ...env }, timeout: 30_000 });
  return stdout;
}

await describeWithTool(['chromium', 'chromium-browser', 'google-chrome'], 'apt-get install chromium', 'the developer portal in a browser', (chromiumPath) => {
  // As npm start serves them: the demo game at /demo/, the portal at the root.
  stack = browserStack('portal', chromiumPath, async () => {
    const portal = await builtPortal();
    expect(portal.ok, portal.output).toBe(true);
    portalDir = portal.dir;
    return { '/': portal.dir };
  });

  it('shows the home page and the quickstart, finished at desktop and phone widths, with nothing from outside', async () => {
    for (const [width, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const { page, outside, errors } = await openPage(viewport);
      await page.goto(`${stack.site.url}/`);
      await page.getByRole('link', { name: 'Quickstart' }).first().waitFor();
      expect(await page.locator('h1').first().textContent()).toContain('Casino Gaming Integration Service');
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(screenshots, `portal-home-${width}.png`), fullPage: true });
      // The quickstart, reached as a reader would.
      await page.getByRole('link', { name: 'Quickstart' }).first().click();
      await page.waitForURL(/\/quickstart\.html$/);
      await page.getByRole('heading', { name: '5. A session' }).waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(screenshots, `portal-quickstart-${width}.png`), fullPage: true });
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('follows the quickstart: a test player, a webhook endpoint, a session, the demo game, its rounds and signed webhooks', async (context) => {
    if (!(await which('curl'))) {
      console.warn('SKIPPED following the quickstart: curl is not installed (apt-get install curl).');
      context.skip();
    }
    const { page, outside, errors } = await openPage(DESKTOP, [stack.site.url, stack.served.url.replace(/\/functions\/v1$/, '')]);
    await page.goto(`${stack.site.url}/quickstart.html`);
    const quickstart = (await page.locator('.vp-doc').textContent())!;
    const blocks = await codeBlocks(page);

    // Step 2 sets API and KEY: the local API and the demo test key. A new operator uses its own.
    const setup = codeBlock(blocks, 'API=');
    expect(setup).toMatch(/^API=http:\/\/127\.0\.0\.1:54321\/functions\/v1\/v3$/m);
    expect(setup).toMatch(/^KEY=cgs_test_DEMO-key-for-local-use-only-0{15}\b/m);
    const operator = await signUp(stack.owner, 'portal-quickstart');
    const env = { API: `${stack.served.url}/v3`, KEY: (await issueKey(stack.owner, operator, 'Sandbox', false)).key };

    // Step 3: the test player.
    const player = JSON.parse(await shell(codeBlock(blocks, '$API/sandbox/players'), env));
    expect(player).toMatchObject({ player_id: 'player-1', currency: 'EUR', livemode: false });
    expect(Number(player.balance)).toBe(1000);

    // Step 4: the receiver the quickstart starts answers and prints a delivery...
    const receiverBlock = codeBlock(blocks, 'createServer');
    expect(receiverBlock).toContain('.listen(8787)');
    const quickPort = await freePort();
    const child = spawn('sh', ['-c', `exec ${receiverBlock.replace('.listen(8787)', `.listen(${quickPort})`)}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let printed = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk) => (printed += chunk));
      let answer: Response | null = null;
      for (let tries = 0; !answer && tries < 100; tries++) {
        answer = await fetch(`http://127.0.0.1:${quickPort}/`, { method: 'POST', headers: { 'webhook-id': 'msg_quickstart' }, body: '{"type":"round.closed"}' })
          .catch(async () => (await new Promise((resolve) => setTimeout(resolve, 100)), null));
      }
      expect(answer?.status).toBe(204);
      await expect.poll(() => printed).toContain('msg_quickstart {"type":"round.closed"}');
    } finally {
      child.kill();
    }
    // ...and the endpoint is registered as it says (pointing at this test's receiver, which keeps headers).
    const endpointBlock = codeBlock(blocks, '$API/webhook-endpoints');
    expect(endpointBlock).toContain('"url":"http://127.0.0.1:8787/"');
    const receiverUrl = stack.receiverUrl;
    const endpoint = JSON.parse(await shell(endpointBlock.replace('http://127.0.0.1:8787/', receiverUrl), env));
    expect(endpoint).toMatchObject({ url: receiverUrl, event_types: ['round.closed'], livemode: false });
    expect(endpoint.secret).toMatch(/^whsec_/);

    // Step 5: the session, of the demo game.
    const session = JSON.parse(await shell(codeBlock(blocks, '$API/sessions'), env));
    expect(session).toMatchObject({ player_id: 'player-1', game_id: 'cgs-sandbox:lucky-sevens', currency: 'EUR', status: 'created', livemode: false });
    expect(session.launch_url.startsWith(`${stack.site.url}/demo/`)).toBe(true);

    // Step 6: its launch URL opens the demo game with the balance the quickstart says; spin until a win and a loss.
    await page.goto(session.launch_url);
    await page.getByTestId('balance').filter({ hasText: /\d/ }).waitFor();
    const balance = (await page.getByTestId('balance').textContent())!;
    expect(balance).toBe('1000.00 EUR');
    expect(quickstart).toContain(balance);
    const { spins, outcomes } = await spinUntilWinAndLoss(page);
    expect(outcomes).toEqual(['lost', 'won']);
    expect(await page.getByTestId('problem').isHidden()).toBe(true);

    // Step 7: the rounds block lists every spin, closed.
    const rounds = JSON.parse(await shell(codeBlock(blocks, '$API/rounds'), { ...env, SESSION: session.id }));
    expect(rounds.data).toHaveLength(spins);
    expect(rounds.data.every((r: { status: string }) => r.status === 'closed')).toBe(true);

    // Every round reached the endpoint, signed with the secret its creation answered.
    await stack.deliver(spins);
    const events = await Promise.all(stack.received.map((r) => verifyWebhook(r.body, r.headers, endpoint.secret)));
    expect(events.map((e) => e.type)).toEqual(Array(spins).fill('round.closed'));
    expect(events.map((e) => (e.data as unknown as { round_id: string }).round_id).sort())
      .toEqual(rounds.data.map((r: { round_id: string }) => r.round_id).sort());
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('renders the API reference from the OpenAPI document, offline, at desktop and phone widths', async () => {
    const document = JSON.parse(await readFile(join(portalDir, 'downloads/openapi.json'), 'utf8'));
    const tags: string[] = document.tags.map((t: { name: string }) => t.name);
    const sessionOperations: string[] = Object.values<Record<string, { tags?: string[]; summary: string }>>(document.paths)
      .flatMap((item) => Object.values(item)).filter((o) => o.tags?.includes('sessions')).map((o) => o.summary);
    for (const [width, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const { page, outside, errors } = await openPage(viewport);
      await page.goto(`${stack.site.url}/api-reference.html`);
      await page.getByRole('heading', { name: document.info.title }).waitFor({ timeout: 30_000 });
      const sidebar = (await page.locator('body').textContent())!;
      for (const name of [...tags, ...sessionOperations]) expect(sidebar).toContain(name);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      if (width === 'desktop') {
        // An operation as Scalar renders it: its summary, its operationId, its path.
        await page.getByText('Create a game session').first().click();
        await page.getByText('createSession', { exact: true }).waitFor();
        await page.getByRole('heading', { name: 'Create a game session' }).waitFor();
      }
      await page.screenshot({ path: join(screenshots, `portal-api-reference-${width}.png`) });
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }
  }, 90_000);
});
