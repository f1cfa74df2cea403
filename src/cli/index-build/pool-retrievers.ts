/**
 * The sample generator's pooling retrievers: the benchmark's three (docs/benchmark-spec.md 3),
 * backed by the real retrieval core over the same chunks the release ships.
 */
import type { StaticEmbeddings } from '../../core/embedding-model/train.ts';
import { StaticEmbedder } from '../../core/embedding-model/static-embedder.ts';
import type { Chunk } from '../../core/release/types.ts';
import { buildBm25Index, buildDenseIndex, rrfFuse } from '../../core/retrieval/index.ts';
import type { Retriever as PoolRetriever } from '../../core/sample/pool-retriever.ts';
import { encoderInput } from '../../core/search/index.ts';
import { MAX_ENCODER_CHARS } from './build-indexes.ts';

/**
 * BM25, dense and hybrid ranked as the search worker and `run --method` rank them: the same index
 * code and the same exact float32 dense search a small release gets. The dense vectors come from
 * the sample model computed in TypeScript (the pipeline is synchronous); they equal the shipped
 * transformers.js vectors to about 1e-6, so only near-exact ties could order differently.
 */
export function realPoolRetrievers(
  chunks: readonly Chunk[],
  model: StaticEmbeddings,
  modelName: string,
): PoolRetriever[] {
  const bm25 = buildBm25Index(chunks);
  const embedder = new StaticEmbedder(model);
  const rows = embedder.embedAll(chunks.map((c) => encoderInput(c.text, MAX_ENCODER_CHARS)));
  const dense = buildDenseIndex(rows, bm25.data.chunks, { model: modelName, dim: model.dim, keepInt8: false });
  const vectors = new Map<string, Float32Array>();
  const queryVector = (query: string): Float32Array => {
    let v = vectors.get(query);
    if (!v) vectors.set(query, (v = embedder.embed(encoderInput(query, MAX_ENCODER_CHARS))));
    return v;
  };
  const denseDocs = (query: string, k: number) => dense.searchDocs(queryVector(query), k, { exact: true });
  const ids = (docs: ReadonlyArray<{ doc_id: string }>) => docs.map((d) => d.doc_id);
  return [
    { name: 'bm25', search: (query, k) => ids(bm25.search(query, k)) },
    { name: 'dense', search: (query, k) => ids(denseDocs(query, k)) },
    { name: 'hybrid', search: (query, k) => ids(rrfFuse([bm25.search(query, 2 * k), denseDocs(query, 2 * k)], k)) },
  ];
}
