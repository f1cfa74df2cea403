import type { Chunk, CorpusDoc } from '../release/types.ts';
import { chunkSpans } from '../text/chunks.ts';

/** The benchmark's chunk records of one document (docs/benchmark-spec.md 1.7). */
export function chunkDoc(doc: Pick<CorpusDoc, 'doc_id' | 'text'>): Chunk[] {
  return chunkSpans(doc.doc_id, doc.text).map((s) => ({ chunk_id: s.chunk_id, doc_id: doc.doc_id, text: s.text }));
}

/** Garbage docs are not chunked, so they cannot be retrieved. */
export function chunkCorpus(docs: readonly CorpusDoc[]): Chunk[] {
  return docs.filter((d) => d.quality !== 'garbage').flatMap((d) => chunkDoc(d));
}
