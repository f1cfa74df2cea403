/**
 * Okapi BM25 over chunks, documents ranked by their best chunk (the benchmark's retriever,
 * docs/benchmark-spec.md section 3):
 *   idf(t)      = ln(1 + (N - df + 0.5) / (df + 0.5)), N = number of chunks
 *   score(c, q) = sum over distinct query terms t of
 *                 idf(t) * (tf * (k1 + 1)) / (tf + k1 * (1 - b + b * dl / avgdl))
 * summed in query-term order (first occurrence), in float64. Term-at-a-time into a Float64Array
 * accumulator with a touched list, then a heap top-k.
 *
 * Ties: documents with equal scores are ordered by document index (first appearance in the
 * chunk input), and a document's best chunk is the lowest chunk index among its equal-best
 * chunks. (The benchmark's own tie order depends on Python set ordering, so it is not stable.)
 */
import { TF_ESCAPE } from './bm25-format.ts';
import type { LazyPostings } from './bm25-postings.ts';
import type { ChunkTable } from './chunk-table.ts';
import { selectTopK } from './top-k.ts';
import { queryTerms } from './tokenize.ts';
import type { RankedChunk, RankedDoc, Retriever } from './types.ts';

export const BM25_K1 = 1.5;
export const BM25_B = 0.75;
export { TF_ESCAPE } from './bm25-format.ts';

export interface Bm25Data {
  k1: number;
  b: number;
  /** Sum of chunk lengths in tokens; avgdl = totalTokens / N. */
  totalTokens: number;
  /** Term dictionary, sorted by UTF-16 code unit (= byte order: terms are ASCII). */
  terms: string[];
  /** Postings of term t are [postingStart[t], postingStart[t + 1]); df = their count. */
  postingStart: Uint32Array;
  /** Chunk index of each posting, ascending within a term. */
  postingChunk: Uint32Array;
  /** tf of each posting, exact below TF_ESCAPE. */
  postingTf: Uint8Array;
  /** posting index -> tf for postings whose tf >= TF_ESCAPE. */
  tfOverflow: Map<number, number>;
  /** Chunk length in tokens. */
  chunkLength: Uint32Array;
  chunks: ChunkTable;
  /**
   * Set when the postings arrays are filled term by term on first use (a lazily loaded file);
   * code reading postingChunk / postingTf directly must call Bm25Index.decodeAllPostings() first.
   */
  lazy?: LazyPostings;
}

export class Bm25Index implements Retriever {
  readonly data: Bm25Data;
  readonly numChunks: number;
  readonly avgdl: number;
  /** k1 * (1 - b + b * dl / avgdl) per chunk, computed once with the formula's operations. */
  private readonly lengthNorm: Float64Array;
  private readonly acc: Float64Array;
  private readonly touched: Uint32Array;
  private readonly docBest: Float64Array;
  private readonly docBestChunk: Int32Array;
  private readonly touchedDocs: Uint32Array;

  constructor(data: Bm25Data) {
    this.data = data;
    this.numChunks = data.chunkLength.length;
    this.avgdl = this.numChunks > 0 ? data.totalTokens / this.numChunks : 0;
    const { k1, b } = data;
    this.lengthNorm = new Float64Array(this.numChunks);
    for (let c = 0; c < this.numChunks; c++) {
      this.lengthNorm[c] = k1 * (1 - b + (b * data.chunkLength[c]!) / this.avgdl);
    }
    this.acc = new Float64Array(this.numChunks);
    this.touched = new Uint32Array(this.numChunks);
    const numDocs = data.chunks.docIds.length;
    this.docBest = new Float64Array(numDocs);
    this.docBestChunk = new Int32Array(numDocs).fill(-1);
    this.touchedDocs = new Uint32Array(numDocs);
  }

  /** Makes every posting readable in `data` (no-op unless the index was loaded lazily). */
  decodeAllPostings(): void {
    this.data.lazy?.decodeAll();
  }

  /** Decodes about `budget` more postings of a lazily loaded index; true once all are decoded. */
  decodePostingsSome(budget: number): boolean {
    return this.data.lazy?.decodeSome(budget) ?? true;
  }

  get numTerms(): number {
    return this.data.terms.length;
  }

  /** Term id by binary search over the sorted dictionary, or -1. */
  termId(term: string): number {
    const terms = this.data.terms;
    let lo = 0;
    let hi = terms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const t = terms[mid]!;
      if (t === term) return mid;
      if (t < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  df(termId: number): number {
    return this.data.postingStart[termId + 1]! - this.data.postingStart[termId]!;
  }

  idf(df: number): number {
    return Math.log(1 + (this.numChunks - df + 0.5) / (df + 0.5));
  }

  /** Top-k documents for a query text (doc score = best chunk score). */
  search(query: string, k: number): RankedDoc[] {
    const touchedCount = this.accumulate(queryTerms(query));
    const { chunkIds, docIds, chunkDoc } = this.data.chunks;
    const { acc, touched, docBest, docBestChunk, touchedDocs } = this;
    let docCount = 0;
    for (let i = 0; i < touchedCount; i++) {
      const c = touched[i]!;
      const d = chunkDoc[c]!;
      const s = acc[c]!;
      const prev = docBestChunk[d]!;
      if (prev < 0) {
        touchedDocs[docCount++] = d;
        docBest[d] = s;
        docBestChunk[d] = c;
      } else if (s > docBest[d]! || (s === docBest[d]! && c < prev)) {
        docBest[d] = s;
        docBestChunk[d] = c;
      }
    }
    const top = selectTopK(touchedDocs, docCount, docBest, k);
    const out = top.map((d) => ({ doc_id: docIds[d]!, score: docBest[d]!, chunk_id: chunkIds[docBestChunk[d]!]! }));
    for (let i = 0; i < docCount; i++) docBestChunk[touchedDocs[i]!] = -1;
    this.reset(touchedCount);
    return out;
  }

  /** Top-k chunks for a query text; ties by chunk index. */
  searchChunks(query: string, k: number): RankedChunk[] {
    const touchedCount = this.accumulate(queryTerms(query));
    const { chunkIds, docIds, chunkDoc } = this.data.chunks;
    const top = selectTopK(this.touched, touchedCount, this.acc, k);
    const out = top.map((c) => ({ chunk_id: chunkIds[c]!, doc_id: docIds[chunkDoc[c]!]!, score: this.acc[c]! }));
    this.reset(touchedCount);
    return out;
  }

  /** Adds every query term's contributions into acc; returns how many chunks were touched. */
  private accumulate(terms: readonly string[]): number {
    const { postingStart, postingChunk, postingTf, tfOverflow, k1, lazy } = this.data;
    const { acc, touched, lengthNorm } = this;
    const k1p1 = k1 + 1;
    let touchedCount = 0;
    for (const term of terms) {
      const t = this.termId(term);
      if (t < 0) continue;
      lazy?.ensure(t);
      const start = postingStart[t]!;
      const end = postingStart[t + 1]!;
      const idf = this.idf(end - start);
      for (let p = start; p < end; p++) {
        const c = postingChunk[p]!;
        let tf = postingTf[p]!;
        if (tf === TF_ESCAPE) tf = tfOverflow.get(p)!;
        // A touched chunk always has a positive score (idf > 0, tf >= 1), so 0 means untouched.
        if (acc[c] === 0) touched[touchedCount++] = c;
        acc[c] = acc[c]! + (idf * (tf * k1p1)) / (tf + lengthNorm[c]!);
      }
    }
    return touchedCount;
  }

  private reset(touchedCount: number): void {
    for (let i = 0; i < touchedCount; i++) this.acc[this.touched[i]!] = 0;
  }
}
