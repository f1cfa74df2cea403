/** Python's round(x, n) for floats, as the report depends on it (repr(x) is in release/py-json.ts). */

const view = new DataView(new ArrayBuffer(8));

/** Exact binary value of a finite double as mantissa * 2^exponent (mantissa a non-negative BigInt). */
function decompose(x: number): { negative: boolean; mantissa: bigint; exponent: number } {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const negative = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  const fracHi = hi & 0xfffff;
  let mantissa = (BigInt(fracHi) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) {
    exponent = -1074;
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  return { negative, mantissa, exponent };
}

/**
 * Python's round(x, ndigits) for a float and ndigits >= 0: the exact binary value rounded
 * half-to-even at the decimal digit, then read back as the nearest double (CPython's
 * dtoa-based double_round), not Math.round(x * 10^n) / 10^n.
 */
export function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (!Number.isInteger(ndigits) || ndigits < 0 || ndigits > 300)
    throw new RangeError('pyRound: ndigits must be 0..300');
  const { negative, mantissa, exponent } = decompose(x);
  if (exponent >= 0) return x;
  const scaled = mantissa * 10n ** BigInt(ndigits);
  const den = 1n << BigInt(-exponent);
  let q = scaled / den;
  const twiceRest = (scaled - q * den) * 2n;
  if (twiceRest > den || (twiceRest === den && (q & 1n) === 1n)) q += 1n;
  return Number(`${negative ? '-' : ''}${q}e-${ndigits}`);
}
