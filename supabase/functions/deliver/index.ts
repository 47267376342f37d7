// Edge Function: sends the webhook deliveries and seamless wallet calls that are due, called on a
// schedule (pg_cron with pg_net every 10 seconds, deployed; `npm start` runs the same runner
// locally). Each call works for DELIVER_BUDGET_MS (9 s by default), a batch at a time, polling every
// DELIVER_IDLE_MS (250 ms) while nothing is due, so what is written is sent within about that even
// between calls; then it answers what it did. Its rounds also roll up reports' closed days (a report
// then finds them done). Hosted, Supabase checks the caller's JWT (the service key the schedule
// sends) before it runs.
import { boot, serve } from '../_shared/boot.ts';
import { isDatabaseUnavailable, loggableError } from '../_shared/database.ts';
import { booleanSetting, positiveSetting } from '../_shared/settings.ts';
import { WALLET_TIMEOUT_MS } from '../_shared/wallet-call.ts';
import { drainDeliveries } from './deliveries.ts';

const { env, sql, log } = boot();
const budgetMs = positiveSetting(env, 'DELIVER_BUDGET_MS', { fallback: 9_000, integer: true, max: 120_000 });
const idleMs = positiveSetting(env, 'DELIVER_IDLE_MS', { fallback: 250, integer: true, max: 60_000 });
const allowPrivateUrls = booleanSetting(env, 'ALLOW_PRIVATE_URLS', false);
const walletTimeoutMs = positiveSetting(env, 'WALLET_TIMEOUT_MS', { ...WALLET_TIMEOUT_MS, integer: true });

serve('deliver', env, async (request) => {
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
  try {
    const counts = await drainDeliveries(sql, budgetMs, { allowPrivateUrls, walletTimeoutMs, idleMs, rollUpReports: true });
    return new Response(JSON.stringify(counts), { headers: { 'content-type': 'application/json' } });
  } catch (error) {
    // Every call has the pool's deadline, so a lost database ends the run here; what it had
    // claimed comes due again after its lease.
    if (!isDatabaseUnavailable(error)) throw error;
    log('database unavailable', loggableError(error));
    return new Response(JSON.stringify({ error: 'database unavailable' }), { status: 503, headers: { 'content-type': 'application/json' } });
  }
});
