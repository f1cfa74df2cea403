/** Builds a Bm25Index from chunks in one pass plus a counting sort (no per-term JS arrays). */
import { TF_ESCAPE } from './bm25-format.ts';
import { Bm25Index, BM25_B, BM25_K1 } from './bm25-index.ts';
import { ChunkTableBuilder } from './chunk-table.ts';
import { forEachToken } from './tokenize.ts';
import type { ChunkInput } from './types.ts';

export interface Bm25Options {
  k1?: number;
  b?: number;
}

/** A growable Uint32Array. */
class U32List {
  data: Uint32Array;
  length = 0;
  constructor(initial = 1024) {
    this.data = new Uint32Array(initial);
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }
  grow(min: number): void {
    const grown = new Uint32Array(Math.max(min, this.data.length * 2));
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
  }
}

export class Bm25Builder {
  private readonly k1: number;
  private readonly b: number;
  private readonly table = new ChunkTableBuilder();
  private readonly termIds = new Map<string, number>();
  private readonly termsByFirstSeen: string[] = [];
  /** Per term (first-seen id): last chunk that used it and where its posting sits. */
  private lastChunk = new U32List();
  private lastPosting = new U32List();
  /** Postings in chunk order: term (first-seen id) and tf. */
  private readonly postingTerm = new U32List(1 << 16);
  private readonly postingTf = new U32List(1 << 16);
  /** Index of each chunk's first posting. */
  private readonly chunkFirstPosting = new U32List();
  private readonly chunkLength = new U32List();
  private totalTokens = 0;
  private finished = false;

  constructor(options: Bm25Options = {}) {
    this.k1 = options.k1 ?? BM25_K1;
    this.b = options.b ?? BM25_B;
  }

  add(chunk: ChunkInput): void {
    if (this.finished) throw new Error('Bm25Builder: add() after finish()');
    const c = this.table.add(chunk.chunk_id, chunk.doc_id, `chunk ${this.chunkLength.length + 1}`);
    if (typeof chunk.text !== 'string') throw new Error(`chunk ${c + 1} (${chunk.chunk_id}): text must be a string`);
    // lastChunk stores chunk index + 1 so that 0 means "never seen".
    const mark = c + 1;
    this.chunkFirstPosting.push(this.postingTerm.length);
    let length = 0;
    forEachToken(chunk.text, (token) => {
      length++;
      let t = this.termIds.get(token);
      if (t === undefined) {
        t = this.termsByFirstSeen.length;
        this.termIds.set(token, t);
        this.termsByFirstSeen.push(token);
        this.lastChunk.push(0);
        this.lastPosting.push(0);
      }
      if (this.lastChunk.data[t] === mark) {
        const p = this.lastPosting.data[t]!;
        this.postingTf.data[p] = this.postingTf.data[p]! + 1;
      } else {
        this.lastChunk.data[t] = mark;
        this.lastPosting.data[t] = this.postingTerm.length;
        this.postingTerm.push(t);
        this.postingTf.push(1);
      }
    });
    this.chunkLength.push(length);
    this.totalTokens += length;
  }

  finish(): Bm25Index {
    this.finished = true;
    const numTerms = this.termsByFirstSeen.length;
    const order = Array.from({ length: numTerms }, (_, i) => i);
    const words = this.termsByFirstSeen;
    order.sort((x, y) => (words[x]! < words[y]! ? -1 : words[x]! > words[y]! ? 1 : 0));
    const sortedId = new Uint32Array(numTerms);
    order.forEach((old, rank) => {
      sortedId[old] = rank;
    });
    const numPostings = this.postingTerm.length;
    const postingStart = new Uint32Array(numTerms + 1);
    for (let p = 0; p < numPostings; p++) postingStart[sortedId[this.postingTerm.data[p]!]! + 1]!++;
    for (let t = 0; t < numTerms; t++) postingStart[t + 1] = postingStart[t + 1]! + postingStart[t]!;
    const cursor = postingStart.slice(0, numTerms);
    const postingChunk = new Uint32Array(numPostings);
    const postingTf = new Uint8Array(numPostings);
    const tfOverflow = new Map<number, number>();
    const numChunks = this.chunkLength.length;
    // Walking postings in chunk order keeps each term's chunk list ascending.
    for (let c = 0; c < numChunks; c++) {
      const from = this.chunkFirstPosting.data[c]!;
      const to = c + 1 < numChunks ? this.chunkFirstPosting.data[c + 1]! : numPostings;
      for (let p = from; p < to; p++) {
        const t = sortedId[this.postingTerm.data[p]!]!;
        const at = cursor[t]!;
        cursor[t] = at + 1;
        postingChunk[at] = c;
        const tf = this.postingTf.data[p]!;
        if (tf >= TF_ESCAPE) {
          postingTf[at] = TF_ESCAPE;
          tfOverflow.set(at, tf);
        } else {
          postingTf[at] = tf;
        }
      }
    }
    return new Bm25Index({
      k1: this.k1,
      b: this.b,
      totalTokens: this.totalTokens,
      terms: order.map((old) => words[old]!),
      postingStart,
      postingChunk,
      postingTf,
      tfOverflow,
      chunkLength: this.chunkLength.data.slice(0, numChunks),
      chunks: this.table.finish(),
    });
  }
}

export function buildBm25Index(chunks: Iterable<ChunkInput>, options: Bm25Options = {}): Bm25Index {
  const builder = new Bm25Builder(options);
  for (const chunk of chunks) builder.add(chunk);
  return builder.finish();
}
