// The function's memory over a sustained run: RSS sampled every second from /proc, and whether it
// grows. Growth is judged on the part of the run after the heap has settled.
import { median } from '../lib/measure.ts';
import { medianSlope } from '../lib/stats.ts';
import { rssMiB } from './processes.ts';

export interface MemoryVerdict {
  startMiB: number;
  /** The median of the LEVEL_S seconds after the first SETTLE_S: what the end is compared with. */
  settledMiB: number;
  /** The lowest sample from SETTLE_S on. */
  lowMiB: number;
  peakMiB: number;
  /** The median of the last LEVEL_S seconds. */
  endMiB: number;
  /** Theil-Sen slope over the last TREND_S seconds. */
  slopeMiBPerMin: number;
  /** Every sample, for the report: the verdict can be checked, and judged again, from the results. */
  everySecond: number[];
  grows: boolean;
}

const SETTLE_S = 10;
const LEVEL_S = 10;
const TREND_S = 40;
/** End at most this much above the settled value... */
export const GROWTH_FACTOR = 1.2;
/** ...and a trend below this, which even a small leak on every request passes at the load's rate. */
export const SLOPE_LIMIT_MIB_PER_MIN = 5;

export interface Sample {
  /** Seconds since sampling began. */
  x: number;
  /** RSS in MiB. */
  y: number;
}

/**
 * Whether RSS grows, from samples a second apart: the end's level more than GROWTH_FACTOR times the
 * settled level, or a trend over the last TREND_S seconds of SLOPE_LIMIT_MIB_PER_MIN or more.
 * Levels are medians of LEVEL_S seconds and the trend is a Theil-Sen slope, so neither one sample
 * on a collection's high nor a short dip (V8 hands pages back and takes them again) decides it; a
 * slow climb back from a dip looks like a leak and counts as one.
 */
export function judgeMemory(samples: Sample[]): MemoryVerdict {
  const last = samples[samples.length - 1];
  const settling = samples.filter((s) => s.x >= SETTLE_S && s.x < SETTLE_S + LEVEL_S);
  const settledMiB = settling.length ? median(settling.map((s) => s.y)) : last.y;
  // Samples come a second apart: the last LEVEL_S of them are the last LEVEL_S seconds.
  const endMiB = median(samples.slice(-LEVEL_S).map((s) => s.y));
  const slopeMiBPerMin = medianSlope(samples.filter((s) => s.x >= last.x - TREND_S)) * 60;
  return {
    startMiB: samples[0].y,
    settledMiB,
    lowMiB: Math.min(...samples.filter((s) => s.x >= SETTLE_S).map((s) => s.y), last.y),
    peakMiB: Math.max(...samples.map((s) => s.y)),
    endMiB,
    slopeMiBPerMin,
    everySecond: samples.map((s) => s.y),
    grows: endMiB > GROWTH_FACTOR * settledMiB || slopeMiBPerMin >= SLOPE_LIMIT_MIB_PER_MIN,
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
