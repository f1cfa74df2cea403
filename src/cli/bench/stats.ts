/** Timing helpers for the benchmarks. */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

export interface Latency {
  p50: number;
  p95: number;
  n: number;
}

/**
 * Per-item latency in ms: one untimed warm-up pass over the first `warmup` items, then `passes`
 * timed passes; each item's median over passes, then p50 / p95 over items.
 */
export function measureLatency<T>(
  items: readonly T[],
  run: (item: T, index: number) => unknown,
  passes = 2,
  warmup = 20,
): Latency {
  items.slice(0, warmup).forEach(run);
  const times = items.map(() => [] as number[]);
  for (let pass = 0; pass < passes; pass++) {
    items.forEach((item, i) => {
      const t0 = performance.now();
      run(item, i);
      times[i]!.push(performance.now() - t0);
    });
  }
  const perItem = times.map((t) => percentile(t, 0.5));
  return { p50: percentile(perItem, 0.5), p95: percentile(perItem, 0.95), n: items.length };
}

export function timed<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const value = fn();
  return [value, (performance.now() - t0) / 1000];
}
