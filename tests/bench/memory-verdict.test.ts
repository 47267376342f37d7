// The benchmark's judgement of the function's memory over its 60 s run (issue 5: no memory growth):
// a leak is caught, also behind one high sample or after a dip, and a short dip is not taken for one.
import { describe, expect, it } from 'vitest';
import { judgeMemory, type Sample, SLOPE_LIMIT_MIB_PER_MIN } from '../../bench/sessions/memory.ts';

/** One sample a second for 62 s, RSS as a function of the second. */
const run = (rss: (second: number) => number): Sample[] => Array.from({ length: 63 }, (_, x) => ({ x, y: rss(x) }));
// A sawtooth of half a MiB, as collections leave it.
const jitter = (x: number) => (x % 7) * 0.08;
const leak = (perMinute: number, from: number) => (x: number) => (perMinute / 60) * Math.max(0, x - from);

describe('the memory verdict of the sustained run', () => {
  it('a flat run does not grow', () => {
    expect(judgeMemory(run((x) => 150 + jitter(x))).grows).toBe(false);
  });

  it('a leak of 6 MiB a minute grows', () => {
    const verdict = judgeMemory(run((x) => 150 + jitter(x) + leak(6, 5)(x)));
    expect(verdict.slopeMiBPerMin).toBeGreaterThan(SLOPE_LIMIT_MIB_PER_MIN);
    expect(verdict.grows).toBe(true);
  });

  it('a leak that starts late in the run grows', () => {
    expect(judgeMemory(run((x) => 150 + jitter(x) + leak(8, 30)(x))).grows).toBe(true);
  });

  it('a leak behind one sample on a collection\'s high, just as the run settles, grows', () => {
    expect(judgeMemory(run((x) => 150 + jitter(x) + (x === 10 ? 10 : 0) + leak(6, 10)(x))).grows).toBe(true);
  });

  it('a leak after a dip grows', () => {
    expect(judgeMemory(run((x) => 150 + jitter(x) - (x >= 15 && x < 25 ? 8 : 0) + leak(6, 25)(x))).grows).toBe(true);
  });

  it('a run that ends 20% above where it settled grows, with no trend at the end', () => {
    const verdict = judgeMemory(run((x) => (x < 25 ? 150 : 185) + jitter(x)));
    expect(verdict.slopeMiBPerMin).toBeLessThan(SLOPE_LIMIT_MIB_PER_MIN);
    expect(verdict.grows).toBe(true);
  });

  it('a short dip inside the trend window, recovered at once, does not grow', () => {
    // As the runs show it: pages handed back (152.8 MiB after 10 s, a low of 143.2) and taken again.
    const verdict = judgeMemory(run((x) => 153 + jitter(x) - (x >= 25 && x < 30 ? 10 : 0)));
    expect(verdict).toMatchObject({ lowMiB: 143, grows: false });
  });

  it('a slow climb back from a dip cannot be told from a leak, and counts as one', () => {
    const verdict = judgeMemory(run((x) => (x < 22 ? 149 : 149 + (4.3 * (x - 22)) / 40)));
    expect(verdict.grows).toBe(true);
  });
});
