// A call to an operator's seamless wallet: a JSON POST signed with the Standard Webhooks scheme (the
// one scheme for everything the platform sends out), bounded by a timeout, its answer sorted into
// what the round engine decides on:
// - accepted: a 2xx with the balance after it, a decimal string;
// - refused: a 4xx with the operator's `code` (a debit it will not take: `insufficient_funds`, ...);
// - failed: no answer in time, a network error, a 5xx, a redirect, an answer outside the contract or
//   larger than MAX_ANSWER_BYTES, or a url the platform may not call (public-url.ts).
//   A failed debit is answered to the provider as failed and rolled back at the operator; a failed
//   credit or rollback is retried with the same transaction_id until accepted.
// The database queues each debit, credit and rollback with the round change it carries
// (public.wallet_call); makeWalletCall sends one and records the answer, and runWalletCalls is the
// background runner's share: credits and rollbacks due again.
// Runtime-neutral: the database, the name resolver and the clock are injected, so tests drive it
// against a real server.
import type { webhooks } from './api.types.ts';
import type { Sql } from './database.ts';
import { MAX_ANSWER_BYTES } from './pinned-post.ts';
import type { OutboundOptions } from './public-url.ts';
import { postSigned, type SignedAnswer } from './standard-webhooks.ts';

/**
 * The body the operator's wallet receives (the provider's call, and the session it belongs to), as
 * the OpenAPI document's `walletCall` declares it.
 */
export type WalletRequest = webhooks['walletCall']['post']['requestBody']['content']['application/json'];
export type WalletAction = WalletRequest['action'];

export type WalletAnswer =
  | { kind: 'accepted'; balance: string }
  | { kind: 'refused'; code: string; balance: string | null }
  | { kind: 'failed'; reason: string };

export interface WalletCallOptions extends OutboundOptions {
  url: string;
  /** The signing secrets, `whsec_...`: the current one, then any still signing after a rotation. */
  secrets: string[];
  /** The message id, the same on every retry of one call, so the operator can tell a retry. */
  messageId: string;
  timeoutMs: number;
  now?: () => Date;
}

const AMOUNT = /^-?(0|[1-9][0-9]{0,15})(\.[0-9]{1,4})?$/;
const CODE = /^[a-z][a-z0-9_]{0,63}$/;

export async function callWallet(request: WalletRequest, options: WalletCallOptions): Promise<WalletAnswer> {
  const response = await postSigned({ ...options, body: JSON.stringify(request), keepBody: true, now: options.now?.() });
  if ('failure' in response) return { kind: 'failed', reason: failureReason(response, options.timeoutMs) };
  let answer: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(response.text!);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) answer = parsed;
  } catch {
    // Left null: not the contract's answer.
  }
  const balance = typeof answer?.balance === 'string' && AMOUNT.test(answer.balance) ? answer.balance : null;
  if (response.status >= 200 && response.status < 300) {
    return balance !== null ? { kind: 'accepted', balance } : { kind: 'failed', reason: 'the answer has no balance as a decimal string' };
  }
  if (response.status >= 400 && response.status < 500 && typeof answer?.code === 'string' && CODE.test(answer.code)) {
    return { kind: 'refused', code: answer.code, balance };
  }
  return { kind: 'failed', reason: `HTTP ${response.status}` };
}

function failureReason(failure: Extract<SignedAnswer, { failure: string }>, timeoutMs: number): string {
  switch (failure.failure) {
    case 'refused':
      return `the wallet url may not be called (${failure.refusal})`;
    case 'timeout':
      return `no answer within ${timeoutMs} ms`;
    case 'too_large':
      return `answer too large (over ${MAX_ANSWER_BYTES} bytes)`;
    case 'unreachable':
      return 'the wallet could not be reached';
  }
}

/**
 * A call as the database hands it out (private.wallet_call_json); no call_id for a balance request.
 * No url and no secrets: a call the runner claimed for a client whose wallet settings (or the secret
 * that signs for them) are gone since it was queued (private.claim_wallet_calls).
 */
export interface QueuedWalletCall {
  call_id: string | null;
  attempt: number;
  url: string | null;
  secrets: string[];
  request: WalletRequest;
}

export interface WalletCallSettings extends OutboundOptions {
  /** WALLET_TIMEOUT_MS: how long the operator has to answer one attempt. */
  timeoutMs: number;
}

/** The default answer time of an operator's wallet, and the most a setting may give it. */
export const WALLET_TIMEOUT_MS = { fallback: 3_000, max: 10_000 };

/** Sends a queued call, its url checked as webhook urls are, at each attempt. */
export async function sendWalletCall(call: QueuedWalletCall, settings: WalletCallSettings): Promise<WalletAnswer> {
  // Nowhere to send it, nothing to sign it with: a failed attempt of this call alone, which the
  // runner records; the runner serves every client, so it must not throw.
  if (call.url === null || !call.secrets.length) return { kind: 'failed', reason: 'the client has no wallet url and signing secret to call' };
  return callWallet(call.request, { ...settings, url: call.url, secrets: call.secrets, messageId: call.call_id ?? crypto.randomUUID() });
}

/**
 * What the round engine answers once the operator has (private.finish_wallet_call): the answer, the
 * wallet's refusal (`insufficient_funds` when its code says so), a debit failed or a call still
 * pending, or `stale`, an attempt superseded by a later one, which changes nothing.
 */
export type FinishedOutcome = 'ok' | 'insufficient_funds' | 'wallet_refused' | 'wallet_failed' | 'wallet_pending' | 'stale';

/** What the round engine answers once the operator has: private.finish_wallet_call. */
export interface FinishedCall {
  outcome: FinishedOutcome;
  /** The provider's answer as stored (replayed as these bytes), or a problem's members. */
  body: string | null;
  balance: string | null;
}

/** Sends a queued debit, credit or rollback and records how it went. */
export async function makeWalletCall(sql: Sql, call: QueuedWalletCall, settings: WalletCallSettings): Promise<FinishedCall> {
  const answer = await sendWalletCall(call, settings);
  const [finished] = await sql<FinishedCall[]>`
    select outcome, body::text, balance from private.finish_wallet_call(${call.call_id}::uuid, ${call.attempt}, ${answer.kind},
      ${answer.kind === 'failed' ? null : answer.balance}, ${answer.kind === 'refused' ? answer.code : null},
      ${answer.kind === 'failed' ? answer.reason : null})`;
  return finished;
}

/** The runner's share: credits and rollbacks due again, and debits their caller never finished. */
export async function runWalletCalls(
  sql: Sql, settings: WalletCallSettings & { batch?: number; leaseSeconds?: number },
): Promise<Record<string, number>> {
  const claimed = await sql<{ call: QueuedWalletCall }[]>`
    select call from private.claim_wallet_calls(${settings.batch ?? 50}, ${settings.leaseSeconds ?? 60})`;
  const finished = await Promise.all(claimed.map(({ call }) => makeWalletCall(sql, call, settings)));
  const counts: Record<string, number> = claimed.length ? { wallet_calls: claimed.length } : {};
  for (const { outcome } of finished) {
    // The runner sends credits and rollbacks only, never a debit: any other outcome is an attempt
    // whose answer changed nothing (a later attempt replaced it, or the call is gone), whatever its
    // transaction's state (a compensating rollback's is its debit's `wallet_failed`).
    const name = outcome === 'ok' ? 'wallet_accepted' : outcome === 'wallet_pending' ? 'wallet_retrying' : 'wallet_stale';
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}
