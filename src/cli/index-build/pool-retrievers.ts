/** The sample generator's pooling retrievers, backed by the real retrieval core. */
import type { Chunk } from '../../core/release/types.ts';
import { buildBm25Index } from '../../core/retrieval/index.ts';
import type { Retriever as PoolRetriever } from '../../core/sample/pool-bm25.ts';

/** BM25 exactly as the search worker and `run --method bm25` rank (same index code, same chunks). */
export function realPoolRetrievers(chunks: Chunk[]): PoolRetriever[] {
  const bm25 = buildBm25Index(chunks);
  return [{ name: 'bm25', search: (query, k) => bm25.search(query, k).map((d) => d.doc_id) }];
}
