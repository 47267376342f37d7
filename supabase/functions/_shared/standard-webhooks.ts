// The one signing scheme for everything the platform sends out (webhook deliveries, seamless wallet
// calls): Standard Webhooks, with the maintained `standardwebhooks` package.
import { Webhook } from 'standardwebhooks';
import { type PinnedAnswer, pinnedPost } from './pinned-post.ts';
import { callableTarget, type OutboundOptions, type UrlRefusal } from './public-url.ts';

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

export interface SignedPost extends OutboundOptions {
  url: string;
  secrets: string[];
  messageId: string;
  /** The JSON body, signed as sent. */
  body: string;
  timeoutMs: number;
  /** Read the answer's body (within the timeout and MAX_ANSWER_BYTES); else none of it is read. */
  keepBody?: boolean;
  now?: Date;
}

export type SignedAnswer = PinnedAnswer | { failure: 'refused'; refusal: UrlRefusal };

/**
 * A signed POST to a URL the platform may call, checked at this send and connected to the addresses
 * checked; redirects not followed, bounded by its timeout; a refusal or a failure to answer is a
 * value, not a throw.
 */
export async function postSigned(post: SignedPost): Promise<SignedAnswer> {
  const headers = signedHeaders(post.secrets, post.messageId, post.now ?? new Date(), post.body);
  // One deadline for the whole send, resolving the name included. An AbortSignal dispatches
  // `abort` once at most, so the listener needs no `once`.
  const signal = AbortSignal.timeout(post.timeoutMs);
  const timedOut = new Promise<{ failure: 'timeout' }>((resolve) => signal.addEventListener('abort', () => resolve({ failure: 'timeout' })));
  const target = await Promise.race([callableTarget(post.url, post), timedOut]);
  if ('failure' in target) return target;
  if ('refusal' in target) return { failure: 'refused', refusal: target.refusal };
  return pinnedPost(target, { headers, body: post.body, signal, keepBody: post.keepBody ?? false, ca: post.ca });
}
