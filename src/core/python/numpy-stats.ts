/** numpy's float64 summation, mean and linear percentile, reproduced to the last bit. */

const PW_BLOCKSIZE = 128;

/** numpy's pairwise_sum for float64: 8 partial sums per block, halving above 128 items. */
export function pairwiseSum(a: ArrayLike<number>, start: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[start + i]!;
    return res;
  }
  if (n <= PW_BLOCKSIZE) {
    let r0 = a[start]!,
      r1 = a[start + 1]!,
      r2 = a[start + 2]!,
      r3 = a[start + 3]!;
    let r4 = a[start + 4]!,
      r5 = a[start + 5]!,
      r6 = a[start + 6]!,
      r7 = a[start + 7]!;
    let i = 8;
    const end = n - (n % 8);
    for (; i < end; i += 8) {
      const p = start + i;
      r0 += a[p]!;
      r1 += a[p + 1]!;
      r2 += a[p + 2]!;
      r3 += a[p + 3]!;
      r4 += a[p + 4]!;
      r5 += a[p + 5]!;
      r6 += a[p + 6]!;
      r7 += a[p + 7]!;
    }
    let res = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) res += a[start + i]!;
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, start, n2) + pairwiseSum(a, start + n2, n - n2);
}

/** np.mean of a float64 array: add.reduce (identity 0.0, then pairwise) divided by n. */
export function numpyMean(a: ArrayLike<number>): number {
  return (0 + pairwiseSum(a, 0, a.length)) / a.length;
}

/** np.percentile(a, q) with the default 'linear' method (numpy 1.24 _quantile + _lerp). */
export function numpyPercentileLinear(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError('percentile of an empty array');
  const virtualIndex = (n - 1) * (q / 100);
  if (virtualIndex >= n - 1) return sorted[n - 1]!;
  if (virtualIndex < 0) return sorted[0]!;
  const previousIndex = Math.floor(virtualIndex);
  const previous = sorted[previousIndex]!;
  const next = sorted[previousIndex + 1]!;
  const gamma = virtualIndex - previousIndex;
  const diff = next - previous;
  return gamma >= 0.5 ? next - diff * (1 - gamma) : previous + diff * gamma;
}
