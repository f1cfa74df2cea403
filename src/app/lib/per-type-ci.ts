import { fillBoundedIntegers } from '../../core/python/numpy-random.ts';
import { numpyMean, numpyPercentileLinear } from '../../core/python/numpy-stats.ts';
import { Pcg64 } from '../../core/python/pcg64.ts';

/**
 * A 95% percentile-bootstrap interval of one task type's mean score, for the Score page (the
 * benchmark's scores.json has intervals for the headline only). Seeded, so a page shows the same
 * interval every time.
 */
export function typeInterval(values: readonly number[], iterations = 1000, seed = 0): [number, number] | undefined {
  if (values.length === 0) return undefined;
  const data = Float64Array.from(values);
  const rng = Pcg64.fromSeed(seed);
  const idx = new Int32Array(data.length);
  const resample = new Float64Array(data.length);
  const means = new Float64Array(iterations);
  for (let b = 0; b < iterations; b++) {
    fillBoundedIntegers(rng, 0, data.length, idx);
    for (let i = 0; i < idx.length; i++) resample[i] = data[idx[i]!]!;
    means[b] = numpyMean(resample);
  }
  means.sort();
  return [numpyPercentileLinear(means, 2.5), numpyPercentileLinear(means, 97.5)];
}

/** Per type, the interval of its tasks' scores (`pick` chooses cited or uncited). */
export function perTypeIntervals<R extends { type: string }>(
  rows: readonly R[],
  pick: (row: R) => number,
): Record<string, [number, number] | undefined> {
  const byType = new Map<string, number[]>();
  for (const r of rows) {
    const list = byType.get(r.type) ?? [];
    list.push(pick(r));
    byType.set(r.type, list);
  }
  return Object.fromEntries([...byType].map(([type, values]) => [type, typeInterval(values)]));
}
