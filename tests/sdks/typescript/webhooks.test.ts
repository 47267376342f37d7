// The SDK's verification of what the platform sends, on messages it really signed (harness.ts): a
// webhook delivery from the runner, one sent during a rotation under two secrets, and a seamless
// wallet call. Anything altered, stale, or under another secret is refused.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  verifySignature, verifyWalletCall, verifyWebhook, walletAccepted, walletRefused, WebhookVerificationError,
} from '../../../sdks/typescript/src/index.ts';
import { sdkEnvironment } from '../harness.ts';

interface Signed {
  body: string;
  headers: Record<string, string>;
  secret: string;
  secrets: string[];
}
const env = sdkEnvironment('typescript');
const messages = (): Record<'webhook' | 'rotated' | 'wallet_call', Signed> => JSON.parse(readFileSync(env.CGS_SIGNED_MESSAGES, 'utf8'));
const refusal = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error) => error instanceof WebhookVerificationError ? error.message : `threw ${error}`);
const otherSecret = `whsec_${btoa('another-endpoint-secret-00000000')}`;

describe('verifyWebhook', () => {
  it('accepts a real delivery and returns its event', async () => {
    const { body, headers, secret } = messages().webhook;
    const event = await verifyWebhook(body, headers, secret);
    expect(event).toMatchObject({ id: headers['webhook-id'], type: 'session.created', livemode: true });
    expect(await verifyWebhook(body, new Headers(headers), [otherSecret, secret])).toEqual(event);
  });

  it('accepts a delivery sent during a rotation with either secret', async () => {
    const { body, headers, secrets } = messages().rotated;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of secrets) expect((await verifyWebhook(body, headers, secret)).type).toBe('session.created');
  });

  it('refuses an altered body, a forged or missing signature, another secret, and a stale or future timestamp', async () => {
    const { body, headers, secret } = messages().webhook;
    const at = Number(headers['webhook-timestamp']);
    expect(await refusal(verifyWebhook(body.replace('player-sdk', 'player-sdx'), headers, secret))).toMatch(/no signature matches/);
    expect(await refusal(verifyWebhook(body, { ...headers, 'webhook-signature': 'v1,AAAA' }, secret))).toMatch(/no signature matches/);
    expect(await refusal(verifyWebhook(body, { ...headers, 'webhook-id': 'other' }, secret))).toMatch(/no signature matches/);
    expect(await refusal(verifyWebhook(body, headers, otherSecret))).toMatch(/no signature matches/);
    const { 'webhook-signature': _, ...unsigned } = headers;
    expect(await refusal(verifyWebhook(body, unsigned, secret))).toMatch(/missing/);
    expect(await refusal(verifyWebhook(body, headers, secret, { now: new Date((at + 301) * 1000) }))).toMatch(/tolerance/);
    expect(await refusal(verifyWebhook(body, headers, secret, { now: new Date((at - 301) * 1000) }))).toMatch(/tolerance/);
    expect(await refusal(verifySignature(body, headers, secret, { now: new Date((at + 300) * 1000) }))).toBe('accepted');
  });
});

describe('the seamless wallet helper', () => {
  it('verifies a real wallet call and builds the answers the platform expects', async () => {
    const { body, headers, secret } = messages().wallet_call;
    const call = await verifyWalletCall(body, headers, secret);
    expect(call).toMatchObject({ action: 'balance', player_id: 'player-1', currency: 'EUR' });
    expect(await refusal(verifyWalletCall(body.replace('balance', 'debit'), headers, secret))).toMatch(/no signature matches/);
    expect(walletAccepted('990.0000')).toEqual({ status: 200, body: { balance: '990.0000' } });
    expect(walletRefused('insufficient_funds', '5.0000')).toEqual({ status: 422, body: { code: 'insufficient_funds', balance: '5.0000' } });
  });
});
