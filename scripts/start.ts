// npm start: the service on its embedded default (or DATABASE_URL), migrated, seeded when new,
// the v3 Edge Function served under Deno at http://127.0.0.1:${PORT:-54321}/functions/v1/v3, and
// the static pages (the demo game, the developer portal once built) at http://127.0.0.1:${SITE_PORT:-54323}.
import { existsSync } from 'node:fs';
import postgres from 'postgres';
import { connectDatabase } from '../supabase/functions/_shared/database.ts';
import { drainDeliveries } from '../supabase/functions/deliver/deliveries.ts';
import { booleanSetting } from '../supabase/functions/_shared/settings.ts';
import { sha256Hex } from '../supabase/functions/v3/sha256.ts';
import { paths, prepareDatabase } from './lib/database.ts';
import { serveFunction } from './lib/deno-function.ts';
import { sandboxPages, serveStatic } from './lib/static-site.ts';
import { openTarget } from './lib/target.ts';

// The demo operator key supabase/seed.sql gives client@demo.test: local databases only.
const DEMO_API_KEY = 'cgs_live_DEMO-key-for-local-use-only-000000000000000';
// Its test key: test sessions play on test balances (player-1 has 1,000 EUR), never live money.
const DEMO_TEST_KEY = 'cgs_test_DEMO-key-for-local-use-only-000000000000000';

async function demoKeyIsActive(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const hash = sha256Hex(DEMO_API_KEY);
    const rows = await sql`select 1 from public.api_key where key_hash = ${hash} and status = 'active'`;
    return rows.length > 0;
  } finally {
    await sql.end();
  }
}

// Local runs: webhook and wallet URLs may point at this machine (http://127.0.0.1:...), unless
// ALLOW_PRIVATE_URLS=false asks for the deployed rule, to try it. Read first: a bad value starts nothing.
const allowPrivateUrls = booleanSetting((name) => process.env[name] || undefined, 'ALLOW_PRIVATE_URLS', true);

const target = await openTarget();
// Said first, so a database that cannot be migrated is named where it lives.
console.log(`database: ${target.url}${target.dir ? ` (embedded, data in ${target.dir})` : ''}`);
const applied = await prepareDatabase(target.url, { seed: target.embedded });
console.log(applied.length ? `migrations applied: ${applied.length}` : 'database is up to date');

const port = Number(process.env.PORT ?? 54321);
// The developer portal (npm run portal:build) at the root; mounted even before it is built, so that
// building it while this runs needs no restart.
const portal = `${paths.root}portal/.vitepress/dist`;
// The dashboard's calls to the API go through the site's own /api/ (same origin: no CORS for a key).
const site = await serveStatic({ ...sandboxPages(paths.root), '/': portal }, Number(process.env.SITE_PORT ?? 54323), {
  '/api/': `http://127.0.0.1:${port}/functions/v1/`,
})
  .catch(async (error) => {
    await target.stop(); // e.g. the port is taken: leave no database running behind
    throw error;
  });
const served = await serveFunction({
  databaseUrl: target.url,
  env: {
    ALLOW_PRIVATE_URLS: String(allowPrivateUrls),
    // Test sessions of the demo provider's games open the demo game here, which calls this API.
    DEMO_GAME_URL: `${site.url}/demo/?api=http://127.0.0.1:${port}/functions/v1/v3`,
  },
  port,
  onOutput: (line) => console.log(`[v3] ${line}`),
}).catch(async (error) => {
  await site.close();
  await target.stop();
  throw error;
});
console.log(`sessions API: POST ${served.url}/v3/sessions`);
console.log(`demo game: ${site.url}/demo/ (a test session of cgs-sandbox:lucky-sevens launches it)`);
console.log(`demo sportsbook: ${site.url}/sportsbook/ (a test session of cgs-sandbox:sportsbook launches it; settle its fixtures with POST /v3/sandbox/sportsbook/fixtures/{id}/settle)`);
console.log(`reports dashboard: ${site.url}/dashboard/ (GGR, top games and a day's reconciliation, with an API key)`);
console.log(existsSync(`${portal}/index.html`)
  ? `developer portal: ${site.url}/`
  : `developer portal: not built; npm run portal:build builds it (no restart needed), then it is at ${site.url}/`);
if (await demoKeyIsActive(target.url)) {
  console.log(`demo API key (client@demo.test): ${DEMO_API_KEY}`);
  console.log(`demo test key (the same client, test mode; player-1 has a test balance): ${DEMO_TEST_KEY}`);
  console.log(`try: curl -i ${served.url}/v3/sessions -H "Authorization: Bearer ${DEMO_API_KEY}" \\
       -H "Content-Type: application/json" \\
       -d '{"player_id":"player-1","game_id":"pragmatic-play:vs20olympgate","currency":"EUR"}'`);
  console.log(`play the demo game: the same with the test key and "game_id":"cgs-sandbox:lucky-sevens", then open its launch_url`);
  console.log(`bet on the demo sportsbook: the same with "game_id":"cgs-sandbox:sportsbook"`);
} else {
  console.log('no demo key here: npm run key -- issue --client <email> prints one');
}

// Webhook deliveries and seamless wallet retries: what the deliver function does on a schedule when
// deployed, continuously here (a round of a second at a time, polling every 200 ms while idle).
const deliverySql = connectDatabase(target.url, { max: 2 });
let stopping = false;
const deliveries = (async () => {
  while (!stopping) {
    await drainDeliveries(deliverySql, 1000, { allowPrivateUrls, idleMs: 200, rollUpReports: true, stop: () => stopping })
      .then((counts) => (counts.claimed || counts.wallet_calls) && console.log(`[deliver] ${JSON.stringify(counts)}`))
      .catch(async (error) => {
        console.error(`[deliver] ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      });
  }
})();

async function shutdown() {
  if (stopping) return;
  stopping = true;
  await deliveries;
  await deliverySql.end();
  await served.stop();
  await site.close();
  await target.stop();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
console.log('ready; Ctrl-C stops');
