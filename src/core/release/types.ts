/**
 * Shapes of every file of an Epstein Bench release (docs/benchmark-spec.md section 1).
 * These are the types after validation; the validators live in schemas.ts.
 */
import type { BlockPins } from './block-pins.ts';

export const TASK_TYPES = [
  'single_hop',
  'aggregation',
  'timeline',
  'dossier',
  'unanswerable',
  'false_premise',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/** Types whose expected answer is a refusal; they have no gold documents. */
export const REFUSAL_TYPES: ReadonlySet<TaskType> = new Set(['unanswerable', 'false_premise']);
/** Types judged item by item (aggregation judge). */
export const LIST_TYPES: ReadonlySet<TaskType> = new Set(['aggregation', 'dossier']);

export type SplitName = 'full' | 'dev';
export const SPLITS: readonly SplitName[] = ['full', 'dev'];

/** One line of questions.jsonl: what a system reads. Key order: task_id, type, question. */
export interface Question {
  task_id: string;
  type: TaskType;
  question: string;
}

export interface GoldItem {
  item: string;
  doc_ids: string[];
}

/**
 * provenance: always generator_model, pipeline_version, verified, adjudicator_model; the rest
 * depends on the type (single_hop: salience; aggregation: bounding_entity, candidate_doc_ids;
 * dossier: target_entity, candidate_doc_ids; false_premise: target_entity, absence_doc_ids;
 * pooled types: pool_size, pool_judge_model). Unknown keys are kept as they are.
 */
export interface Provenance {
  generator_model: string;
  pipeline_version: string;
  verified?: boolean;
  adjudicator_model?: string;
  salience?: number;
  bounding_entity?: string;
  target_entity?: string;
  candidate_doc_ids?: string[];
  absence_doc_ids?: string[];
  pool_size?: number;
  pool_judge_model?: string;
  [key: string]: unknown;
}

/** One line of tasks.jsonl (the answer key), keys in this order. */
export interface Task {
  task_id: string;
  type: TaskType;
  answer: string | null;
  items: GoldItem[] | null;
  source_doc_ids: string[];
  provenance: Provenance;
  question: string;
  false_element?: string;
  gold_docs: string[];
}

export interface ManifestSplit {
  n_tasks: number;
  by_type: Partial<Record<TaskType, number>>;
  questions_sha256: string;
}

export interface Manifest {
  version: string;
  splits: Partial<Record<SplitName, ManifestSplit>>;
}

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  requests?: number;
}

/** One line of predictions.jsonl after validation. */
export interface Prediction {
  task_id: string;
  answer: string | null;
  citations?: string[];
  retrieved?: string[];
  usage?: Usage | null;
  cost_usd?: number | null;
}

export interface SubmissionMetadata {
  system_name: string;
  description: string;
  split: SplitName;
  dataset_version: string;
  questions_sha256: string;
}

/** scores.json (docs/benchmark-spec.md 2.7), keys in this order. */
export interface ScoreReport {
  overall_cited_correctness: number;
  overall_cited_correctness_ci95: [number, number];
  overall_cited_correctness_micro: number;
  per_type: Partial<Record<TaskType, number>>;
  overall_uncited_correctness: number;
  overall_uncited_correctness_ci95: [number, number];
  overall_uncited_correctness_micro: number;
  per_type_uncited: Partial<Record<TaskType, number>>;
  citation_precision: number;
  citation_recall: number;
  retrieval: { 'recall@5': number; 'recall@20': number; 'ndcg@10': number };
  n_tasks: number;
  judge_model: string;
  judge_prompt_version: string;
  judge_errors: number;
  premise_id_rate?: number;
  premise_refused_n?: number;
  tokens_total?: number;
  tokens_per_task?: number;
  cost_usd_total?: number;
  cost_usd_per_task?: number;
  system_name?: string;
  split?: string;
  dataset_version?: string;
}

export interface Leaderboard {
  entries: ScoreReport[];
}

export type Quality = 'clean' | 'degraded' | 'garbage';

export interface DocMeta {
  file_name: string;
  file_type: string;
  online_url: string;
}

/** build/docs.jsonl record (in our releases also docs.parquet). */
export interface CorpusDoc {
  doc_id: string;
  text: string;
  quality: Quality;
  meta: DocMeta;
}

export interface Chunk {
  chunk_id: string;
  doc_id: string;
  text: string;
}

/** entities.json / targets.json: normalised name -> aliases and docs. */
export type EntityIndex = Record<string, { aliases: string[]; doc_ids: string[] }>;

/** build/candidates.jsonl: every drafted candidate. */
export interface Candidate {
  task_id: string;
  type: TaskType;
  question: string;
  answer: string | null;
  items: GoldItem[] | null;
  source_doc_ids: string[];
  provenance: Provenance;
  false_element?: string;
}

export const ADJUDICATION_CATEGORIES: Readonly<
  Record<'answerable' | 'unanswerable' | 'false_premise', readonly string[]>
> = {
  answerable: ['ok', 'ambiguous', 'wrong', 'not_grounded', 'trivial'],
  unanswerable: ['ok', 'ambiguous', 'trivial', 'answerable'],
  false_premise: ['supported', 'implausible', 'tips_off'],
};

export type RejectionStage = 'standalone' | 'answerability' | 'necessity' | 'adjudication' | 'error';
/** A rejection detail's stage: a gauntlet stage, or 'pool' for a verified task dropped at pooling. */
export type DetailStage = RejectionStage | 'pool';

/** build/rejected.jsonl: reason = standalone | answerability | necessity | adjudication:<category> | error:<message>. */
export interface Rejected {
  task_id: string;
  type: TaskType;
  reason: string;
}

export interface PoolDropped {
  task_id: string;
  reason: string; // source_not_supportive | unstable_pool | error:...
}

/** Our addition (the benchmark keeps pools private): one pooled doc's judgement for a task. */
export type PoolJudgement = 'supports' | 'partial' | 'irrelevant';
export interface PoolEntry {
  task_id: string;
  doc_id: string;
  judgement: PoolJudgement;
  /** Which retrievers put the doc in the pool (bm25, dense, hybrid, source, alias). */
  from: string[];
}

/**
 * Our addition: what the failing gauntlet stage saw and why it failed, per rejected candidate
 * (reason as in rejected.jsonl) and per task dropped at pooling (stage 'pool', reason
 * `pool:<pool_dropped reason>`).
 */
export interface RejectionDetail {
  task_id: string;
  stage: DetailStage;
  reason: string;
  saw: string;
  why: string;
}

export interface JudgeProfile {
  about?: string;
  judge_model: string;
  judge_prompt_version: string;
  system: string;
  response_format?: { type: string };
  gate_max_citations: number;
  judge_error_abort_ratio: number;
  placeholder_rules?: Record<string, string>;
  prompts: { answer: string; aggregation: string; premise_id: string };
  bootstrap: { iterations: number; seed: number; generator?: string; percentiles: [number, number] };
}

/** The kinds of file a release may hold; release.json names where each one is. */
export const RELEASE_FILE_KINDS = [
  'manifest',
  'questions',
  'tasks',
  'leaderboard',
  'judge_profile',
  'docs',
  'chunks',
  'entities',
  'targets',
  'candidates',
  'verified',
  'pooled',
  'rejected',
  'rejection_details',
  'pool_dropped',
  'pool',
  'dataset_card',
  'source_locator',
] as const;
export type ReleaseFileKind = (typeof RELEASE_FILE_KINDS)[number];

/** Our own descriptor, release.json. Paths are relative to the release folder. */
export interface ReleaseDescriptor {
  id: string;
  title: string;
  dataset_version: string;
  /** Per split: its questions and (where published) tasks files. */
  splits: Partial<Record<SplitName, { questions: string; tasks?: string }>>;
  manifest?: string;
  files: Partial<Record<Exclude<ReleaseFileKind, 'manifest' | 'questions' | 'tasks'>, string>>;
  /** Folder names of submissions/<slug>/ holding metadata.json, predictions.jsonl, scores.json. */
  submissions?: string[];
  /** Retrieval indexes built by the CLI (paths relative to the release folder). */
  indexes?: { bm25?: string; dense?: string; model?: string };
  /** Where a document's source can be read, {doc_id} replaced; absent = nowhere. */
  source_url_template?: string;
  /** Extra sha256 pins of our own, path -> hex (the manifest pins only questions files). */
  sha256?: Record<string, string>;
  /** Per parquet file: the sha256 of each fixed-size block (block-pins.ts), for checked range reads. */
  blocks?: Record<string, BlockPins>;
}
