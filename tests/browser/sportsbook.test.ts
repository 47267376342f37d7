// The demo sportsbook in a real browser (Debian's Chromium, driven by playwright-core): a test
// session of cgs-sandbox:sportsbook opens it (through the demo game's launch URL), a single and an
// accumulator are placed from its slip through the real provider API, the operator settles a
// fixture, settles the other, then resettles the first against the player with the sandbox
// endpoints; the balance the page shows, the test player's balance, the bets API and the signed
// webhooks the runner delivers all agree. Screenshots go to .tmp/screenshots/.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { verifyWebhook } from '../../sdks/typescript/src/index.ts';
import { describeWithTool } from '../helpers/tools.ts';
import { issueKey, newOperator } from '../helpers/api.ts';
import { type BrowserStack, browserStack, screenshots } from './stack.ts';

let stack: BrowserStack;

async function openSportsbook(launchUrl: string): Promise<Page> {
  const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(launchUrl);
  await page.waitForURL(/\/sportsbook\//);
  await page.getByTestId('balance').filter({ hasText: /\d/ }).waitFor();
  expect(errors).toEqual([]);
  return page;
}

await describeWithTool(['chromium', 'chromium-browser', 'google-chrome'], 'apt-get install chromium', 'the demo sportsbook in a browser', (chromiumPath) => {
  stack = browserStack('demo_sportsbook', chromiumPath);

  it('places a single and an accumulator, settles, resettles against the player: page, balance, bets API and webhooks agree', async () => {
    const operator = await newOperator(stack.owner, 'demo-sportsbook');
    const testKey = (await issueKey(stack.owner, operator.account, 'Sandbox', false)).key;
    await stack.api(testKey, '/sandbox/players', { player_id: 'punter', currency: 'EUR', balance: '100' });
    const endpoint = await stack.api(testKey, '/webhook-endpoints', {
      url: stack.receiverUrl, event_types: ['sportsbook.bet.placed', 'sportsbook.bet.settled', 'sportsbook.bet.resettled'],
    });
    const session = await stack.api(testKey, '/sessions', { player_id: 'punter', game_id: 'cgs-sandbox:sportsbook', currency: 'EUR' });
    expect(session.launch_url.startsWith(`${stack.site.url}/demo/`)).toBe(true);

    const page = await openSportsbook(session.launch_url);
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('100.00 EUR');
    // A single on Northport at 2.10, then an accumulator of Northport and Southgate (4.20): 8.82.
    await page.getByTestId('stake').fill('5.00');
    await page.getByTestId('pick-northport-eastbay-home').click();
    await page.getByTestId('place-singles').click();
    await page.locator('[data-testid=bets] tr').nth(0).waitFor();
    await page.getByTestId('pick-northport-eastbay-home').click();
    await page.getByTestId('pick-westfield-southgate-away').click();
    expect(await page.getByTestId('slip-summary').textContent()).toContain('Accumulator at 8.82 pays 44.10 EUR');
    await page.screenshot({ path: join(screenshots, 'demo-sportsbook-slip.png'), fullPage: true });
    await page.getByTestId('place-acca').click();
    await page.locator('[data-testid=bets] tr').nth(1).waitFor();
    expect(await page.getByTestId('problem').isHidden()).toBe(true);
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('90.00 EUR');
    const placed = await page.locator('[data-testid=bets] tr').evaluateAll((rows) =>
      rows.map((row) => ({ bet_id: (row as HTMLElement).dataset.betId!, kind: row.children[0]!.textContent!, pays: row.children[4]!.textContent! }))
    );
    const single = placed.find((bet) => bet.kind === 'Single')!;
    const acca = placed.find((bet) => bet.kind === 'Accumulator')!;
    expect([single.pays, acca.pays]).toEqual(['10.50', '44.10']);

    const fixture = (id: string, action: string, outcome: string) =>
      stack.api(testKey, `/sandbox/sportsbook/fixtures/${id}/${action}`, { outcome });
    expect((await fixture('northport-eastbay', 'settle', 'home')).bets.map((b: { bet_id: string }) => b.bet_id)).toEqual([single.bet_id]);
    expect((await fixture('westfield-southgate', 'settle', 'away')).bets.map((b: { bet_id: string }) => b.bet_id)).toEqual([acca.bet_id]);
    await page.getByTestId('refresh').click();
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('144.60 EUR');
    // Northport's result is corrected: both bets lose what they were paid.
    const resettled = await fixture('northport-eastbay', 'resettle', 'away');
    expect(resettled.bets.map((b: { bet_id: string; result: string; payout: string }) => `${b.bet_id} ${b.result} ${b.payout}`).sort())
      .toEqual([`${single.bet_id} lost 0.0000`, `${acca.bet_id} lost 0.0000`].sort());
    await page.getByTestId('refresh').click();
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('90.00 EUR');
    await page.screenshot({ path: join(screenshots, 'demo-sportsbook.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(screenshots, 'demo-sportsbook-phone.png'), fullPage: true });

    // The test player's balance: the opening 100 less the stakes plus the final payouts (0 each).
    const { data: [player] } = await stack.api(testKey, '/sandbox/players/punter');
    expect(player.balance).toBe('90.0000');
    const { data: bets } = await stack.api(testKey, '/sportsbook/bets?player_id=punter');
    expect(Object.fromEntries(bets.map((b: Record<string, string>) => [b.bet_id, `${b.status} ${b.result} ${b.stake} ${b.paid}`]))).toEqual({
      [single.bet_id]: 'settled lost 5.0000 0.0000', [acca.bet_id]: 'settled lost 5.0000 0.0000',
    });
    const moved = (bet: { settlements: { moved: string }[] }) => bet.settlements.map((s) => s.moved);
    expect(moved(bets.find((b: { bet_id: string }) => b.bet_id === acca.bet_id))).toEqual(['44.1000', '-44.1000']);

    // Every step reached the webhook receiver, signed: placed, settled, resettled for each bet,
    // each carrying the bet as the bets API showed it then.
    await stack.deliver(6);
    const events = await Promise.all(stack.received.map((r) => verifyWebhook(r.body, r.headers, endpoint.secret)));
    const story = (bet: string) => events
      .filter((e) => (e.data as unknown as { bet_id: string }).bet_id === bet)
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map((e) => `${e.type} ${(e.data as unknown as { payout: string }).payout}`);
    expect(story(single.bet_id)).toEqual(['sportsbook.bet.placed 0.0000', 'sportsbook.bet.settled 10.5000', 'sportsbook.bet.resettled 0.0000']);
    expect(story(acca.bet_id)).toEqual(['sportsbook.bet.placed 0.0000', 'sportsbook.bet.settled 44.1000', 'sportsbook.bet.resettled 0.0000']);
    expect(events.every((e) => e.livemode === false)).toBe(true);
  }, 90_000);
});
