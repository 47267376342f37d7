// A call to an operator's seamless wallet: a JSON POST signed with the Standard Webhooks scheme (the
// one scheme for everything the platform sends out), bounded by a timeout, its answer sorted into
// what the round engine decides on:
// - accepted: a 2xx with the balance after it, a decimal string;
// - refused: a 4xx with the operator's `code` (a debit it will not take: `insufficient_funds`, ...);
// - failed: no answer in time, a network error, a 5xx, a redirect or an answer outside the contract.
//   A failed debit is answered to the provider as failed and rolled back at the operator; a failed
//   credit or rollback is retried with the same transaction_id until accepted.
// Runtime-neutral: fetch and the clock are injected, so tests drive it against a real server.
import type { webhooks } from '../v3/api.types.ts';
import { postSigned } from './standard-webhooks.ts';

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

export interface WalletCallOptions {
  url: string;
  /** The signing secrets, `whsec_...`: the current one, then any still signing after a rotation. */
  secrets: string[];
  /** The message id, the same on every retry of one call, so the operator can tell a retry. */
  messageId: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  now?: () => Date;
}

const AMOUNT = /^-?(0|[1-9][0-9]{0,15})(\.[0-9]{1,4})?$/;
const CODE = /^[a-z][a-z0-9_]{0,63}$/;

export async function callWallet(request: WalletRequest, options: WalletCallOptions): Promise<WalletAnswer> {
  const response = await postSigned({
    url: options.url, secrets: options.secrets, messageId: options.messageId, body: JSON.stringify(request),
    timeoutMs: options.timeoutMs, keepBody: true, fetch: options.fetch, now: options.now?.(),
  });
  if ('failure' in response) {
    return { kind: 'failed', reason: response.failure === 'timeout' ? `no answer within ${options.timeoutMs} ms` : 'the wallet could not be reached' };
  }
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
