/**
 * Paired comparison of two systems on the same tasks (issue 23.1): the difference of the two
 * numbers as the scorer reports them, a 95% interval from a paired, type-stratified bootstrap
 * (the same resampled tasks for both systems; the judge profile's PCG64 generator and seed, drawn
 * in the scorer's order: per iteration, per type in first-appearance order, rng.integers(0, n, n)),
 * a two-sided bootstrap p-value, per-type figures and wins / ties / losses per task.
 */
import type { TaskType } from '../release/types.ts';
import { fillBoundedIntegers } from '../python/numpy-random.ts';
import { numpyMean, numpyPercentileLinear } from '../python/numpy-stats.ts';
import { Pcg64 } from '../python/pcg64.ts';
import { pyRound } from '../python/round.ts';
import type { PairedMetric, SystemMetric } from './paired-metrics.ts';
import { metricAggregate } from './paired-metrics.ts';

export interface PairedBootstrap {
  seed: number;
  iterations: number;
  percentiles: readonly [number, number];
}

export interface WinTieLoss {
  wins: number;
  ties: number;
  losses: number;
}

export interface PairedFigure extends WinTieLoss {
  n: number;
  a: number;
  b: number;
  /** a − b. */
  difference: number;
  ci95: [number, number];
  /** Two-sided bootstrap p-value (0 means: no resample as extreme, i.e. below 1 / iterations). */
  p: number;
}

export interface PairedResult extends PairedFigure {
  metric: PairedMetric;
  /** How the overall number weighs the tasks: the scorer's macro mean of per-type means, or its mean over tasks. */
  aggregate: 'macro' | 'micro';
  bootstrap: PairedBootstrap;
  perType: Array<PairedFigure & { type: TaskType }>;
}

/** Per-task values of both systems, grouped by type in first-appearance order. */
interface Strata {
  types: TaskType[];
  diffs: Float64Array[];
  a: number[][];
  b: number[][];
}

function strata(a: SystemMetric, b: SystemMetric): Strata {
  if (a.perTask.length !== b.perTask.length)
    throw new Error(`the two systems have values on ${a.perTask.length} and ${b.perTask.length} tasks`);
  const byType = new Map<TaskType, { a: number[]; b: number[] }>();
  a.perTask.forEach((ta, i) => {
    const tb = b.perTask[i]!;
    if (ta.task_id !== tb.task_id) throw new Error(`task ${i} differs: ${ta.task_id} and ${tb.task_id}`);
    let s = byType.get(ta.type);
    if (!s) byType.set(ta.type, (s = { a: [], b: [] }));
    s.a.push(ta.value);
    s.b.push(tb.value);
  });
  const types = [...byType.keys()];
  const groups = [...byType.values()];
  return {
    types,
    a: groups.map((g) => g.a),
    b: groups.map((g) => g.b),
    diffs: groups.map((g) => Float64Array.from(g.a, (v, i) => v - g.b[i]!)),
  };
}

function winTieLoss(a: readonly number[], b: readonly number[]): WinTieLoss {
  const out = { wins: 0, ties: 0, losses: 0 };
  a.forEach((v, i) => {
    const w = b[i]!;
    if (v > w) out.wins++;
    else if (v < w) out.losses++;
    else out.ties++;
  });
  return out;
}

/** The statistic on per-type means: macro = their mean, micro = the count-weighted mean. */
function combine(typeMeans: Float64Array, counts: readonly number[], aggregate: 'macro' | 'micro'): number {
  if (aggregate === 'macro') return numpyMean(typeMeans);
  let sum = 0;
  let n = 0;
  typeMeans.forEach((m, t) => {
    sum += m * counts[t]!;
    n += counts[t]!;
  });
  return n ? sum / n : 0;
}

function interval(sorted: Float64Array, percentiles: readonly [number, number]): [number, number] {
  if (sorted.length === 0) return [0, 0];
  return [
    pyRound(numpyPercentileLinear(sorted, percentiles[0]), 6),
    pyRound(numpyPercentileLinear(sorted, percentiles[1]), 6),
  ];
}

/**
 * Two-sided p-value of "no difference": the share of resamples whose difference lies at least as
 * far from the observed one as the observed one lies from 0 (the bootstrap distribution shifted to
 * the null). Identical systems give 1; a difference no resample comes near crossing gives 0.
 */
function twoSidedP(resampled: Float64Array, observed: number): number {
  if (resampled.length === 0) return 1;
  const gap = Math.abs(observed);
  let extreme = 0;
  for (const d of resampled) if (Math.abs(d - observed) >= gap) extreme++;
  return extreme / resampled.length;
}

/**
 * Compares a with b task by task. `a.overall − b.overall` is the point estimate, so it equals the
 * difference of the scorer's numbers bit for bit. A fresh generator from `bootstrap.seed` per
 * comparison makes every pair reproducible on its own.
 */
export function pairedComparison(
  metric: PairedMetric,
  a: SystemMetric,
  b: SystemMetric,
  bootstrap: PairedBootstrap,
): PairedResult {
  const aggregate = metricAggregate(metric);
  const s = strata(a, b);
  const counts = s.diffs.map((d) => d.length);
  const rng = Pcg64.fromSeed(bootstrap.seed);
  const iterations = s.types.length ? bootstrap.iterations : 0;
  const indices = s.diffs.map((d) => new Int32Array(d.length));
  const resample = s.diffs.map((d) => new Float64Array(d.length));
  const typeMeans = new Float64Array(s.types.length);
  const overall = new Float64Array(iterations);
  const perType = s.types.map(() => new Float64Array(iterations));
  for (let it = 0; it < iterations; it++) {
    for (let t = 0; t < s.types.length; t++) {
      const diffs = s.diffs[t]!;
      const idx = indices[t]!;
      const r = resample[t]!;
      fillBoundedIntegers(rng, 0, diffs.length, idx);
      for (let i = 0; i < idx.length; i++) r[i] = diffs[idx[i]!]!;
      typeMeans[t] = numpyMean(r);
      perType[t]![it] = typeMeans[t]!;
    }
    overall[it] = combine(typeMeans, counts, aggregate);
  }
  const observedTypeMeans = Float64Array.from(s.diffs, (d) => numpyMean(d));
  const observed = s.types.length ? combine(observedTypeMeans, counts, aggregate) : 0;
  const allA = s.a.flat();
  const allB = s.b.flat();
  const typeFigures = s.types.map((type, t) => {
    const ma = numpyMean(Float64Array.from(s.a[t]!));
    const mb = numpyMean(Float64Array.from(s.b[t]!));
    const dist = perType[t]!;
    const p = twoSidedP(dist, observedTypeMeans[t]!);
    return {
      type,
      n: counts[t]!,
      a: ma,
      b: mb,
      difference: ma - mb,
      ci95: interval(dist.sort(), bootstrap.percentiles),
      p,
      ...winTieLoss(s.a[t]!, s.b[t]!),
    };
  });
  const p = twoSidedP(overall, observed);
  return {
    metric,
    aggregate,
    bootstrap: { seed: bootstrap.seed, iterations: bootstrap.iterations, percentiles: bootstrap.percentiles },
    n: allA.length,
    a: a.overall,
    b: b.overall,
    difference: a.overall - b.overall,
    ci95: interval(overall.sort(), bootstrap.percentiles),
    p,
    ...winTieLoss(allA, allB),
    perType: typeFigures,
  };
}

/** Holm's step-down adjustment: adjusted p-values in the input's order. */
export function holmAdjust(ps: readonly number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out = new Array<number>(ps.length);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (ps.length - rank) * p));
    out[i] = running;
  });
  return out;
}

export interface PairwiseRow {
  a: string;
  b: string;
  result: PairedResult;
  /** Holm-adjusted p over every pair of the table. */
  pHolm: number;
  /** The difference survives the correction (pHolm < alpha). */
  survives: boolean;
}

export interface PairwiseTable {
  metric: PairedMetric;
  alpha: number;
  systems: string[];
  rows: PairwiseRow[];
}

/** Every pair of the systems (in the given order), each compared as `pairedComparison` does, with Holm's correction. */
export function pairwiseTable(
  metric: PairedMetric,
  systems: ReadonlyArray<{ slug: string; metric: SystemMetric }>,
  bootstrap: PairedBootstrap,
  alpha = 0.05,
): PairwiseTable {
  const pairs: Array<Omit<PairwiseRow, 'pHolm' | 'survives'>> = [];
  for (let i = 0; i < systems.length; i++)
    for (let j = i + 1; j < systems.length; j++) {
      const x = systems[i]!;
      const y = systems[j]!;
      pairs.push({ a: x.slug, b: y.slug, result: pairedComparison(metric, x.metric, y.metric, bootstrap) });
    }
  const adjusted = holmAdjust(pairs.map((r) => r.result.p));
  return {
    metric,
    alpha,
    systems: systems.map((s) => s.slug),
    rows: pairs.map((r, i) => ({ ...r, pHolm: adjusted[i]!, survives: adjusted[i]! < alpha })),
  };
}
