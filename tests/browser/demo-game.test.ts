// The demo game in a real browser (Debian's Chromium, driven by playwright-core): a test session's
// launch URL opens it, it spins through the real provider API until a win and a loss, and what it
// shows agrees with the rounds the operator reads, the test player's balance and the webhooks the
// runner delivers. Under a jurisdiction it honours the token's rules and shows reality checks.
// Screenshots at desktop and phone widths go to .tmp/screenshots/ to be looked at.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { verifyWebhook } from '../../sdks/typescript/src/index.ts';
import { describeWithTool } from '../helpers/tools.ts';
import { issueKey, newOperator } from '../helpers/api.ts';
import { type BrowserStack, browserStack, screenshots, spinUntilWinAndLoss } from './stack.ts';

const SANDBOX_PROVIDER_KEY = 'cgs_prov_SANDBOX-demo-game-public-key-test-only-0000';
let stack: BrowserStack;

async function openGame(launchUrl: string, fakeClock = false): Promise<Page> {
  const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  if (fakeClock) await page.clock.install();
  await page.goto(launchUrl);
  await page.getByTestId('balance').filter({ hasText: /\d/ }).waitFor();
  expect(errors).toEqual([]);
  return page;
}

await describeWithTool(['chromium', 'chromium-browser', 'google-chrome'], 'apt-get install chromium', 'the demo game in a browser', (chromiumPath) => {
  stack = browserStack('demo_game', chromiumPath);

  it('shows the whole "TEST MODE" ribbon at desktop and phone widths, 1200 px among them', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${stack.site.url}/demo/`);
    for (const width of [1200, 1280, 1920, 390]) {
      await page.setViewportSize({ width, height: 800 });
      // The text's own box (not the band's, whose ends run off the corner on purpose).
      const text = await page.locator('.ribbon').evaluate((ribbon) => {
        const range = document.createRange();
        range.selectNodeContents(ribbon);
        const { left, right, top, bottom } = range.getBoundingClientRect();
        return { text: ribbon.textContent, left, right, top, bottom, width: innerWidth, height: innerHeight };
      });
      expect(text.text).toBe('TEST MODE');
      expect(text.top, `${width} px`).toBeGreaterThanOrEqual(4);
      expect(text.left, `${width} px`).toBeGreaterThanOrEqual(4);
      expect(text.right, `${width} px`).toBeLessThanOrEqual(text.width - 4);
      expect(text.bottom, `${width} px`).toBeLessThanOrEqual(text.height - 4);
      if (width === 1200) await page.screenshot({ path: join(screenshots, 'demo-game-1200.png') });
    }
    await page.close();
  });

  it('spins until a win and a loss; the rounds, the balance and the webhooks say the same', async () => {
    const operator = await newOperator(stack.owner, 'demo-game');
    const testKey = (await issueKey(stack.owner, operator.account, 'Sandbox', false)).key;
    await stack.api(testKey, '/sandbox/players', { player_id: 'player-demo', currency: 'EUR', balance: '100' });
    const endpoint = await stack.api(testKey, '/webhook-endpoints', {
      url: stack.receiverUrl, event_types: ['round.closed'],
    });
    const session = await stack.api(testKey, '/sessions', { player_id: 'player-demo', game_id: 'cgs-sandbox:lucky-sevens', currency: 'EUR' });
    expect(session.launch_url.startsWith(`${stack.site.url}/demo/`)).toBe(true);

    const page = await openGame(session.launch_url);
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('100.00 EUR');
    expect((await spinUntilWinAndLoss(page)).outcomes).toEqual(['lost', 'won']);
    expect(await page.getByTestId('problem').isHidden()).toBe(true);
    await page.screenshot({ path: join(screenshots, 'demo-game-desktop.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(screenshots, 'demo-game-phone.png'), fullPage: true });

    const played = await page.locator('[data-testid=history] tr').evaluateAll((rows) =>
      rows.map((row) => ({ round_id: (row as HTMLElement).dataset.roundId!, bet: row.children[2]!.textContent!, win: row.children[3]!.textContent! }))
    );
    const { data: rounds } = await stack.api(testKey, `/rounds?session_id=${session.id}&limit=100`);
    const shown = (amount: string) => Number(amount).toFixed(2);
    expect(rounds.map((r: Record<string, string>) => ({ round_id: r.round_id, bet: shown(r.total_bet), win: shown(r.total_win), status: r.status })))
      .toEqual(played.map((p) => ({ ...p, status: 'closed' })));

    // The test player's balance: what the game shows, and the opening balance less bets plus wins.
    const balance = await fetch(`${stack.served.url}/v3/provider/balance?session_token=${new URL(session.launch_url).searchParams.get('token')}`, {
      headers: { authorization: `Bearer ${SANDBOX_PROVIDER_KEY}` },
    }).then((r) => r.json());
    const net = rounds.reduce((sum: number, r: Record<string, string>) => sum + Math.round((Number(r.total_win) - Number(r.total_bet)) * 10_000), 0);
    expect(Math.round(Number(balance.balance) * 10_000)).toBe(1_000_000 + net);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.getByTestId('balance').textContent()).toBe(`${Number(balance.balance).toFixed(2)} EUR`);

    // Live keys see none of it.
    expect((await stack.api(operator.key, `/rounds?session_id=${session.id}`)).data).toEqual([]);

    // Every round reached the webhook receiver, signed.
    await stack.deliver(played.length);
    const events = await Promise.all(stack.received.map((r) => verifyWebhook(r.body, r.headers, endpoint.secret)));
    expect(events.every((e) => e.type === 'round.closed' && e.livemode === false)).toBe(true);
    expect(events.map((e) => (e.data as unknown as { round_id: string }).round_id).sort()).toEqual(played.map((p) => p.round_id).sort());
  }, 90_000);

  it('plays a grant of free spins to its end: "free spins: N left", the credited total, the grant\'s state and its events', async () => {
    const operator = await newOperator(stack.owner, 'demo-game-free-spins');
    const testKey = (await issueKey(stack.owner, operator.account, 'Sandbox', false)).key;
    await stack.api(testKey, '/sandbox/players', { player_id: 'player-free', currency: 'EUR', balance: '10' });
    const endpoint = await stack.api(testKey, '/webhook-endpoints', {
      url: stack.receiverUrl, event_types: ['free_rounds.grant.started', 'free_rounds.grant.completed'],
    });
    const campaign = await stack.api(testKey, '/free-rounds/campaigns', {
      external_id: 'demo-free-spins', name: 'Demo free spins', game_ids: ['cgs-sandbox:lucky-sevens'], currency: 'EUR',
      bet_amount: '0.50', rounds: 3, valid_until: new Date(Date.now() + 86_400_000).toISOString(), player_ids: ['player-free'],
    });
    const session = await stack.api(testKey, '/sessions', { player_id: 'player-free', game_id: 'cgs-sandbox:lucky-sevens', currency: 'EUR' });
    const page = await openGame(session.launch_url);
    await page.getByTestId('free-spins').filter({ hasText: 'free spins: 3 left' }).waitFor();
    await page.screenshot({ path: join(screenshots, 'demo-game-free-spins.png') });
    for (let n = 1; n <= 3; n++) {
      await page.getByTestId('spin').click();
      await page.locator('[data-testid=history] tr').nth(n - 1).waitFor();
      await page.getByTestId('spin').and(page.locator(':enabled')).waitFor();
      if (n < 3) expect(await page.getByTestId('free-spins').textContent()).toContain(`free spins: ${3 - n} left`);
    }
    expect(await page.getByTestId('free-spins').isHidden()).toBe(true);
    expect(await page.getByTestId('problem').isHidden()).toBe(true);
    const rows = await page.locator('[data-testid=history] tr').evaluateAll((all) =>
      all.map((row) => ({ free: (row as HTMLElement).dataset.free, bet: row.children[2]!.textContent!, win: row.children[3]!.textContent! }))
    );
    expect(rows.map((r) => [r.free, r.bet])).toEqual([['true', 'free 0.50'], ['true', 'free 0.50'], ['true', 'free 0.50']]);
    const won = rows.reduce((sum, r) => sum + Math.round(Number(r.win) * 100), 0);

    // The grant: played to its end, and what it paid is what the game showed won, credited to the
    // test player, who paid nothing for the spins.
    const { data: [grant] } = await stack.api(testKey, `/free-rounds/grants?campaign_id=${campaign.id}`);
    expect(grant).toMatchObject({ status: 'completed', rounds_used: 3, rounds_left: 0, game_id: 'cgs-sandbox:lucky-sevens' });
    expect(Math.round(Number(grant.total_win) * 100)).toBe(won);
    expect(await page.getByTestId('balance').textContent()).toBe(`${((1000 + won) / 100).toFixed(2)} EUR`);
    const { data: [player] } = await stack.api(testKey, '/sandbox/players/player-free');
    expect(Math.round(Number(player.balance) * 100)).toBe(1000 + won);

    // Its events, delivered and signed: started, then completed.
    const before = stack.received.length;
    await stack.deliver(before + 2);
    const mine = (await Promise.all(stack.received.map((r) => verifyWebhook(r.body, r.headers, endpoint.secret).catch(() => null))))
      .filter((e) => e !== null && (e.data as unknown as { id: string }).id === grant.id);
    expect(mine.map((e) => e!.type)).toEqual(['free_rounds.grant.started', 'free_rounds.grant.completed']);
    await page.close();
  }, 90_000);

  it('shows a refused bet as refused, and rolls back a bet whose fate it cannot know', async () => {
    const operator = await newOperator(stack.owner, 'demo-game-refusals');
    const testKey = (await issueKey(stack.owner, operator.account, 'Sandbox', false)).key;
    const launch = async (player: string, balance: string, behaviour: string) => {
      await stack.api(testKey, '/sandbox/players', { player_id: player, currency: 'EUR', balance, behaviour });
      return (await stack.api(testKey, '/sessions', { player_id: player, game_id: 'cgs-sandbox:lucky-sevens', currency: 'EUR' })).launch_url;
    };
    // Too little money: the platform's refusal, read across origins, and nothing played.
    const poor = await openGame(await launch('player-poor', '0.50', 'normal'));
    await poor.getByTestId('spin').click();
    await poor.getByTestId('problem').filter({ hasText: 'insufficient_funds' }).waitFor();
    expect(await poor.locator('[data-testid=history] tr').count()).toBe(0);
    expect(await poor.getByTestId('balance').textContent()).toBe('0.50 EUR');

    // A wallet that fails: a 502 leaves the bet's fate unknown to a game, which rolls it back.
    const failing = await openGame(await launch('player-failing', '20', 'failing_wallet'));
    await failing.getByTestId('spin').click();
    await failing.getByTestId('problem').filter({ hasText: 'wallet_failed' }).waitFor();
    const row = failing.locator('[data-testid=history] tr').first();
    expect(await row.getAttribute('class')).toBe('cancelled');
    expect(await row.textContent()).toContain('rolled back');
    expect(await failing.getByTestId('balance').textContent()).toBe('20.00 EUR');
    await poor.close();
    await failing.close();
  }, 60_000);

  it('honours the jurisdiction: its maximum stake, session time and net position, and reality checks', async () => {
    const operator = await newOperator(stack.owner, 'demo-game-gb');
    await stack.owner`insert into public.client_jurisdiction (client_id, jurisdiction_code) values (${operator.account.id}, 'GB')`;
    const testKey = (await issueKey(stack.owner, operator.account, 'Sandbox', false)).key;
    await stack.api(testKey, '/sandbox/players', { player_id: 'player-gb', currency: 'GBP', balance: '50' });
    const session = await stack.api(testKey, '/sessions', {
      player_id: 'player-gb', game_id: 'cgs-sandbox:fruit-stand', currency: 'GBP',
      jurisdiction: 'GB', country: 'GB', kyc_status: 'verified', reality_check_minutes: 1,
    });
    const page = await openGame(session.launch_url, true);
    expect(await page.locator('h1').textContent()).toBe('Fruit Stand');
    // GB: at most 5 GBP a spin; session time and net position on screen.
    const options = await page.locator('[data-testid=bet-size] option').evaluateAll((all) =>
      all.map((o) => ({ value: (o as HTMLOptionElement).value, disabled: (o as HTMLOptionElement).disabled }))
    );
    expect(options.filter((o) => !o.disabled).map((o) => o.value)).toEqual(['0.10', '0.20', '0.50', '1.00', '2.00', '5.00']);
    expect(options.filter((o) => o.disabled).map((o) => o.value)).toEqual(['10.00', '25.00']);
    expect(await page.getByTestId('net').isVisible()).toBe(true);
    expect(await page.getByTestId('elapsed').isVisible()).toBe(true);
    expect(await page.getByTestId('session-info').textContent()).toContain('Jurisdiction: GB');

    await page.clock.fastForward('01:01');
    await page.getByTestId('reality-check').waitFor();
    expect(await page.getByTestId('reality-check').textContent()).toContain('You have been playing for 1 minute');
    expect(await page.getByTestId('spin').isDisabled()).toBe(true);
    await page.screenshot({ path: join(screenshots, 'demo-game-reality-check.png') });
    await page.getByTestId('reality-continue').click();
    expect(await page.getByTestId('spin').isEnabled()).toBe(true);
  }, 60_000);
});
