/**
 * Reciprocal-rank fusion as the benchmark's hybrid retriever does it (docs/benchmark-spec.md
 * section 3): each list contributes 1 / (k + rank + 1), rank counted from 0, k = 60; fused
 * scores are summed in list order (BM25 first, then dense); the top k by fused score are kept.
 * Ties keep first-appearance order: walking the lists in order, a document is placed when it
 * is first seen (Python dict insertion order under a stable sort).
 */
import type { RankedDoc, Retriever } from './types.ts';

export const RRF_K = 60;

export function rrfFuse(lists: ReadonlyArray<ReadonlyArray<{ doc_id: string }>>, topK: number, k = RRF_K): RankedDoc[] {
  const fused = new Map<string, number>();
  for (const list of lists) {
    list.forEach((doc, rank) => {
      fused.set(doc.doc_id, (fused.get(doc.doc_id) ?? 0) + 1 / (k + rank + 1));
    });
  }
  const ranked = [...fused.entries()].sort((a, b) => b[1] - a[1]);
  return ranked.slice(0, topK).map(([doc_id, score]) => ({ doc_id, score }));
}

/** BM25 + dense, each asked for 2k documents, fused with RRF. */
export class HybridRetriever implements Retriever {
  constructor(
    private readonly retrievers: readonly Retriever[],
    private readonly k = RRF_K,
  ) {}

  async search(query: string, topK: number): Promise<RankedDoc[]> {
    const lists = await Promise.all(this.retrievers.map((r) => r.search(query, 2 * topK)));
    return rrfFuse(lists, topK, this.k);
  }
}
