import type { Chunk } from '../release/types.ts';

/**
 * What pooling and the gauntlet need from a retriever. The real BM25 / dense / hybrid retrievers
 * of src/core/retrieval can be wrapped in this shape and passed to the pipeline instead.
 */
export interface Retriever {
  name: string;
  /** Ranked doc ids (best first), at most k. */
  search(query: string, k: number): string[];
}

/** Benchmark parameters (docs/benchmark-spec.md 3). */
export const BM25_K1 = 1.5;
export const BM25_B = 0.75;

export function bm25Tokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]{2,}/g) ?? [];
}

/**
 * Plain Okapi BM25 over chunks; a doc scores its best chunk. Ties keep the chunks' insertion
 * order (the benchmark's tie order is not stable anyway).
 */
export class PoolBm25 implements Retriever {
  readonly name = 'bm25';
  private readonly postings = new Map<string, { chunk: number; tf: number }[]>();
  private readonly lengths: Uint32Array;
  private readonly docOfChunk: string[];
  private readonly avgLength: number;

  constructor(chunks: readonly Chunk[]) {
    this.lengths = new Uint32Array(chunks.length);
    this.docOfChunk = chunks.map((c) => c.doc_id);
    let total = 0;
    chunks.forEach((chunk, i) => {
      const tokens = bm25Tokens(chunk.text);
      this.lengths[i] = tokens.length;
      total += tokens.length;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push({ chunk: i, tf: n });
      }
    });
    this.avgLength = chunks.length > 0 ? total / chunks.length : 0;
  }

  search(query: string, k: number): string[] {
    const n = this.lengths.length;
    const scores = new Float64Array(n);
    const touched: number[] = [];
    for (const term of new Set(bm25Tokens(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { chunk, tf } of list) {
        if (scores[chunk] === 0) touched.push(chunk);
        const norm = BM25_K1 * (1 - BM25_B + (BM25_B * this.lengths[chunk]!) / this.avgLength);
        scores[chunk] = scores[chunk]! + (idf * tf * (BM25_K1 + 1)) / (tf + norm);
      }
    }
    touched.sort((a, b) => a - b);
    const best = new Map<string, number>();
    for (const c of touched) {
      const doc = this.docOfChunk[c]!;
      const s = scores[c]!;
      if (s > (best.get(doc) ?? -1)) best.set(doc, s);
    }
    return [...best.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([doc]) => doc);
  }
}
