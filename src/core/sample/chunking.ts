import type { Chunk, CorpusDoc } from '../release/types.ts';

/** docs/benchmark-spec.md 1.7: 512-token windows, step 462, split on whitespace. */
export const CHUNK_TOKENS = 512;
export const CHUNK_STEP = 462;

export function whitespaceTokens(text: string): string[] {
  return text.split(/\s+/).filter((t) => t.length > 0);
}

export function chunkDoc(doc: Pick<CorpusDoc, 'doc_id' | 'text'>): Chunk[] {
  const tokens = whitespaceTokens(doc.text);
  if (tokens.length <= CHUNK_TOKENS) return [{ chunk_id: `${doc.doc_id}#0`, doc_id: doc.doc_id, text: doc.text }];
  const chunks: Chunk[] = [];
  for (let start = 0, i = 0; start < tokens.length; start += CHUNK_STEP, i++) {
    chunks.push({
      chunk_id: `${doc.doc_id}#${i}`,
      doc_id: doc.doc_id,
      text: tokens.slice(start, start + CHUNK_TOKENS).join(' '),
    });
  }
  return chunks;
}

/** Garbage docs are not chunked, so they cannot be retrieved. */
export function chunkCorpus(docs: readonly CorpusDoc[]): Chunk[] {
  return docs.filter((d) => d.quality !== 'garbage').flatMap((d) => chunkDoc(d));
}
