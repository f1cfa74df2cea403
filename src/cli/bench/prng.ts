/** Seeded randomness for the synthetic benchmark data (mulberry32; not for anything secret). */

import type { Random } from '../../core/random.ts';

export { mulberry32, type Random } from '../../core/random.ts';

export function randomInt(r: Random, lo: number, hiInclusive: number): number {
  return lo + Math.floor(r() * (hiInclusive - lo + 1));
}

/** Standard normal (Box-Muller). */
export function gaussian(r: Random): number {
  const u = Math.max(r(), 1e-300);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

/** Vose alias table: O(1) sampling from fixed weights. */
export class AliasSampler {
  private readonly prob: Float64Array;
  private readonly alias: Uint32Array;

  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    let total = 0;
    for (let i = 0; i < n; i++) total += weights[i]!;
    this.prob = new Float64Array(n);
    this.alias = new Uint32Array(n);
    const scaled = Float64Array.from({ length: n }, (_, i) => (weights[i]! * n) / total);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((p, i) => (p < 1 ? small : large).push(i));
    while (small.length && large.length) {
      const s = small.pop()!;
      const l = large.pop()!;
      this.prob[s] = scaled[s]!;
      this.alias[s] = l;
      scaled[l] = scaled[l]! + scaled[s]! - 1;
      (scaled[l]! < 1 ? small : large).push(l);
    }
    for (const i of [...small, ...large]) this.prob[i] = 1;
  }

  sample(r: Random): number {
    const i = Math.floor(r() * this.prob.length);
    return r() < this.prob[i]! ? i : this.alias[i]!;
  }
}
