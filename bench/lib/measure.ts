// Timing two variants of one operation side by side: they alternate within every round, taking
// turns going first, so drift on a noisy machine and cache warming hit both alike.

export interface Rounds {
  /** Untimed rounds first (caches, plan caches, prepared statements). */
  warmup: number;
  /** Timed rounds: as many as fit in `budgetMs` (judged from the warm-up), within these bounds. */
  min: number;
  max: number;
  budgetMs: number;
}

export interface Medians {
  medians: [number, number];
  runs: number;
}

/** Runs both variants round after round and returns the median of each, in milliseconds. */
export async function interleavedMedians(
  rounds: Rounds,
  variants: [(round: number) => Promise<number>, (round: number) => Promise<number>],
): Promise<Medians> {
  const samples: [number[], number[]] = [[], []];
  const round = async (n: number) => {
    const times: [number, number] = [0, 0];
    for (const side of n % 2 ? [1, 0] : [0, 1]) times[side] = await variants[side](n);
    return times;
  };
  let warmupMs = 0;
  for (let n = 0; n < rounds.warmup; n++) warmupMs += (await round(n)).reduce((a, b) => a + b);
  const perRound = warmupMs / Math.max(rounds.warmup, 1);
  const runs = Math.min(rounds.max, Math.max(rounds.min, Math.floor(rounds.budgetMs / Math.max(perRound, 1e-3))));
  for (let n = rounds.warmup; n < rounds.warmup + runs; n++) {
    const [a, b] = await round(n);
    samples[0].push(a);
    samples[1].push(b);
  }
  return { medians: [median(samples[0]), median(samples[1])], runs };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
