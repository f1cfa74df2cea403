/**
 * The scorer's stratified bootstrap CI (score.py _stratified_bootstrap_ci): for each
 * iteration and each type (dict order), rng.integers(0, n, n) resample indices, the
 * resample's .mean(), then np.mean of the type means; np.percentile of the iteration
 * values, each rounded with Python's round(x, 6). One generator serves both intervals.
 *
 * Two ways to run the same iterations: at once (stratifiedBootstrapCi), or in slices of
 * PROGRESS_EVERY iterations that give the event loop back in between and stop on an
 * AbortSignal (stratifiedBootstrapCiSliced), so that a worker running 100,000 iterations
 * still hears a Cancel. Both drive one generator, so their numbers are the same bit for bit.
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

export interface SlicedBootstrapSettings extends BootstrapSettings {
  /** Checked between slices: once aborted, the run stops with BootstrapCancelled. */
  signal?: AbortSignal;
}

export const PROGRESS_EVERY = 1000;

/** The bootstrap stopped because its signal was aborted (a Cancel, not a failure). */
export class BootstrapCancelled extends Error {
  constructor(readonly done: number) {
    super(`bootstrap cancelled after ${done} iterations`);
    this.name = 'BootstrapCancelled';
  }
}

export function createBootstrapRng(seed: number): Pcg64 {
  return Pcg64.fromSeed(seed);
}

/** Yields the iterations done every PROGRESS_EVERY iterations and at the end; returns the interval. */
function* bootstrapSteps(
  valuesByType: ReadonlyMap<string, readonly number[]>,
  rng: Pcg64,
  settings: BootstrapSettings,
): Generator<number, [number, number]> {
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
    if ((b + 1) % PROGRESS_EVERY === 0 || b + 1 === settings.iterations) yield b + 1;
  }
  macros.sort();
  return [
    pyRound(numpyPercentileLinear(macros, settings.percentiles[0]), 6),
    pyRound(numpyPercentileLinear(macros, settings.percentiles[1]), 6),
  ];
}

export function stratifiedBootstrapCi(
  valuesByType: ReadonlyMap<string, readonly number[]>,
  rng: Pcg64,
  settings: BootstrapSettings,
): [number, number] {
  const steps = bootstrapSteps(valuesByType, rng, settings);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    settings.onProgress?.(step.value);
  }
}

/** A macrotask turn: lets messages waiting for the thread (a Cancel) be handled. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export async function stratifiedBootstrapCiSliced(
  valuesByType: ReadonlyMap<string, readonly number[]>,
  rng: Pcg64,
  settings: SlicedBootstrapSettings,
): Promise<[number, number]> {
  const steps = bootstrapSteps(valuesByType, rng, settings);
  let done = 0;
  for (;;) {
    if (settings.signal?.aborted) throw new BootstrapCancelled(done);
    const step = steps.next();
    if (step.done) return step.value;
    done = step.value;
    settings.onProgress?.(done);
    await nextTurn();
  }
}
