// The reports dashboard in a real browser (Debian's Chromium, driven by playwright-core), as npm
// start serves it: an operator plays test rounds, opens /dashboard/ with its test key, and the
// charts, the top games and the totals say what GET /v3/reports/ggr says; a day's reconciliation
// downloads as the same bytes GET /v3/reconciliation/transactions streams; a refused key is shown
// in the problem's words; nothing is loaded from outside the site.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeWithTool } from '../helpers/tools.ts';
import { issueKey, newOperator } from '../helpers/api.ts';
import { type BrowserStack, browserStack, screenshots } from './stack.ts';

const SANDBOX_PROVIDER_KEY = 'cgs_prov_SANDBOX-demo-game-public-key-test-only-0000';
let stack: BrowserStack;

/** One round of a test session: a bet and the win that closes it. */
async function round(token: string, bet: string, win: string) {
  const round = randomUUID();
  for (const [path, amount, extra] of [['bets', bet, {}], ['wins', win, { round_closed: true }]] as const) {
    const response = await fetch(`${stack.served.url}/v3/provider/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_PROVIDER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ session_token: token, transaction_id: randomUUID(), round_id: round, amount, ...extra }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  }
}

await describeWithTool(['chromium', 'chromium-browser', 'google-chrome'], 'apt-get install chromium', 'the reports dashboard in a browser', (chromiumPath) => {
  stack = browserStack('dashboard', chromiumPath);

  it('charts daily GGR and turnover, the top games and the totals as the report says, and downloads the day\'s reconciliation', async () => {
    const operator = await newOperator(stack.owner, 'dashboard');
    const key = (await issueKey(stack.owner, operator.account, 'Sandbox', false)).key;
    await stack.api(key, '/sandbox/players', { player_id: 'player-dash', currency: 'EUR', balance: '100' });
    const token = async (game: string) => new URL((await stack.api(key, '/sessions', {
      player_id: 'player-dash', game_id: `cgs-sandbox:${game}`, currency: 'EUR',
    })).launch_url).searchParams.get('token')!;
    const [sevens, fruit] = [await token('lucky-sevens'), await token('fruit-stand')];
    await round(sevens, '2', '5');
    await round(sevens, '1', '0');
    await round(fruit, '4', '0.5');
    const today = new Date().toISOString().slice(0, 10);

    const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const outside: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(stack.site.url) && !request.url().startsWith('blob:')) outside.push(request.url());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${stack.site.url}/dashboard/`);
    await page.getByTestId('key').fill(key);
    await page.getByTestId('show').click();
    await page.getByTestId('daily-EUR').waitFor();

    // The charts plot what the report holds, day by day over the 30 days shown.
    const report = await stack.api(key, `/reports/ggr?from=${await page.getByTestId('from').inputValue()}&to=${today}&group_by=day,currency`);
    const plotted = await page.evaluate(() => {
      const chart = (id: string) => (globalThis as unknown as { Chart: { getChart: (c: Element) => { data: { labels: string[]; datasets: { label: string; data: number[] }[] } } } })
        .Chart.getChart(document.querySelector(`[data-testid=${id}] canvas`)!);
      const { labels, datasets } = chart('daily-EUR').data;
      return { labels, series: Object.fromEntries(datasets.map((d) => [d.label, d.data])) };
    });
    expect(plotted.labels).toHaveLength(30);
    expect(plotted.labels.at(-1)).toBe(today);
    const cell = report.data.find((c: { day: string }) => c.day === today);
    expect(cell).toMatchObject({ bets: '7.0000', wins: '5.5000', ggr: '1.5000', rounds: 3 });
    expect(plotted.series['Turnover (bets)'].at(-1)).toBe(7);
    expect(plotted.series.GGR.at(-1)).toBe(1.5);
    expect(plotted.series.GGR.slice(0, -1).every((v: number) => v === 0)).toBe(true);

    // The top games by turnover, with the report's exact amounts.
    const games = await page.locator('[data-testid=games-EUR] tbody tr').allInnerTexts();
    expect(games.map((row) => row.split('\t'))).toEqual([
      ['cgs-sandbox:fruit-stand', '4.0000', '3.5000', '1'],
      ['cgs-sandbox:lucky-sevens', '3.0000', '-2.0000', '2'],
    ]);
    const totals = await page.locator('[data-testid=totals] tbody tr').allInnerTexts();
    const t = report.totals[0];
    expect(totals).toEqual([[t.currency, t.bets, t.wins, t.rolled_back, t.voided, t.free_round_wins, t.ggr, t.rounds, t.players].join('\t')]);
    await page.screenshot({ path: join(screenshots, 'dashboard-desktop.png'), fullPage: true });

    // The day's reconciliation: the same file the API streams.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download').click()]);
    expect(download.suggestedFilename()).toBe(`reconciliation-${today}.csv`);
    const file = await readFile((await download.path())!);
    expect(file.equals(await stack.csv(key, `/reconciliation/transactions?date=${today}`))).toBe(true);
    expect(file.toString('utf8').trim().split('\r\n')).toHaveLength(1 + 6);

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a refused key in the problem\'s own words, and draws nothing', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${stack.site.url}/dashboard/`);
    await page.getByTestId('key').fill('cgs_test_not-a-key-000000000000000000000000000000000');
    await page.getByTestId('show').click();
    await expect.poll(() => page.getByTestId('status').textContent()).toMatch(/^401 /);
    expect(await page.getByTestId('status').getAttribute('class')).toContain('error');
    expect(await page.getByTestId('report').isHidden()).toBe(true);
    await page.screenshot({ path: join(screenshots, 'dashboard-phone.png'), fullPage: true });
    await page.close();
  });
});
