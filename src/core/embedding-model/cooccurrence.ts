/**
 * Symmetric windowed co-occurrence counts of token ids, weighted 1/distance, as a CSR matrix.
 * Pairs are bucketed by row first (counting sort), then each row is summed in a dense scratch
 * row, so memory stays O(pairs) instead of O(vocab^2).
 */
import type { CsrMatrix } from './sparse.ts';

export interface CooccurrenceOptions {
  /** Context tokens on each side. */
  window: number;
  /** Token ids that neither count nor act as context (e.g. special tokens). */
  ignore?: ReadonlySet<number>;
}

export function countCooccurrences(
  sequences: readonly Uint32Array[],
  vocabSize: number,
  options: CooccurrenceOptions,
): CsrMatrix {
  const { window } = options;
  const ignore = options.ignore ?? new Set<number>();
  const kept = sequences.map((seq) => seq.filter((id) => !ignore.has(id)));
  const pairsPerRow = new Float64Array(vocabSize);
  for (const seq of kept) {
    for (let i = 0; i < seq.length; i++) {
      const id = seq[i]!;
      if (id >= vocabSize) throw new Error(`token id ${id} is outside the vocabulary of ${vocabSize}`);
      const left = Math.min(window, i);
      const right = Math.min(window, seq.length - 1 - i);
      pairsPerRow[id] = pairsPerRow[id]! + left + right;
    }
  }
  const bucketStart = new Float64Array(vocabSize + 1);
  for (let r = 0; r < vocabSize; r++) bucketStart[r + 1] = bucketStart[r]! + pairsPerRow[r]!;
  const total = bucketStart[vocabSize]!;
  const pairCol = new Uint32Array(total);
  const pairWeight = new Float32Array(total);
  const fill = bucketStart.slice(0, vocabSize);
  for (const seq of kept) {
    for (let i = 0; i < seq.length; i++) {
      const id = seq[i]!;
      const lo = Math.max(0, i - window);
      const hi = Math.min(seq.length - 1, i + window);
      for (let j = lo; j <= hi; j++) {
        if (j === i) continue;
        const at = fill[id]!;
        pairCol[at] = seq[j]!;
        pairWeight[at] = 1 / Math.abs(j - i);
        fill[id] = at + 1;
      }
    }
  }
  const scratch = new Float64Array(vocabSize);
  const rowStart = new Uint32Array(vocabSize + 1);
  const colIndex: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < vocabSize; r++) {
    const touched: number[] = [];
    for (let k = bucketStart[r]!; k < bucketStart[r + 1]!; k++) {
      const c = pairCol[k]!;
      if (scratch[c] === 0) touched.push(c);
      scratch[c] = scratch[c]! + pairWeight[k]!;
    }
    touched.sort((a, b) => a - b);
    for (const c of touched) {
      colIndex.push(c);
      values.push(scratch[c]!);
      scratch[c] = 0;
    }
    rowStart[r + 1] = colIndex.length;
  }
  return {
    rows: vocabSize,
    cols: vocabSize,
    rowStart,
    colIndex: Uint32Array.from(colIndex),
    values: Float64Array.from(values),
  };
}
