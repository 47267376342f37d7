// Timing variants of one operation side by side: they alternate within every round, taking turns
// going first, so drift on a noisy machine and cache warming hit them all alike.

export interface Rounds {
  /** Untimed rounds first (caches, plan caches, prepared statements). */
  warmup: number;
  /** Timed rounds: as many as fit in `budgetMs` (judged from the warm-up), within these bounds. */
  min: number;
  max: number;
  budgetMs: number;
}

export interface Medians {
  /** One per variant, in the order given. */
  medians: number[];
  runs: number;
}

/** Runs the variants round after round and returns the median of each, in milliseconds. */
export async function interleavedMedians(
  rounds: Rounds,
  variants: ((round: number) => Promise<number>)[],
): Promise<Medians> {
  const samples: number[][] = variants.map(() => []);
  // Round n starts with variant n mod k and goes on in order, so each goes first as often.
  const round = async (n: number) => {
    const times = variants.map(() => 0);
    for (let i = 0; i < variants.length; i++) {
      const side = (n + i) % variants.length;
      times[side] = await variants[side](n);
    }
    return times;
  };
  let warmupMs = 0;
  for (let n = 0; n < rounds.warmup; n++) warmupMs += (await round(n)).reduce((a, b) => a + b);
  const perRound = warmupMs / Math.max(rounds.warmup, 1);
  const runs = Math.min(rounds.max, Math.max(rounds.min, Math.floor(rounds.budgetMs / Math.max(perRound, 1e-3))));
  for (let n = rounds.warmup; n < rounds.warmup + runs; n++) {
    (await round(n)).forEach((time, side) => samples[side].push(time));
  }
  return { medians: samples.map(median), runs };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
