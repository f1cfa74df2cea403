/** Result and input shapes shared by the retrieval modules. */

/** A chunk as the index builders take it (same fields as the release's chunks file). */
export interface ChunkInput {
  chunk_id: string;
  doc_id: string;
  text: string;
}

/** One document of a ranking: its score is its best chunk's score. */
export interface RankedDoc {
  doc_id: string;
  score: number;
  /** The chunk that gave the document its score (absent for fused rankings). */
  chunk_id?: string;
}

export interface RankedChunk {
  chunk_id: string;
  doc_id: string;
  score: number;
}

/** Anything that ranks documents for a query text (BM25, dense with an embedder, hybrid, pooling). */
export interface Retriever {
  search(query: string, k: number): Promise<RankedDoc[]> | RankedDoc[];
}
