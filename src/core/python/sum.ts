/**
 * CPython 3.12's built-in sum() over ints and floats, and the means score.py takes with it.
 * Python ints are bigint here, Python floats number: the kind decides how sum() adds.
 */

/** A Python number as score.py holds it: bigint for int (and bool), number for float. */
export type PyNumber = number | bigint;

const LONG_MAX = (1n << 63n) - 1n;
const LONG_MIN = -(1n << 63n);

function fitsLong(v: bigint): boolean {
  return v >= LONG_MIN && v <= LONG_MAX;
}

/** int + float as Python adds them: the int converted to the nearest double first. */
function intToFloat(v: bigint): number {
  const f = Number(v);
  if (!Number.isFinite(f)) throw new RangeError('OverflowError: int too large to convert to float');
  return f;
}

function plainAdd(a: PyNumber, b: PyNumber): PyNumber {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a + b;
  return (typeof a === 'bigint' ? intToFloat(a) : a) + (typeof b === 'bigint' ? intToFloat(b) : b);
}

/**
 * sum(items) with start 0, step for step as CPython 3.12 (Python/bltinmodule.c, builtin_sum_impl):
 * ints add exactly while the total fits a C long; the first float starts a float total with
 * Neumaier compensation; a later int that fits a C long is added to that total plainly; the
 * compensation is added once at the end, only when non-zero and finite; an int that does not
 * fit a C long folds the compensation in and every later item is added plainly.
 */
export function pySum(items: Iterable<PyNumber>): PyNumber {
  const it = items[Symbol.iterator]();
  let intTotal = 0n;
  let next = it.next();
  // int fast path
  for (; !next.done; next = it.next()) {
    const x = next.value;
    if (typeof x !== 'bigint') break;
    const total = intTotal + x;
    if (!fitsLong(x) || !fitsLong(total)) {
      intTotal = total;
      next = it.next();
      return addPlainly(intTotal, it, next);
    }
    intTotal = total;
  }
  if (next.done) return intTotal;
  // the first float: int + float, then the float loop
  let s = intToFloat(intTotal) + (next.value as number);
  let c = 0;
  for (next = it.next(); !next.done; next = it.next()) {
    const x = next.value;
    if (typeof x === 'number') {
      const t = s + x;
      c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
      s = t;
      continue;
    }
    if (fitsLong(x)) {
      s += Number(x);
      continue;
    }
    if (c !== 0 && Number.isFinite(c)) s += c;
    return addPlainly(s, it, next);
  }
  return c !== 0 && Number.isFinite(c) ? s + c : s;
}

function addPlainly(start: PyNumber, it: Iterator<PyNumber>, first: IteratorResult<PyNumber>): PyNumber {
  let total = start;
  for (let next = first; !next.done; next = it.next()) total = plainAdd(total, next.value);
  return total;
}

/** a / b for Python numbers (true division), correctly rounded also for ints beyond 2^53. */
export function pyTrueDiv(a: PyNumber, b: PyNumber): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return intTrueDiv(a, b);
  const x = typeof a === 'bigint' ? intToFloat(a) : a;
  const y = typeof b === 'bigint' ? intToFloat(b) : b;
  if (y === 0) throw new RangeError('ZeroDivisionError: float division by zero');
  return x / y;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** int / int: CPython rounds the exact quotient once (long_true_divide). */
function intTrueDiv(a: bigint, b: bigint): number {
  if (b === 0n) throw new RangeError('ZeroDivisionError: division by zero');
  const abs = (v: bigint): bigint => (v < 0n ? -v : v);
  if (abs(a) <= SAFE && abs(b) <= SAFE) return Number(a) / Number(b);
  const negative = a < 0n !== b < 0n;
  let n = abs(a);
  const d = abs(b);
  // scale so that the integer quotient has 55+ significant bits, then round half to even on the remainder
  const shift = Math.max(0, 55 - (n.toString(2).length - d.toString(2).length));
  n <<= BigInt(shift);
  const q = n / d;
  const r = n - q * d;
  // a sticky bit keeps round-half-even exact when Number() rounds q
  const sticky = r === 0n ? q : q | 1n;
  const magnitude = Number(sticky) / 2 ** shift;
  return negative ? -magnitude : magnitude;
}

/** sum(xs) / len(xs), the form of every mean in score.py; 0.0 for no items where score.py guards it. */
export function pyMean(xs: readonly PyNumber[]): number {
  if (xs.length === 0) return 0;
  return pyTrueDiv(pySum(xs), BigInt(xs.length));
}
