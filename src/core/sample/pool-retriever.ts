import type { Chunk } from '../release/types.ts';
import { buildBm25Index } from '../retrieval/bm25-build.ts';

/**
 * What pooling and the gauntlet need from a retriever: ranked doc ids. The sample command passes
 * the benchmark's three (src/cli/index-build/pool-retrievers.ts); BM25 alone is the default.
 */
export interface Retriever {
  name: string;
  /** Ranked doc ids (best first), at most k. */
  search(query: string, k: number): string[];
}

/** The retrieval core's BM25 (the benchmark's parameters and tokenizer) over the release's chunks. */
export function bm25PoolRetriever(chunks: readonly Chunk[]): Retriever {
  const index = buildBm25Index(chunks);
  return { name: 'bm25', search: (query, k) => index.search(query, k).map((d) => d.doc_id) };
}
