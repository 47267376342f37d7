// The delivery runner: claims due webhook deliveries (any number of runners may work at once), sends
// each event signed with Standard Webhooks, and reports how it went, so the database schedules the
// retry. A delivery succeeds on a 2xx within the timeout (15 s by default). The same runs carry the
// seamless wallet's credits and rollbacks that are due again (wallet-call.ts). Runtime-neutral: the
// database and the name resolver are injected; a scheduled function and `npm start` call it.
import { rerunConflicts, type Sql } from '../_shared/database.ts';
import type { OutboundOptions } from '../_shared/public-url.ts';
import { postSigned } from '../_shared/standard-webhooks.ts';
import { runWalletCalls, WALLET_TIMEOUT_MS } from '../_shared/wallet-call.ts';

export interface DeliveryOptions extends Partial<OutboundOptions> {
  batch?: number;
  /** How long a claim holds a delivery: one a crashed runner never finished is due again after it. */
  leaseSeconds?: number;
  timeoutMs?: number;
  /** How long an operator's seamless wallet has to answer. */
  walletTimeoutMs?: number;
  /** Roll up reports' closed days, a client at a time (the scheduled runner does; tests choose). */
  rollUpReports?: boolean;
  now?: () => Date;
}

interface Claimed {
  delivery_id: string;
  attempt: number;
  event_id: string;
  url: string;
  secrets: string[];
  payload: string;
}

/** One round of deliveries and wallet calls: what was claimed, and how each went. */
export async function runDeliveries(sql: Sql, options: DeliveryOptions = {}): Promise<Record<string, number>> {
  const [claimed, walletCounts, [{ stuck }], [{ ended }], [{ discarded }], [{ rolled }]] = await Promise.all([
    sql<Claimed[]>`select * from private.claim_deliveries(${options.batch ?? 50}, ${options.leaseSeconds ?? 60})`,
    runWalletCalls(sql, {
      batch: options.batch, leaseSeconds: options.leaseSeconds, timeoutMs: options.walletTimeoutMs ?? WALLET_TIMEOUT_MS.fallback,
      ...outbound(options),
    }),
    // Rounds open too long become round.stuck events, delivered from the next round on.
    sql<{ stuck: number }[]>`select private.report_stuck_rounds() as stuck`,
    // Free-round grants past their expiry and campaigns past their end are recorded, with their
    // events (time alone already made them so: nothing waits for this).
    sql<{ ended: number }[]>`select private.record_free_round_ends() as ended`,
    // Sportsbook bets reserved and neither committed nor discarded in time are discarded, their
    // stake given back, each told as sportsbook.bet.discarded (reason expired). It moves money: run
    // again when a concurrent movement took the balance it read.
    rerunConflicts(() => sql<{ discarded: number }[]>`select private.sportsbook_discard_expired() as discarded`),
    // A live client's closed days rolled up for reports, a month of one client's days at a time, so
    // that a report finds them done.
    options.rollUpReports ? sql<{ rolled: number }[]>`select private.roll_up_due_ggr() as rolled` : [{ rolled: 0 }],
  ]);
  const outcomes = await Promise.all(claimed.map((delivery) => deliver(sql, delivery, options)));
  const counts: Record<string, number> = { claimed: claimed.length, ...walletCounts, ...(stuck ? { rounds_stuck: stuck } : {}),
    ...(ended ? { free_round_ends: ended } : {}), ...(discarded ? { sportsbook_discarded: discarded } : {}),
    ...(rolled ? { reports_rolled_up: rolled } : {}) };
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

/** The delivery options that say how to reach a URL; deployed, private URLs are refused. */
function outbound(options: DeliveryOptions): OutboundOptions {
  return { allowPrivateUrls: options.allowPrivateUrls ?? false, resolve: options.resolve, ca: options.ca };
}

/** Retry-After in seconds, as a number of seconds or an HTTP date; null when absent or unreadable. */
function retryAfterSeconds(value: string | null, now: Date): number | null {
  if (!value) return null;
  if (/^\d{1,9}$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

async function deliver(sql: Sql, delivery: Claimed, options: DeliveryOptions): Promise<string> {
  const now = (options.now ?? (() => new Date()))();
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  let retryAfter: number | null = null;
  // Checked again at this send (a name can change what it resolves to after the URL was set); the
  // receiver's body is never read, only its status and Retry-After.
  const response = await postSigned({
    url: delivery.url, secrets: delivery.secrets, messageId: delivery.event_id, body: delivery.payload,
    timeoutMs: options.timeoutMs ?? 15_000, now, ...outbound(options),
  });
  if (!('failure' in response)) {
    status = response.status;
    retryAfter = retryAfterSeconds(response.headers.get('retry-after'), now);
  } else if (response.failure === 'refused') error = `the url may not be called (${response.refusal})`;
  else error = response.failure === 'timeout' ? 'no answer in time' : 'the endpoint could not be reached';
  const [finished] = await sql<{ finish_delivery: string }[]>`
    select private.finish_delivery(${delivery.delivery_id}, ${delivery.attempt}, ${status},
      ${Math.round(performance.now() - started)}, ${error}, ${retryAfter})`;
  return finished.finish_delivery;
}

/**
 * Rounds of deliveries until `budgetMs` has passed, or sooner once none is due; with `idleMs`, it
 * keeps polling that often while idle until the budget is spent, so a runner started on a schedule
 * sends what is written meanwhile within about `idleMs`. What each outcome counted.
 */
export async function drainDeliveries(
  sql: Sql, budgetMs: number, options: DeliveryOptions & { idleMs?: number; stop?: () => boolean } = {},
): Promise<Record<string, number>> {
  const deadline = Date.now() + budgetMs;
  const total: Record<string, number> = { claimed: 0 };
  const batch = options.batch ?? 50;
  while (!options.stop?.()) {
    const counts = await runDeliveries(sql, { ...options, batch });
    for (const [outcome, n] of Object.entries(counts)) total[outcome] = (total[outcome] ?? 0) + n;
    const idle = counts.claimed < batch && (counts.wallet_calls ?? 0) < batch;
    if (Date.now() >= deadline || (idle && options.idleMs === undefined)) break;
    if (idle) await new Promise((resolve) => setTimeout(resolve, Math.min(options.idleMs!, Math.max(0, deadline - Date.now()))));
  }
  return total;
}
