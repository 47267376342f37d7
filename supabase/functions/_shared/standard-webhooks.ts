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
