/** Seeded pseudo-random numbers (mulberry32) so training is reproducible byte for byte. */
import { mulberry32 } from '../random.ts';

export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (Box-Muller). */
  gaussian(): number;
}

export function createPrng(seed: number): Prng {
  const next = mulberry32(seed);
  return {
    next,
    gaussian(): number {
      const u = 1 - next(); // (0, 1]: log is finite
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
}
