/**
 * numpy.random.Generator.integers(low, high, size) for the int64 dtype with ranges below
 * 2^32: numpy's random_bounded_uint64_fill, which for such ranges uses Lemire's method on
 * uint32 draws (no draw at all when the range holds a single value).
 */
import type { Pcg64 } from './pcg64.ts';

const TWO_32 = 4294967296;

/** Fills `out` with integers in [low, high), as rng.integers(low, high, out.length). */
export function fillBoundedIntegers(rng: Pcg64, low: number, high: number, out: Int32Array | Float64Array): void {
  const range = high - 1 - low;
  if (!Number.isInteger(low) || !Number.isInteger(high) || range < 0)
    throw new RangeError(`integers(${low}, ${high}): empty range`);
  if (range === 0) {
    out.fill(low);
    return;
  }
  if (range >= TWO_32 - 1) throw new RangeError('integers(): ranges of 2^32 or more are not ported');
  const rangeExcl = range + 1;
  // (UINT32_MAX - range) % rangeExcl, numpy's rejection threshold
  const threshold = (TWO_32 - 1 - range) % rangeExcl;
  const exactProduct = rangeExcl < 2097152; // product < 2^53: plain double multiply is exact
  for (let i = 0; i < out.length; i++) {
    let hi: number;
    let leftover: number;
    for (;;) {
      const x = rng.nextUint32();
      if (exactProduct) {
        const m = x * rangeExcl;
        hi = Math.floor(m / TWO_32);
        leftover = m - hi * TWO_32;
      } else {
        const a = (x >>> 16) * rangeExcl;
        const b = (x & 0xffff) * rangeExcl;
        const aHi = Math.floor(a / 65536);
        const rest = (a - aHi * 65536) * 65536 + b;
        const restHi = Math.floor(rest / TWO_32);
        hi = aHi + restHi;
        leftover = rest - restHi * TWO_32;
      }
      // numpy only computes the threshold when leftover < rangeExcl; the outcome is the same
      if (leftover >= threshold) break;
    }
    out[i] = low + hi;
  }
}
