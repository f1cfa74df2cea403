/**
 * The BM25 index file (one binary container, see binary-container.ts), magic "EBBM25\0\0":
 * header JSON: kind, k1, b, numChunks, numDocs, numTerms, numPostings, totalTokens, avgdl,
 * tokenizer; sections:
 *   terms        sorted terms joined by "\n" (ASCII)
 *   df           u32[numTerms]
 *   postings     per term in dictionary order, per posting: varint chunk gap (first: the chunk
 *                index itself), varint tf; decoded into typed arrays at load or, with
 *                lazyPostings, term by term on first use (bm25-postings.ts)
 *   chunkLength  u32[numChunks], tokens per chunk
 *   chunkDoc     u32[numChunks], document index per chunk
 *   chunkIds     chunk ids joined by NUL (UTF-8)
 *   docIds       document ids joined by NUL (UTF-8)
 */
import { IndexFormatError, headerNumber, readContainer, typedView, writeContainer } from './binary-container.ts';
import { TF_ESCAPE } from './bm25-format.ts';
import { Bm25Index } from './bm25-index.ts';
import { decodeStringList, encodeStringList } from './chunk-table.ts';
import { decodeAllPostings, LazyPostings, type PostingArrays } from './bm25-postings.ts';
import { ByteWriter } from './varint.ts';

export const BM25_MAGIC = 'EBBM25\0\0';
export const BM25_FORMAT_VERSION = 1;
const WHAT = 'BM25 index file';

export function serializeBm25(index: Bm25Index): Uint8Array {
  index.decodeAllPostings();
  const d = index.data;
  const numTerms = d.terms.length;
  const postings = new ByteWriter(Math.max(1024, d.postingChunk.length * 2));
  const df = new Uint32Array(numTerms);
  for (let t = 0; t < numTerms; t++) {
    const start = d.postingStart[t]!;
    const end = d.postingStart[t + 1]!;
    df[t] = end - start;
    let prev = 0;
    for (let p = start; p < end; p++) {
      const c = d.postingChunk[p]!;
      postings.writeVarint(c - prev);
      prev = c;
      const tf = d.postingTf[p]!;
      postings.writeVarint(tf === TF_ESCAPE ? d.tfOverflow.get(p)! : tf);
    }
  }
  return writeContainer(
    BM25_MAGIC,
    BM25_FORMAT_VERSION,
    {
      kind: 'bm25',
      k1: d.k1,
      b: d.b,
      numChunks: index.numChunks,
      numDocs: d.chunks.docIds.length,
      numTerms,
      numPostings: d.postingChunk.length,
      totalTokens: d.totalTokens,
      avgdl: index.avgdl,
      tokenizer: 'lowercase, [a-z0-9]{2,}',
    },
    [
      { name: 'terms', data: new TextEncoder().encode(d.terms.join('\n')) },
      { name: 'df', data: df },
      { name: 'postings', data: postings.bytes() },
      { name: 'chunkLength', data: d.chunkLength },
      { name: 'chunkDoc', data: d.chunks.chunkDoc },
      { name: 'chunkIds', data: encodeStringList(d.chunks.chunkIds) },
      { name: 'docIds', data: encodeStringList(d.chunks.docIds) },
    ],
  );
}

export interface Bm25LoadOptions {
  /**
   * Decode each term's postings on first use instead of all at load: the first query comes about
   * 0.8 s sooner at full v1.0 scale; a damaged postings section is then reported by the query
   * (or background decoding) that reaches it rather than by the load.
   */
  lazyPostings?: boolean;
}

/** Loads an index file; checks structure so a damaged or foreign file fails with a clear error. */
export function loadBm25(data: ArrayBuffer | Uint8Array, options: Bm25LoadOptions = {}): Bm25Index {
  const file = readContainer(data, BM25_MAGIC, BM25_FORMAT_VERSION, WHAT);
  const h = file.header;
  const k1 = headerNumber(h, 'k1', WHAT);
  const b = headerNumber(h, 'b', WHAT);
  const numChunks = headerNumber(h, 'numChunks', WHAT, true);
  const numDocs = headerNumber(h, 'numDocs', WHAT, true);
  const numTerms = headerNumber(h, 'numTerms', WHAT, true);
  const numPostings = headerNumber(h, 'numPostings', WHAT, true);
  const totalTokens = headerNumber(h, 'totalTokens', WHAT, true);

  const termsText = new TextDecoder().decode(file.section('terms'));
  const terms = numTerms === 0 ? [] : termsText.split('\n');
  if (terms.length !== numTerms)
    throw new IndexFormatError(`${WHAT}: expected ${numTerms} terms, found ${terms.length}`);
  for (let t = 1; t < numTerms; t++) {
    if (!(terms[t - 1]! < terms[t]!)) throw new IndexFormatError(`${WHAT}: terms not strictly sorted at term ${t}`);
  }
  const df = typedView(Uint32Array, file.section('df'), numTerms, `${WHAT} section df`);
  const chunkLength = typedView(Uint32Array, file.section('chunkLength'), numChunks, `${WHAT} section chunkLength`);
  const chunkDoc = typedView(Uint32Array, file.section('chunkDoc'), numChunks, `${WHAT} section chunkDoc`);
  const chunkIds = decodeStringList(file.section('chunkIds'), numChunks, `${WHAT} section chunkIds`);
  const docIds = decodeStringList(file.section('docIds'), numDocs, `${WHAT} section docIds`);
  for (let c = 0; c < numChunks; c++) {
    if (chunkDoc[c]! >= numDocs)
      throw new IndexFormatError(`${WHAT}: chunk ${c} points to document ${chunkDoc[c]} of ${numDocs}`);
  }
  let lengthSum = 0;
  for (let c = 0; c < numChunks; c++) lengthSum += chunkLength[c]!;
  if (lengthSum !== totalTokens)
    throw new IndexFormatError(`${WHAT}: chunk lengths sum to ${lengthSum}, header says ${totalTokens}`);

  const postingStart = new Uint32Array(numTerms + 1);
  for (let t = 0; t < numTerms; t++) postingStart[t + 1] = postingStart[t]! + df[t]!;
  if (postingStart[numTerms] !== numPostings) {
    throw new IndexFormatError(`${WHAT}: df sums to ${postingStart[numTerms]}, header says ${numPostings} postings`);
  }
  const postings: PostingArrays = {
    postingChunk: new Uint32Array(numPostings),
    postingTf: new Uint8Array(numPostings),
    tfOverflow: new Map<number, number>(),
  };
  const bytes = file.section('postings');
  let lazy: LazyPostings | undefined;
  if (options.lazyPostings) lazy = new LazyPostings(bytes, postingStart, numChunks, postings);
  else decodeAllPostings(bytes, postingStart, numChunks, postings);
  return new Bm25Index({
    k1,
    b,
    totalTokens,
    terms,
    postingStart,
    ...postings,
    chunkLength,
    chunks: { chunkIds, docIds, chunkDoc },
    ...(lazy ? { lazy } : {}),
  });
}
