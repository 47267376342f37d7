// The function's memory over a sustained run: RSS sampled every second from /proc, and whether it
// grows. Growth is judged on the part of the run after the heap has settled.
import { slope } from '../lib/stats.ts';
import { rssMiB } from './processes.ts';

export interface MemoryVerdict {
  startMiB: number;
  /** After the first SETTLE_S seconds: what the end is compared with. */
  settledMiB: number;
  /** The lowest sample from then on. */
  lowMiB: number;
  peakMiB: number;
  endMiB: number;
  /** Least-squares slope over the last TREND_S seconds (growth only if the end has risen too). */
  slopeMiBPerMin: number;
  samples: number;
  grows: boolean;
}

const SETTLE_S = 10;
const TREND_S = 40;
/** End at most this much above the settled value... */
export const GROWTH_FACTOR = 1.2;
/** ...and a trend below this (a 1 KiB leak per request at 2,000 req/s is about 117 MiB/min). */
export const SLOPE_LIMIT_MIB_PER_MIN = 5;

export interface Sample {
  /** Seconds since sampling began. */
  x: number;
  /** RSS in MiB. */
  y: number;
}

/**
 * Whether RSS grows, from samples a second apart. The trend alone is not enough: V8 hands pages
 * back after a collection and takes them again, and a dip like that early in the trend window
 * slopes upward while the run ends where it settled. So a trend counts only when the end is at
 * least half of what that trend would have added since settling above the settled value; a leak
 * rises all the way, and a run that ends 20% above where it settled grows whatever the trend.
 */
export function judgeMemory(samples: Sample[]): MemoryVerdict {
  const end = samples[samples.length - 1];
  const settled = samples.find((s) => s.x >= SETTLE_S) ?? end;
  const trend = samples.filter((s) => s.x >= end.x - TREND_S);
  const slopeMiBPerMin = slope(trend) * 60;
  const sustained = end.y - settled.y >= ((slopeMiBPerMin / 60) * (end.x - settled.x)) / 2;
  return {
    startMiB: samples[0].y,
    settledMiB: settled.y,
    lowMiB: Math.min(...samples.filter((s) => s.x >= settled.x).map((s) => s.y)),
    peakMiB: Math.max(...samples.map((s) => s.y)),
    endMiB: end.y,
    slopeMiBPerMin,
    samples: samples.length,
    grows: end.y > GROWTH_FACTOR * settled.y || (slopeMiBPerMin >= SLOPE_LIMIT_MIB_PER_MIN && sustained),
  };
}

/** Samples `pid` every second until the returned function is called; it gives the verdict. */
export function sampleMemory(pid: number): () => Promise<MemoryVerdict> {
  const started = Date.now();
  const samples: Sample[] = [];
  const take = async () => samples.push({ x: (Date.now() - started) / 1000, y: await rssMiB(pid) });
  const first = take();
  const timer = setInterval(() => void take(), 1000);
  return async () => {
    clearInterval(timer);
    await first;
    await take();
    return judgeMemory(samples);
  };
}
