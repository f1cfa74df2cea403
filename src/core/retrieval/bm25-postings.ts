/**
 * Decoding of the BM25 file's postings section (per term: varint chunk gap, varint tf), either all
 * at once or term by term on first use. Decoding every posting costs about 0.8 s at full v1.0
 * scale (28M postings); a query needs a handful of terms, so a lazily loaded index answers its
 * first query after only a byte scan that finds where each term's postings start.
 */
import { IndexFormatError } from './binary-container.ts';
import { TF_ESCAPE } from './bm25-format.ts';

const WHAT = 'BM25 index file';

export interface PostingArrays {
  postingChunk: Uint32Array;
  postingTf: Uint8Array;
  tfOverflow: Map<number, number>;
}

function postingsError(message: string, byte: number): never {
  throw new IndexFormatError(`${WHAT}: postings ${message} (byte ${byte})`);
}

/** A varint of two or more bytes starting at `start`; values stay below 2^35. */
function readLongVarint(bytes: Uint8Array, start: number, end: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  let pos = start;
  for (;;) {
    if (pos >= end || scale > 2 ** 28) postingsError('truncated or overlong varint', pos);
    const byte = bytes[pos++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: pos };
    scale *= 0x80;
  }
}

/**
 * Decodes `count` postings of term `term` from bytes[start, end) into the arrays at `first`;
 * returns the byte after the last one. Checks order, range and tf like the writer's invariants.
 */
export function decodeTermPostings(
  bytes: Uint8Array,
  start: number,
  end: number,
  term: number,
  count: number,
  first: number,
  numChunks: number,
  out: PostingArrays,
): number {
  const { postingChunk, postingTf, tfOverflow } = out;
  let pos = start;
  let chunk = -1;
  for (let i = 0, p = first; i < count; i++, p++) {
    if (pos + 1 >= end) postingsError(`truncated (term ${term})`, pos);
    let gap = bytes[pos++]!;
    if (gap >= 0x80) {
      const v = readLongVarint(bytes, pos - 1, end);
      gap = v.value;
      pos = v.next;
      if (pos >= end) postingsError(`truncated (term ${term})`, pos);
    }
    let tf = bytes[pos++]!;
    if (tf >= 0x80) {
      const v = readLongVarint(bytes, pos - 1, end);
      tf = v.value;
      pos = v.next;
    }
    chunk = i === 0 ? gap : chunk + gap;
    if ((i > 0 && gap === 0) || chunk >= numChunks)
      postingsError(`chunk index ${chunk} out of order or range (term ${term})`, pos);
    if (tf === 0) postingsError(`zero tf (term ${term})`, pos);
    postingChunk[p] = chunk;
    if (tf >= TF_ESCAPE) {
      postingTf[p] = TF_ESCAPE;
      tfOverflow.set(p, tf);
    } else {
      postingTf[p] = tf;
    }
  }
  return pos;
}

/** Every term's postings, in dictionary order. */
export function decodeAllPostings(
  bytes: Uint8Array,
  postingStart: Uint32Array,
  numChunks: number,
  out: PostingArrays,
): void {
  let pos = 0;
  const numTerms = postingStart.length - 1;
  for (let t = 0; t < numTerms; t++) {
    const first = postingStart[t]!;
    pos = decodeTermPostings(bytes, pos, bytes.length, t, postingStart[t + 1]! - first, first, numChunks, out);
  }
  if (pos !== bytes.length) postingsError(`has ${bytes.length - pos} bytes left over`, pos);
}

/**
 * Postings decoded term by term on first use. Construction scans the bytes once for varint ends
 * (each posting is two varints) to find where each term starts; a damaged term is reported when
 * it is decoded, and again by every later use.
 */
export class LazyPostings {
  private readonly termByteStart: Uint32Array;
  private readonly decoded: Uint8Array;
  private undecoded: number;
  /** Next term decodeSome() looks at. */
  private cursor = 0;
  private failure: IndexFormatError | undefined;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly postingStart: Uint32Array,
    private readonly numChunks: number,
    private readonly out: PostingArrays,
  ) {
    const numTerms = postingStart.length - 1;
    this.termByteStart = new Uint32Array(numTerms + 1);
    this.decoded = new Uint8Array(numTerms);
    this.undecoded = numTerms;
    const n = bytes.length;
    let pos = 0;
    for (let t = 0; t < numTerms; t++) {
      this.termByteStart[t] = pos;
      let varints = 2 * (postingStart[t + 1]! - postingStart[t]!);
      while (varints > 0) {
        if (pos >= n) postingsError(`truncated (term ${t})`, pos);
        if (bytes[pos++]! < 0x80) varints--;
      }
    }
    if (pos !== n) postingsError(`has ${n - pos} bytes left over`, pos);
    this.termByteStart[numTerms] = pos;
  }

  get complete(): boolean {
    return this.undecoded === 0;
  }

  /** Makes term t's postings readable in the arrays (throws IndexFormatError if they are damaged). */
  ensure(t: number): void {
    if (this.failure) throw this.failure;
    if (this.decoded[t]) return;
    const first = this.postingStart[t]!;
    const end = this.termByteStart[t + 1]!;
    try {
      const stop = decodeTermPostings(
        this.bytes,
        this.termByteStart[t]!,
        end,
        t,
        this.postingStart[t + 1]! - first,
        first,
        this.numChunks,
        this.out,
      );
      if (stop !== end) postingsError(`term ${t} has ${end - stop} bytes left over`, stop);
    } catch (e) {
      if (e instanceof IndexFormatError) this.failure = e;
      throw e;
    }
    this.decoded[t] = 1;
    this.undecoded--;
  }

  /** Decodes terms in dictionary order until about `budget` postings are done; true when all are. */
  decodeSome(budget: number): boolean {
    const numTerms = this.decoded.length;
    let spent = 0;
    while (this.cursor < numTerms && spent < budget) {
      const t = this.cursor++;
      if (this.decoded[t]) continue;
      this.ensure(t);
      spent += this.postingStart[t + 1]! - this.postingStart[t]!;
    }
    return this.complete;
  }

  decodeAll(): void {
    this.decodeSome(Infinity);
  }
}
