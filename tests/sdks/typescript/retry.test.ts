// The SDK's wait before a retry: exponential, jittered, never before Retry-After, never past the cap.
import { describe, expect, it } from 'vitest';
import { createOperatorClient } from '../../../sdks/typescript/src/operator-client.ts';
import { retryAfterMs, retryDelayMs, retryPolicy } from '../../../sdks/typescript/src/retry.ts';

describe('retry timing', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(retryAfterMs('5', now)).toBe(5000);
    expect(retryAfterMs('Sat, 21 Nov 2026 10:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:59:00 GMT', now)).toBe(0);
    expect([retryAfterMs(null, now), retryAfterMs('soon', now)]).toEqual([0, 0]);
  });

  it('doubles the step each retry, with half of it random', () => {
    const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 60_000 });
    for (let attempt = 0; attempt < 5; attempt++) {
      const step = 100 * 2 ** attempt;
      for (let i = 0; i < 20; i++) {
        const delay = retryDelayMs(policy, attempt);
        expect(delay).toBeGreaterThanOrEqual(step / 2);
        expect(delay).toBeLessThanOrEqual(step);
      }
    }
  });

  it('never retries before Retry-After, and never waits longer than maxDelayMs', () => {
    const policy = retryPolicy({ baseDelayMs: 10, maxDelayMs: 4000 });
    expect(retryDelayMs(policy, 0, '2')).toBe(2000);
    expect(retryDelayMs(policy, 0, '30')).toBe(4000);
    expect(retryDelayMs(retryPolicy({ baseDelayMs: 10_000, maxDelayMs: 1000 }), 3)).toBe(1000);
  });

  it('a number is how many retries; an object overrides parts of the default policy', () => {
    expect(retryPolicy(5)).toEqual({ max: 5, baseDelayMs: 250, maxDelayMs: 30_000 });
    expect(retryPolicy({ maxDelayMs: 10 })).toEqual({ max: 2, baseDelayMs: 250, maxDelayMs: 10 });
    expect(retryPolicy(undefined).max).toBe(2);
  });

  it('keeps the default for an option passed as undefined (as from an unset setting)', () => {
    expect(retryPolicy({ max: undefined, maxDelayMs: undefined, baseDelayMs: 100 }))
      .toEqual({ max: 2, baseDelayMs: 100, maxDelayMs: 30_000 });
  });

  it.each([
    [{ maxDelayMs: Number.NaN }], [{ baseDelayMs: -1 }], [{ max: 1.5 }], [{ max: Number.POSITIVE_INFINITY }], [Number.NaN],
  ])('refuses %j with a RangeError instead of waiting NaN or never retrying', (retries) => {
    expect(() => retryPolicy(retries)).toThrow(RangeError);
    expect(() => createOperatorClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', retries })).toThrow(/^retries\./);
  });
});
