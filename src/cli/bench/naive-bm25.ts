/**
 * The naive BM25 baseline: no inverted index at query time, every query scans every chunk's
 * term ids and scores it with the same formula. Ranks like Bm25Index, so the bench can also
 * check that both agree.
 */
import { TF_ESCAPE, type Bm25Index } from '../../core/retrieval/bm25-index.ts';
import { queryTerms } from '../../core/retrieval/tokenize.ts';
import type { RankedDoc } from '../../core/retrieval/types.ts';

export class NaiveBm25 {
  private readonly tokens: Uint32Array;
  private readonly chunkStart: Uint32Array;
  private readonly queryPos: Int32Array;

  /**
   * Lays every chunk out as its bag of term ids, rebuilt from the index's postings (token order
   * inside a chunk does not matter to BM25), so the baseline needs no second pass over the text.
   */
  constructor(private readonly index: Bm25Index) {
    index.decodeAllPostings();
    const { postingStart, postingChunk, postingTf, tfOverflow, chunkLength } = index.data;
    const numChunks = index.numChunks;
    this.chunkStart = new Uint32Array(numChunks + 1);
    for (let c = 0; c < numChunks; c++) this.chunkStart[c + 1] = this.chunkStart[c]! + chunkLength[c]!;
    this.tokens = new Uint32Array(index.data.totalTokens);
    const cursor = this.chunkStart.slice(0, numChunks);
    for (let t = 0; t < index.numTerms; t++) {
      for (let p = postingStart[t]!; p < postingStart[t + 1]!; p++) {
        const c = postingChunk[p]!;
        const tf = postingTf[p] === TF_ESCAPE ? tfOverflow.get(p)! : postingTf[p]!;
        for (let i = 0; i < tf; i++) this.tokens[cursor[c]!++] = t;
      }
    }
    this.queryPos = new Int32Array(index.numTerms).fill(-1);
  }

  search(query: string, k: number): RankedDoc[] {
    const { index, tokens, chunkStart, queryPos } = this;
    const ids = queryTerms(query)
      .map((t) => index.termId(t))
      .filter((t) => t >= 0);
    ids.forEach((t, i) => (queryPos[t] = i));
    const idf = ids.map((t) => index.idf(index.df(t)));
    const { k1, b } = index.data;
    const tf = new Float64Array(ids.length);
    const best = new Map<number, { score: number; chunk: number }>();
    for (let c = 0; c < index.numChunks; c++) {
      tf.fill(0);
      let any = false;
      for (let p = chunkStart[c]!; p < chunkStart[c + 1]!; p++) {
        const q = queryPos[tokens[p]!]!;
        if (q >= 0) {
          tf[q]!++;
          any = true;
        }
      }
      if (!any) continue;
      const dl = chunkStart[c + 1]! - chunkStart[c]!;
      let score = 0;
      for (let q = 0; q < ids.length; q++) {
        const f = tf[q]!;
        if (f > 0) score += (idf[q]! * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * dl) / index.avgdl));
      }
      const d = index.data.chunks.chunkDoc[c]!;
      const prev = best.get(d);
      if (!prev || score > prev.score) best.set(d, { score, chunk: c });
    }
    ids.forEach((t) => (queryPos[t] = -1));
    const { docIds, chunkIds } = index.data.chunks;
    return [...best.entries()]
      .sort((x, y) => y[1].score - x[1].score || x[0] - y[0])
      .slice(0, k)
      .map(([d, v]) => ({ doc_id: docIds[d]!, score: v.score, chunk_id: chunkIds[v.chunk]! }));
  }
}
