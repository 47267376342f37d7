// Percentiles of latency samples and the slope of a series, for load runs.
import { median } from './measure.ts';

/** The p-th percentile (0 to 100) by nearest rank; NaN for no samples. */
export function percentile(sorted: Float64Array | number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * The Theil-Sen slope of y over x: the median of the slopes between every pair of points. Unlike a
 * least-squares fit, a few points off the line (a short dip, one high sample) do not tilt it.
 */
export function medianSlope(points: { x: number; y: number }[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const dx = points[j].x - points[i].x;
      if (dx) slopes.push((points[j].y - points[i].y) / dx);
    }
  }
  return slopes.length ? median(slopes) : 0;
}
