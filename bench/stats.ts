/** Order statistics shared by the benchmarks, so every figure they print is computed one way. */

export interface Spread {
  readonly n: number;
  readonly median: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** The value at quantile q (0..1) of numbers sorted ascending (nearest rank); NaN when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** Median, p95, p99 and max of unsorted samples. */
export function spread(samples: readonly number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** One figure over several runs against its bound: the runs' median and worst, each as a ratio to the bound (ms). */
export function overRuns(what: string, perRun: readonly number[], boundMs: number): string {
  const s = spread(perRun);
  const ms = (v: number): string => `${v.toFixed(1)} ms`;
  const x = (v: number): string => `${(v / boundMs).toFixed(3)}x`;
  return `${what}: median ${ms(s.median)} (${x(s.median)}), worst ${ms(s.max)} (${x(s.max)}); bound ${boundMs} ms: ${s.max <= boundMs ? 'within' : 'OVER'}`;
}
