import { describe, expect, it } from 'vitest';
import {
  BootstrapCancelled,
  stratifiedBootstrapCi,
  stratifiedBootstrapCiSliced,
} from '../../../../src/core/scoring/bootstrap.ts';
import { fillBoundedIntegers } from '../../../../src/core/python/numpy-random.ts';
import { numpyMean, numpyPercentileLinear, pairwiseSum } from '../../../../src/core/python/numpy-stats.ts';
import { Pcg64 } from '../../../../src/core/python/pcg64.ts';
import { hasShared, readShared, sharedNote } from '../../../support/shared.ts';

interface Vectors {
  seed: number;
  pcg64_state_after_seeding: { state: string; inc: string };
  random_raw_first_8_uint64: string[];
  stratified_draw_sequence_first_iteration: { n: number; draws: number[] }[];
  percentile_example: { first_3_values: number[]; p2_5: number; p97_5: number };
}

describe.runIf(hasShared)(
  `numpy PCG64 port against numpy 1.24 reference vectors${hasShared ? '' : ` (${sharedNote})`}`,
  () => {
    const vectors = hasShared ? (JSON.parse(readShared('golden/numpy/pcg64-bootstrap-vectors.json')) as Vectors) : null;

    it('seeds through SeedSequence to the same state and inc', () => {
      const rng = Pcg64.fromSeed(vectors!.seed);
      const { state, inc } = rng.getState();
      expect(state.toString()).toBe(vectors!.pcg64_state_after_seeding.state);
      expect(inc.toString()).toBe(vectors!.pcg64_state_after_seeding.inc);
    });

    it('produces the same first 8 raw uint64 outputs', () => {
      const rng = Pcg64.fromSeed(vectors!.seed);
      const raw = Array.from({ length: 8 }, () => rng.nextUint64().toString());
      expect(raw).toEqual(vectors!.random_raw_first_8_uint64);
    });

    it('draws the complete first stratified iteration exactly (integers(0, n, n) per type)', () => {
      const rng = Pcg64.fromSeed(vectors!.seed);
      for (const { n, draws } of vectors!.stratified_draw_sequence_first_iteration) {
        const out = new Int32Array(n);
        fillBoundedIntegers(rng, 0, n, out);
        expect(Array.from(out)).toEqual(draws);
      }
    });

    it('matches random() and np.percentile on default_rng(1).random(1000)', () => {
      const rng = Pcg64.fromSeed(1);
      const values = Float64Array.from({ length: 1000 }, () => rng.nextDouble());
      expect(Array.from(values.slice(0, 3))).toEqual(vectors!.percentile_example.first_3_values);
      const sorted = values.slice().sort();
      expect(numpyPercentileLinear(sorted, 2.5)).toBe(vectors!.percentile_example.p2_5);
      expect(numpyPercentileLinear(sorted, 97.5)).toBe(vectors!.percentile_example.p97_5);
    });
  },
);

describe('numpy summation and bootstrap helpers', () => {
  it('sums pairwise in numpy order, which differs from left-to-right for some inputs', () => {
    const xs = Array.from({ length: 300 }, (_, i) => 1 / (i + 3));
    let naive = 0;
    for (const x of xs) naive += x;
    // blocks of 8 partial sums over halves of 144 and 156 items
    const block = (start: number, n: number): number => {
      const r = xs.slice(start, start + 8);
      let i = 8;
      for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j]! += xs[start + i + j]!;
      let res = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!));
      for (; i < n; i++) res += xs[start + i]!;
      return res;
    };
    // 300 -> halves of 144 and 156; each above 128 splits again (72 + 72, 72 + 84)
    const left = block(0, 72) + block(72, 72) + (block(144, 72) + block(216, 84));
    expect(pairwiseSum(xs, 0, xs.length)).toBe(left);
    expect(numpyMean([1, 2, 3])).toBe(2);
    expect(Math.abs(pairwiseSum(xs, 0, 300) - naive)).toBeLessThan(1e-12);
  });

  it('interpolates percentiles linearly and handles the last index', () => {
    const sorted = Float64Array.from([0, 10, 20, 30]);
    expect(numpyPercentileLinear(sorted, 50)).toBe(15);
    expect(numpyPercentileLinear(sorted, 100)).toBe(30);
    expect(numpyPercentileLinear(sorted, 0)).toBe(0);
  });

  it('returns [0, 0] with no strata and a degenerate interval for constant strata', () => {
    const settings = { iterations: 50, percentiles: [2.5, 97.5] as const };
    expect(stratifiedBootstrapCi(new Map(), Pcg64.fromSeed(1), settings)).toEqual([0, 0]);
    const ci = stratifiedBootstrapCi(
      new Map([
        ['a', [1, 1, 1]],
        ['b', [0]],
      ]),
      Pcg64.fromSeed(1),
      settings,
    );
    expect(ci).toEqual([0.5, 0.5]);
  });

  it('runs 1000 iterations over 1,038 tasks, the same for the same seed (time printed, not asserted)', () => {
    const sizes = [823, 111, 27, 7, 32, 38];
    const byType = new Map(
      sizes.map((n, t) => [String(t), Array.from({ length: n }, (_, i) => ((i * 7 + t) % 3) / 2)]),
    );
    const settings = { iterations: 1000, percentiles: [2.5, 97.5] as const };
    const start = performance.now();
    const first = stratifiedBootstrapCi(byType, Pcg64.fromSeed(20260705), settings);
    console.info(`bootstrap, 1000 iterations over 1,038 tasks: ${(performance.now() - start).toFixed(1)} ms`);
    const again = stratifiedBootstrapCi(byType, Pcg64.fromSeed(20260705), settings);
    expect(again).toEqual(first);
    expect(first[0]).toBeLessThan(first[1]!);
  });
});

describe('the sliced bootstrap (progress, a free thread between slices, Cancel)', () => {
  const byType = new Map([
    ['a', Array.from({ length: 97 }, (_, i) => (i % 3) / 2)],
    ['b', Array.from({ length: 13 }, (_, i) => i % 2)],
    ['c', [0.25, 1, 0]],
  ]);
  const settings = { iterations: 2500, percentiles: [2.5, 97.5] as const };

  it('gives the same intervals bit for bit and the same progress as the synchronous path, both intervals on one generator', async () => {
    const syncRng = Pcg64.fromSeed(20260705);
    const syncSteps: number[] = [];
    const syncCis = [1, 2].map(() =>
      stratifiedBootstrapCi(byType, syncRng, { ...settings, onProgress: (d) => syncSteps.push(d) }),
    );
    const slicedRng = Pcg64.fromSeed(20260705);
    const slicedSteps: number[] = [];
    const slicedCis = [];
    for (let i = 0; i < 2; i++) {
      slicedCis.push(
        await stratifiedBootstrapCiSliced(byType, slicedRng, { ...settings, onProgress: (d) => slicedSteps.push(d) }),
      );
    }
    expect(slicedCis).toEqual(syncCis);
    expect(slicedCis[0]).not.toEqual(slicedCis[1]);
    expect(slicedSteps).toEqual(syncSteps);
    expect(slicedSteps).toEqual([1000, 2000, 2500, 1000, 2000, 2500]);
    expect(slicedRng.getState()).toEqual(syncRng.getState());
  });

  it('lets a timer scheduled during the run fire before it ends, and stops at the next slice once aborted', async () => {
    const control = new AbortController();
    const steps: number[] = [];
    const run = stratifiedBootstrapCiSliced(byType, Pcg64.fromSeed(1), {
      ...settings,
      iterations: 100_000,
      signal: control.signal,
      onProgress: (done) => {
        steps.push(done);
        // a Cancel arrives as a message: it can only be heard if the run gives the thread back
        if (done === 2000) setTimeout(() => control.abort(), 0);
      },
    });
    const error: unknown = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BootstrapCancelled);
    expect((error as BootstrapCancelled).done).toBe(2000);
    expect(steps).toEqual([1000, 2000]);
  });

  it('does not start when the signal is aborted already', async () => {
    const control = new AbortController();
    control.abort();
    await expect(
      stratifiedBootstrapCiSliced(byType, Pcg64.fromSeed(1), { ...settings, signal: control.signal }),
    ).rejects.toBeInstanceOf(BootstrapCancelled);
  });
});
