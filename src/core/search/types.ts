/** Shapes the search worker, the CLI and the UI share. */
import type { TaskType } from '../release/types.ts';
import type { TrecValues } from '../retrieval/index.ts';

export const SEARCH_METHODS = ['bm25', 'dense', 'hybrid'] as const;
export type SearchMethod = (typeof SEARCH_METHODS)[number];

export function isSearchMethod(value: unknown): value is SearchMethod {
  return typeof value === 'string' && (SEARCH_METHODS as readonly string[]).includes(value);
}

/** One document of a ranking, with the chunk that gave it its score (fused rankings have none). */
export interface SearchDoc {
  doc_id: string;
  score: number;
  chunk_id?: string;
  /** The best chunk's text, cut to a snippet (absent when the release has no chunks file). */
  snippet?: string;
}

export interface SearchResult {
  method: SearchMethod;
  query: string;
  docs: SearchDoc[];
  /** Ranking time in the worker, excluding loading and query embedding. */
  rankMillis: number;
  /** Query embedding time (dense and hybrid; 0 when the vector was cached). */
  embedMillis: number;
}

/** A task as retrieval evaluation needs it. */
export interface EvalTask {
  task_id: string;
  type: TaskType;
  question: string;
  gold_docs: string[];
}

export interface TaskRetrievalScores {
  task_id: string;
  type: TaskType;
  gold: number;
  'recall@5': number;
  'recall@20': number;
  'ndcg@10': number;
}

export interface TypeScorecard {
  type: TaskType;
  n: number;
  'recall@5': number;
  'recall@20': number;
  'ndcg@10': number;
  /** trec_eval -c over this type's tasks with a non-empty gold set. */
  trec: TrecValues;
  trecNumQ: number;
}

export interface EvalReport {
  method: SearchMethod;
  k: number;
  /** Tasks scored by the benchmark's diagnostics (types other than unanswerable / false_premise). */
  n: number;
  /** Tasks left out: refusal types, whose gold sets are empty by design. */
  excluded: number;
  /** Of the scored tasks, those with an empty gold set (recall 0, and no trec_eval query). */
  emptyGold: number;
  overall: { 'recall@5': number; 'recall@20': number; 'ndcg@10': number };
  trec: TrecValues;
  trecNumQ: number;
  perType: TypeScorecard[];
  perTask: TaskRetrievalScores[];
}

/** Loading progress of one index file. */
export interface IndexProgress {
  part: 'bm25' | 'dense' | 'model' | 'chunks';
  file: string;
  bytes: number;
  /** Total bytes when known (Content-Length or Blob size). */
  total?: number;
  done: boolean;
}

export interface EvalProgress {
  done: number;
  total: number;
}
