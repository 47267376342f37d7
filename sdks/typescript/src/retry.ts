// When and how long to wait before trying a request again: exponential backoff with jitter, never
// sooner than the server's Retry-After, never longer than maxDelayMs.

export interface RetryOptions {
  /** Retries after the first attempt (default 2). 0 turns retrying off. */
  max?: number;
  /** First backoff step (default 250 ms); doubles each retry. */
  baseDelayMs?: number;
  /** Upper bound of any one wait, Retry-After included (default 30 s). */
  maxDelayMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const defaultRetryPolicy: RetryPolicy = { max: 2, baseDelayMs: 250, maxDelayMs: 30_000 };

/**
 * 409: the same Idempotency-Key is still running; 503: the service could not reach its database
 * (`service_unavailable`) or lost its answer (`outcome_unknown`: the same key replays it). Retried
 * only with the same Idempotency-Key, or for a GET.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([409, 503]);

/**
 * The policy from the client's `retries` option. An option left undefined keeps its default (a
 * spread would let `undefined` replace it); a value that is negative, not finite or, for `max`, not
 * whole throws a RangeError when the client is created, rather than making every wait NaN (which
 * setTimeout reads as 1 ms) or silently turning retrying off.
 */
export function retryPolicy(retries: number | RetryOptions | undefined): RetryPolicy {
  const given: RetryOptions = typeof retries === 'number' ? { max: retries } : (retries ?? {});
  const policy = { ...defaultRetryPolicy };
  for (const name of Object.keys(defaultRetryPolicy) as (keyof RetryPolicy)[]) {
    const value = given[name];
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < 0 || (name === 'max' && !Number.isInteger(value))) {
      throw new RangeError(`retries.${name} must be ${name === 'max' ? 'a whole number' : 'a number'} >= 0, not ${value}`);
    }
    policy[name] = value;
  }
  return policy;
}

/** Retry-After (RFC 9110): delay-seconds or an HTTP-date; 0 when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  if (!value) return 0;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? 0 : Math.max(0, date - now);
}

/** The wait before retry number `attempt` (0 for the first retry). */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfter: string | null = null): number {
  // "Equal jitter": half the step fixed, half random, so clients that failed together spread out.
  const step = policy.baseDelayMs * 2 ** attempt;
  const backoff = step / 2 + Math.random() * (step / 2);
  return Math.min(policy.maxDelayMs, Math.max(backoff, retryAfterMs(retryAfter)));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
