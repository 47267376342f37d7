// One load run: `concurrency` callers, each sending its next request as soon as its last one is
// answered, for a fixed time. Two drivers share this shape: autocannon over HTTP against the
// function (endpoint.ts) and the function's database call straight from Node (floor.ts).
import { percentile } from '../lib/stats.ts';

export interface LoadResult {
  /** 2xx answers (for the endpoint, all are 201). */
  ok: number;
  /** Non-2xx answers plus socket errors and timeouts. */
  errors: number;
  /** 5xx answers alone (issue 6: zero over the sustained run). */
  serverErrors: number;
  /** From the first request to the last answer. */
  seconds: number;
  p50: number;
  p99: number;
  /** Every answer's latency, sorted (ms): what lets runs be combined. */
  latencies: Float64Array;
}

/** Collects answers during a run and sums them up; `latency` is in milliseconds. */
export class LoadRecorder {
  private readonly latencies: number[] = [];
  private readonly started = process.hrtime.bigint();
  private last = this.started;
  ok = 0;
  errors = 0;
  serverErrors = 0;

  answer(status: number, latency: number): void {
    this.last = process.hrtime.bigint();
    this.latencies.push(latency);
    if (status >= 200 && status < 300) this.ok++;
    else this.errors++;
    if (status >= 500) this.serverErrors++;
  }

  failure(): void {
    this.errors++;
  }

  result(): LoadResult {
    const sorted = Float64Array.from(this.latencies).sort();
    return {
      ok: this.ok,
      errors: this.errors,
      serverErrors: this.serverErrors,
      seconds: Number(this.last - this.started) / 1e9,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      latencies: sorted,
    };
  }
}

/** Several runs as one: counts and durations added, percentiles over all their answers. */
export function combine(results: LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const latencies = Float64Array.from(results.flatMap((r) => Array.from(r.latencies))).sort();
  return {
    ok: sum((r) => r.ok),
    errors: sum((r) => r.errors),
    serverErrors: sum((r) => r.serverErrors),
    seconds: sum((r) => r.seconds),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    latencies,
  };
}

/** Throughput of a run: successful requests per second. */
export const throughput = (r: LoadResult) => r.ok / r.seconds;
