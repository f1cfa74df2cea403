/**
 * The words of the task list: its filters, facets, sorts and rows, and one task's detail. The
 * in-memory task store answers every question asked in them (task-store.ts); the page and the
 * workers share them.
 */
import type { GoldItem, Provenance, TaskType } from '../release/types.ts';

/** Filters of the Tasks page: OR within a facet, AND across facets. */
export interface TaskFilter {
  split?: string[];
  type?: string[];
  n_gold?: string[];
  pool_size?: string[];
  source_quality?: string[];
  target_entity?: string[];
  salience?: string[];
  /** Free text: the question, answer and items (a search index), or a task id, its prefix or a document id. */
  text?: string;
  /** Restrict to these ids. */
  ids?: string[];
  /** Restrict to the tasks whose id starts with one of these (a map selection: 8 characters each). */
  idPrefixes?: string[];
}

export const TASK_FACETS = [
  'type',
  'split',
  'n_gold',
  'pool_size',
  'target_entity',
  'salience',
  'source_quality',
] as const;
export type TaskFacet = (typeof TASK_FACETS)[number];

export const TASK_SORTS = [
  'row_no',
  'task_id',
  'type',
  'split',
  'question',
  'answer',
  'n_gold',
  'pool_size',
  'salience',
  'target_entity',
  'source_quality',
] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export interface TaskListRow {
  task_id: string;
  split: string;
  row_no: number;
  type: TaskType;
  question: string;
  answer: string | null;
  has_key: boolean;
  n_gold: number | null;
  n_items: number | null;
  pool_size: number | null;
  salience: number | null;
  target_entity: string | null;
  source_quality: string | null;
}

export interface FacetCount {
  value: string;
  count: number;
}

export interface TaskPage {
  rows: TaskListRow[];
  total: number;
  facets: Record<TaskFacet, FacetCount[]>;
}

export interface TaskOrder {
  by: TaskSort;
  desc: boolean;
}

export interface TaskNeighbours {
  /** 1-based position in the list, or undefined when the task is not in it. */
  position?: number;
  total: number;
  prev?: { task_id: string; split: string };
  next?: { task_id: string; split: string };
}

/** What a pasted task id looks like: its 8-character prefix as the list shows it, or more of it. */
export const TASK_ID_PREFIX = /^[0-9a-f][0-9a-f-]{5,35}$/i;
/** A document id as the benchmark writes them (EFTA00138265, SMPL00041989). */
export const DOC_ID = /^[A-Z]{2,8}\d{5,}$/i;

export interface DocRow {
  doc_id: string;
  row_no: number;
  quality: string;
  file_name: string | null;
  file_type: string | null;
  online_url: string | null;
  /** Null when docs.parquet has no n_chars column. */
  n_chars: number | null;
}

export interface TaskDetail extends TaskListRow {
  items: GoldItem[] | null;
  gold_docs: string[] | null;
  source_doc_ids: string[] | null;
  provenance: Provenance | null;
  false_element: string | null;
  /** Corpus rows of the gold docs that the release has (text fetched separately). */
  gold_doc_rows: DocRow[];
  source_doc_rows: DocRow[];
  pool: Array<{ doc_id: string; judgement: string; from: string[]; quality: string | null }>;
  /** The page's first answer (taskBrief): the task's own columns; document rows and the pool come with the full one. */
  partial?: boolean;
}
