/**
 * Top-k selection with a bounded min-heap. Order: score descending, then id ascending, so
 * ties come out in a stable, documented order (lower index first).
 */

/** True when (sa, ia) ranks below (sb, ib). */
function ranksBelow(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa < sb || (sa === sb && ia > ib);
}

/**
 * Picks the best `k` of `candidates[0..count)`, scored by `scores[id]`, and returns their ids
 * best first.
 */
export function selectTopK(
  candidates: ArrayLike<number>,
  count: number,
  scores: ArrayLike<number>,
  k: number,
): number[] {
  const size = Math.min(Math.floor(k), count);
  if (!(size > 0)) return [];
  const heap = new Int32Array(size); // heap[0] is the worst kept
  let n = 0;
  const siftDown = (start: number): void => {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      let worst = l;
      if (r < n && ranksBelow(scores[heap[r]!]!, heap[r]!, scores[heap[l]!]!, heap[l]!)) worst = r;
      if (!ranksBelow(scores[heap[worst]!]!, heap[worst]!, scores[heap[i]!]!, heap[i]!)) return;
      const tmp = heap[i]!;
      heap[i] = heap[worst]!;
      heap[worst] = tmp;
      i = worst;
    }
  };
  for (let c = 0; c < count; c++) {
    const id = candidates[c]!;
    const s = scores[id]!;
    if (n < size) {
      let i = n++;
      heap[i] = id;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!ranksBelow(s, id, scores[heap[p]!]!, heap[p]!)) break;
        heap[i] = heap[p]!;
        heap[p] = id;
        i = p;
      }
    } else if (ranksBelow(scores[heap[0]!]!, heap[0]!, s, id)) {
      heap[0] = id;
      siftDown(0);
    }
  }
  const out = Array.from(heap.subarray(0, n));
  out.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return out;
}
