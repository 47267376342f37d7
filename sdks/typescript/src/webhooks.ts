// What the platform sends you, verified: webhook events and, in seamless mode, calls to your wallet.
// Both are signed with Standard Webhooks v1: `webhook-signature` carries one `v1,<base64>` HMAC-SHA256
// of "{webhook-id}.{webhook-timestamp}.{body}" per signing secret (two during a rotation), and a
// message older or newer than the tolerance is refused, so a captured one cannot be replayed later.
// WebCrypto only: the same code runs in Node, Deno, Bun, browsers and edge runtimes.
import type { operations } from './api.types.ts';
import type { Event } from './types.ts';

/** A seamless wallet call as the platform sends it (`action`: balance, debit, credit, rollback). */
export type WalletCall = operations['receiveWalletCall']['requestBody']['content']['application/json'];

export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the message's timestamp may be from now, either way: 300 s by default. */
  toleranceSeconds?: number;
  /** The clock, for tests. */
  now?: Date;
}

/** The message was not signed by the platform with one of your secrets, or not just now. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const encoder = new TextEncoder();

function header(headers: HeadersLike, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found.join(' ') : found;
}

function secretBytes(secret: string): Uint8Array {
  const base64 = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  try {
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  } catch {
    throw new TypeError('a signing secret is "whsec_" and base64, as the API showed it');
  }
}

async function sign(secret: string, content: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', secretBytes(secret) as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(content)));
}

/** Compares in time independent of where the bytes differ. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

function decodeSignature(base64: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * Checks `payload` (the raw body, exactly as received: parse it only after) against its headers and
 * your secret, or each of several (during your own rotation). Throws WebhookVerificationError.
 */
export async function verifySignature(
  payload: string,
  headers: HeadersLike,
  secrets: string | string[],
  options: VerifyOptions = {},
): Promise<void> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance: an old or replayed message');
  }
  const offered = signatures.split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => decodeSignature(s.slice(3)))
    .filter((s): s is Uint8Array => s !== null);
  for (const secret of Array.isArray(secrets) ? secrets : [secrets]) {
    const expected = await sign(secret, `${id}.${timestamp}.${payload}`);
    if (offered.some((signature) => equalBytes(signature, expected))) return;
  }
  throw new WebhookVerificationError('no signature matches: a forged or altered message, or the wrong secret');
}

async function verifiedJson<T>(payload: string, headers: HeadersLike, secrets: string | string[], options?: VerifyOptions): Promise<T> {
  await verifySignature(payload, headers, secrets, options);
  return JSON.parse(payload) as T;
}

/** A webhook event, verified: your endpoint's secret (or both during a rotation). */
export function verifyWebhook(payload: string, headers: HeadersLike, secrets: string | string[], options?: VerifyOptions): Promise<Event> {
  return verifiedJson<Event>(payload, headers, secrets, options);
}

/** A seamless wallet call, verified: your wallet settings' secret (or both during a rotation). */
export function verifyWalletCall(payload: string, headers: HeadersLike, secrets: string | string[], options?: VerifyOptions): Promise<WalletCall> {
  return verifiedJson<WalletCall>(payload, headers, secrets, options);
}

/** An answer to a wallet call: send `status` with `body` as JSON. */
export interface WalletAnswer {
  status: 200 | 422;
  body: { balance: string } | { code: string; balance?: string };
}

/** Applied (or applied before: a repeat is answered as the first time), with the player's balance after it. */
export function walletAccepted(balance: string): WalletAnswer {
  return { status: 200, body: { balance } };
}

/** A debit refused, nothing applied: `insufficient_funds`, or your own code. */
export function walletRefused(code: string, balance?: string): WalletAnswer {
  return { status: 422, body: balance === undefined ? { code } : { code, balance } };
}
