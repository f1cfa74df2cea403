/**
 * The scorer's stratified bootstrap CI (score.py _stratified_bootstrap_ci): for each
 * iteration and each type (dict order), rng.integers(0, n, n) resample indices, the
 * resample's .mean(), then np.mean of the type means; np.percentile of the iteration
 * values, each rounded with Python's round(x, 6). One generator serves both intervals.
 */
import { fillBoundedIntegers } from '../python/numpy-random.ts';
import { numpyMean, numpyPercentileLinear } from '../python/numpy-stats.ts';
import { Pcg64 } from '../python/pcg64.ts';
import { pyRound } from '../python/round.ts';

export interface BootstrapSettings {
  iterations: number;
  percentiles: readonly [number, number];
  /** Called every PROGRESS_EVERY iterations and at the end with the iterations done. */
  onProgress?: (done: number) => void;
}

export const PROGRESS_EVERY = 1000;

export function createBootstrapRng(seed: number): Pcg64 {
  return Pcg64.fromSeed(seed);
}

export function stratifiedBootstrapCi(
  valuesByType: ReadonlyMap<string, readonly number[]>,
  rng: Pcg64,
  settings: BootstrapSettings,
): [number, number] {
  const strata = [...valuesByType.values()].filter((v) => v.length > 0).map((v) => Float64Array.from(v));
  if (strata.length === 0) return [0, 0];
  const indices = strata.map((s) => new Int32Array(s.length));
  const resamples = strata.map((s) => new Float64Array(s.length));
  const typeMeans = new Float64Array(strata.length);
  const macros = new Float64Array(settings.iterations);
  for (let b = 0; b < settings.iterations; b++) {
    for (let t = 0; t < strata.length; t++) {
      const values = strata[t]!;
      const idx = indices[t]!;
      const resample = resamples[t]!;
      fillBoundedIntegers(rng, 0, values.length, idx);
      for (let i = 0; i < idx.length; i++) resample[i] = values[idx[i]!]!;
      typeMeans[t] = numpyMean(resample);
    }
    macros[b] = numpyMean(typeMeans);
    if ((b + 1) % PROGRESS_EVERY === 0 || b + 1 === settings.iterations) settings.onProgress?.(b + 1);
  }
  macros.sort();
  return [
    pyRound(numpyPercentileLinear(macros, settings.percentiles[0]), 6),
    pyRound(numpyPercentileLinear(macros, settings.percentiles[1]), 6),
  ];
}
