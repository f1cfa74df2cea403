/** Seeded pseudo-random numbers (mulberry32) so training is reproducible byte for byte. */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (Box-Muller). */
  gaussian(): number;
}

export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    gaussian(): number {
      const u = 1 - next(); // (0, 1]: log is finite
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
}
