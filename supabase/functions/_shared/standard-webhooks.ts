// The one signing scheme for everything the platform sends out (webhook deliveries, seamless wallet
// calls): Standard Webhooks, with the maintained `standardwebhooks` package.
import { Webhook } from 'standardwebhooks';

/**
 * The headers for a JSON `body`: `webhook-id` (the same on every retry of one message, the
 * receiver's idempotency key), `webhook-timestamp`, and one `v1,` signature per secret,
 * space-separated, so a receiver holding either secret verifies during a rotation.
 */
export function signedHeaders(secrets: string[], messageId: string, at: Date, body: string): Record<string, string> {
  if (!secrets.length) throw new Error('a signed message needs a secret');
  return {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}

export interface SignedPost {
  url: string;
  secrets: string[];
  messageId: string;
  /** The JSON body, signed as sent. */
  body: string;
  timeoutMs: number;
  /** Read the answer's body (within the timeout: an answer that stalls is no answer); else discard it. */
  keepBody?: boolean;
  fetch?: typeof fetch;
  now?: Date;
}

export type SignedAnswer =
  | { status: number; headers: Headers; text: string | null }
  | { failure: 'timeout' | 'unreachable' };

/** A signed POST, redirects not followed, bounded by its timeout; a failure to answer is a value, not a throw. */
export async function postSigned(post: SignedPost): Promise<SignedAnswer> {
  const headers = signedHeaders(post.secrets, post.messageId, post.now ?? new Date(), post.body);
  try {
    const signal = AbortSignal.timeout(post.timeoutMs);
    const response = await (post.fetch ?? fetch)(post.url, { method: 'POST', headers, body: post.body, signal, redirect: 'manual' });
    const text = post.keepBody ? await response.text() : (await response.body?.cancel(), null);
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return { failure: timedOut ? 'timeout' : 'unreachable' };
  }
}
