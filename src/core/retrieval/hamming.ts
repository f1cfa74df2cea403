/** Binary sign codes and Hamming-distance candidate selection for the dense scan. */

/** Number of Uint32 words per code of `dim` bits. */
export function codeWords(dim: number): number {
  return Math.ceil(dim / 32);
}

/** Writes sign(x - mean) of one vector as packed bits (bit d set when x[d] > mean[d]). */
export function encodeSignCode(
  vector: ArrayLike<number>,
  vectorOffset: number,
  mean: ArrayLike<number>,
  out: Uint32Array,
  outOffset: number,
): void {
  const dim = mean.length;
  const words = codeWords(dim);
  for (let w = 0; w < words; w++) out[outOffset + w] = 0;
  for (let d = 0; d < dim; d++) {
    if (vector[vectorOffset + d]! - mean[d]! > 0) {
      const w = outOffset + (d >>> 5);
      out[w] = (out[w]! | (1 << (d & 31))) >>> 0;
    }
  }
}

/** SWAR population count of a 32-bit word. */
export function popcount32(value: number): number {
  let x = value - ((value >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * Indices of the `want` rows whose codes are nearest to `query` in Hamming distance; rows at
 * the cut-off distance are taken in index order. Returned in index order.
 */
export function hammingCandidates(
  codes: Uint32Array,
  words: number,
  query: Uint32Array,
  want: number,
  scratch: Uint16Array,
): Uint32Array {
  const count = scratch.length;
  if (want >= count) return Uint32Array.from({ length: count }, (_, i) => i);
  const histogram = new Uint32Array(words * 32 + 1);
  if (words === 12) {
    // The common 384-d case, unrolled.
    const q0 = query[0]!,
      q1 = query[1]!,
      q2 = query[2]!,
      q3 = query[3]!,
      q4 = query[4]!,
      q5 = query[5]!;
    const q6 = query[6]!,
      q7 = query[7]!,
      q8 = query[8]!,
      q9 = query[9]!,
      q10 = query[10]!,
      q11 = query[11]!;
    for (let r = 0, o = 0; r < count; r++, o += 12) {
      const dist =
        popcount32(codes[o]! ^ q0) +
        popcount32(codes[o + 1]! ^ q1) +
        popcount32(codes[o + 2]! ^ q2) +
        popcount32(codes[o + 3]! ^ q3) +
        popcount32(codes[o + 4]! ^ q4) +
        popcount32(codes[o + 5]! ^ q5) +
        popcount32(codes[o + 6]! ^ q6) +
        popcount32(codes[o + 7]! ^ q7) +
        popcount32(codes[o + 8]! ^ q8) +
        popcount32(codes[o + 9]! ^ q9) +
        popcount32(codes[o + 10]! ^ q10) +
        popcount32(codes[o + 11]! ^ q11);
      scratch[r] = dist;
      histogram[dist]!++;
    }
  } else {
    for (let r = 0, o = 0; r < count; r++, o += words) {
      let dist = 0;
      for (let w = 0; w < words; w++) dist += popcount32(codes[o + w]! ^ query[w]!);
      scratch[r] = dist;
      histogram[dist]!++;
    }
  }
  return selectNearest(scratch, histogram, want);
}

/**
 * The same candidates from distances computed elsewhere (the WebAssembly scan): one pass for the
 * histogram, one for the selection.
 */
export function nearestByDistance(distances: Uint16Array, words: number, want: number): Uint32Array {
  const count = distances.length;
  if (want >= count) return Uint32Array.from({ length: count }, (_, i) => i);
  const histogram = new Uint32Array(words * 32 + 1);
  for (let r = 0; r < count; r++) histogram[distances[r]!]!++;
  return selectNearest(distances, histogram, want);
}

function selectNearest(distances: Uint16Array, histogram: Uint32Array, want: number): Uint32Array {
  let cutoff = 0;
  let below = 0;
  while (below + histogram[cutoff]! < want) below += histogram[cutoff++]!;
  let atCutoff = want - below;
  const out = new Uint32Array(want);
  let n = 0;
  for (let r = 0; r < distances.length; r++) {
    const dist = distances[r]!;
    if (dist < cutoff || (dist === cutoff && atCutoff-- > 0)) out[n++] = r;
  }
  return out;
}
