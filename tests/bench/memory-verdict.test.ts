// The benchmark's judgement of the function's memory over its 60 s run (issue 5: no memory growth):
// a leak is caught, and a dip that RSS recovers from is not taken for one.
import { describe, expect, it } from 'vitest';
import { judgeMemory, type Sample, SLOPE_LIMIT_MIB_PER_MIN } from '../../bench/sessions/memory.ts';

/** One sample a second for 62 s, RSS as a function of the second. */
const run = (rss: (second: number) => number): Sample[] => Array.from({ length: 63 }, (_, x) => ({ x, y: rss(x) }));
// A sawtooth of half a MiB, as collections leave it.
const jitter = (x: number) => (x % 7) * 0.08;

describe('the memory verdict of the sustained run', () => {
  it('a flat run does not grow', () => {
    const verdict = judgeMemory(run((x) => 150 + jitter(x)));
    expect(verdict.grows).toBe(false);
  });

  it('a leak of 6 MiB a minute grows', () => {
    const verdict = judgeMemory(run((x) => 150 + jitter(x) + (6 / 60) * Math.max(0, x - 5)));
    expect(verdict.slopeMiBPerMin).toBeGreaterThan(SLOPE_LIMIT_MIB_PER_MIN);
    expect(verdict.grows).toBe(true);
  });

  it('a leak that starts late in the run still grows', () => {
    const verdict = judgeMemory(run((x) => 150 + jitter(x) + (8 / 60) * Math.max(0, x - 30)));
    expect(verdict.grows).toBe(true);
  });

  it('a run that ends 20% above where it settled grows, whatever the trend', () => {
    const verdict = judgeMemory(run((x) => (x < 40 ? 150 : 185) + jitter(x)));
    expect(verdict.grows).toBe(true);
  });

  it('a dip after settling, recovered by the end, does not grow although its trend slopes up', () => {
    // As measured: 153.0 MiB after 10 s, pages handed back down to 149, taken again, 153.3 at the end.
    const verdict = judgeMemory(run((x) => (x <= 12 ? 153 : x <= 22 ? 149 : 149 + (4.3 * (x - 22)) / 40)));
    expect(verdict.slopeMiBPerMin).toBeGreaterThan(SLOPE_LIMIT_MIB_PER_MIN);
    expect(verdict).toMatchObject({ settledMiB: 153, lowMiB: 149, grows: false });
  });
});
