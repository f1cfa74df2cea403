/**
 * The naive BM25 baseline: no inverted index, every query scans every pre-tokenised chunk
 * (term ids) and scores it with the same formula. Ranks like Bm25Index, so the bench can also
 * check that both agree.
 */
import type { Bm25Index } from '../../core/retrieval/bm25-index.ts';
import { forEachToken, queryTerms } from '../../core/retrieval/tokenize.ts';
import type { ChunkInput, RankedDoc } from '../../core/retrieval/types.ts';

export class NaiveBm25 {
  private readonly tokens: Uint32Array;
  private readonly chunkStart: Uint32Array;
  private readonly queryPos: Int32Array;

  constructor(
    private readonly index: Bm25Index,
    chunks: readonly ChunkInput[],
  ) {
    const termId = new Map(index.data.terms.map((t, i) => [t, i]));
    this.chunkStart = new Uint32Array(chunks.length + 1);
    this.tokens = new Uint32Array(index.data.totalTokens);
    let n = 0;
    chunks.forEach((c, i) => {
      this.chunkStart[i] = n;
      forEachToken(c.text, (t) => {
        this.tokens[n++] = termId.get(t)!;
      });
    });
    this.chunkStart[chunks.length] = n;
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
