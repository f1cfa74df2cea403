/**
 * Spot-check labels: one record per task and reviewer, stored in the browser and exported as
 * JSONL (README, "Auditing"). Importing checks every line and names the line at fault.
 */
import { errorMessage } from '../../error-message.ts';
import type { SplitName, TaskType } from '../../release/types.ts';
import { SPLITS, TASK_TYPES } from '../../release/types.ts';

export const SPOT_FORMAT = 'epstein-bench-spotcheck/1';

export const SPOT_QUESTIONS = ['standalone', 'answer_right', 'docs_support', 'judge_agrees'] as const;
export type SpotQuestion = (typeof SPOT_QUESTIONS)[number];

export const SPOT_ANSWERS = ['yes', 'no', 'unsure', 'na'] as const;
export type SpotAnswer = (typeof SPOT_ANSWERS)[number];

/** The judge verdict shown to the reviewer: the scorer gave the answer credit (uncited score > 0) or not. */
export type JudgeVerdict = 'credit' | 'no_credit';

export interface SpotLabel {
  format: typeof SPOT_FORMAT;
  release_id: string;
  dataset_version: string;
  split: SplitName;
  task_id: string;
  type: TaskType;
  reviewer: string;
  sample: { seed: number; size: number };
  /** null: not answered yet. */
  labels: Record<SpotQuestion, SpotAnswer | null>;
  /** The judged answer the reviewer was shown, when a judge cache held one. */
  judge: { submission: string; verdict: JudgeVerdict } | null;
  note: string;
  labelled_at: string;
}

export const MAX_NOTE_CHARS = 4000;
export const MAX_LABEL_LINE_CHARS = 16_384;
const MAX_NAME_CHARS = 80;

export function emptyLabels(): SpotLabel['labels'] {
  return { standalone: null, answer_right: null, docs_support: null, judge_agrees: null };
}

export function labelKey(
  l: Pick<SpotLabel, 'release_id' | 'dataset_version' | 'split' | 'task_id' | 'reviewer'>,
): string {
  return [l.release_id, l.dataset_version, l.split, l.task_id, l.reviewer].join('\u0000');
}

/** One JSONL line, keys in the documented order. */
export function labelLine(l: SpotLabel): string {
  return JSON.stringify({
    format: l.format,
    release_id: l.release_id,
    dataset_version: l.dataset_version,
    split: l.split,
    task_id: l.task_id,
    type: l.type,
    reviewer: l.reviewer,
    sample: { seed: l.sample.seed, size: l.sample.size },
    labels: Object.fromEntries(SPOT_QUESTIONS.map((q) => [q, l.labels[q]])),
    judge: l.judge ? { submission: l.judge.submission, verdict: l.judge.verdict } : null,
    note: l.note,
    labelled_at: l.labelled_at,
  });
}

export function labelsJsonl(labels: readonly SpotLabel[]): string {
  return labels.map((l) => `${labelLine(l)}\n`).join('');
}

export interface LabelIssue {
  line: number;
  message: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A reviewer name as stored: trimmed, at most 80 characters, not empty. */
export function cleanReviewer(name: string): string {
  return name.trim().replace(/\s+/g, ' ').slice(0, MAX_NAME_CHARS);
}

function parseLabel(v: unknown): SpotLabel | string {
  if (!isRecord(v)) return 'expected a JSON object';
  if (v.format !== SPOT_FORMAT) return `expected format "${SPOT_FORMAT}", found ${JSON.stringify(v.format)}`;
  for (const k of ['release_id', 'dataset_version', 'task_id', 'reviewer', 'labelled_at'] as const)
    if (typeof v[k] !== 'string' || !(v[k] as string).trim()) return `expected ${k} to be a non-empty string`;
  if (typeof v.note !== 'string') return 'expected note to be a string';
  if (v.note.length > MAX_NOTE_CHARS) return `note is longer than ${MAX_NOTE_CHARS} characters`;
  if (!SPLITS.includes(v.split as SplitName)) return `expected split to be one of ${SPLITS.join(', ')}`;
  if (!TASK_TYPES.includes(v.type as TaskType))
    return `expected type to be a task type, found ${JSON.stringify(v.type)}`;
  const s = v.sample;
  if (!isRecord(s) || !Number.isSafeInteger(s.seed) || !Number.isSafeInteger(s.size))
    return 'expected sample to be {"seed": int, "size": int}';
  if (!isRecord(v.labels)) return 'expected labels to be an object';
  const labels = emptyLabels();
  for (const q of SPOT_QUESTIONS) {
    const a = v.labels[q];
    if (a === null || a === undefined) continue;
    if (!SPOT_ANSWERS.includes(a as SpotAnswer))
      return `expected labels.${q} to be one of ${SPOT_ANSWERS.join(', ')} or null, found ${JSON.stringify(a)}`;
    labels[q] = a as SpotAnswer;
  }
  let judge: SpotLabel['judge'] = null;
  if (v.judge !== null && v.judge !== undefined) {
    const j = v.judge;
    if (!isRecord(j) || typeof j.submission !== 'string' || (j.verdict !== 'credit' && j.verdict !== 'no_credit'))
      return 'expected judge to be null or {"submission": str, "verdict": "credit" | "no_credit"}';
    judge = { submission: j.submission, verdict: j.verdict };
  }
  const reviewer = cleanReviewer(v.reviewer as string);
  return {
    format: SPOT_FORMAT,
    release_id: v.release_id as string,
    dataset_version: v.dataset_version as string,
    split: v.split as SplitName,
    task_id: v.task_id as string,
    type: v.type as TaskType,
    reviewer,
    sample: { seed: s.seed as number, size: s.size as number },
    labels,
    judge,
    note: v.note,
    labelled_at: v.labelled_at as string,
  };
}

export interface ParsedLabels {
  labels: SpotLabel[];
  issues: LabelIssue[];
}

export function parseLabelsJsonl(text: string, source = 'labels.jsonl'): ParsedLabels {
  const labels: SpotLabel[] = [];
  const issues: LabelIssue[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) return;
    const at = (message: string) => issues.push({ line: i + 1, message: `${source} line ${i + 1}: ${message}` });
    if (line.length > MAX_LABEL_LINE_CHARS) return at(`longer than ${MAX_LABEL_LINE_CHARS} characters`);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      return at(`invalid JSON (${errorMessage(e)})`);
    }
    const parsed = parseLabel(value);
    if (typeof parsed === 'string') return at(parsed);
    labels.push(parsed);
  });
  return { labels, issues };
}

/** The reviewer's own answer: it replaces their earlier label of the task (their latest action wins). */
export function putLabel(stored: readonly SpotLabel[], label: SpotLabel): SpotLabel[] {
  const k = labelKey(label);
  return [...stored.filter((l) => labelKey(l) !== k), label];
}

const sameAnswers = (a: SpotLabel, b: SpotLabel): boolean =>
  SPOT_QUESTIONS.every((q) => a.labels[q] === b.labels[q]) &&
  a.note === b.note &&
  a.judge?.submission === b.judge?.submission &&
  a.judge?.verdict === b.judge?.verdict;

/** An imported label that differs from one already stored for the same task and reviewer. */
export interface LabelConflict {
  task_id: string;
  reviewer: string;
  /** kept: the stored label is the reviewer's own and stays; replaced: the import is newer and wins. */
  outcome: 'kept' | 'replaced';
}

export interface LabelMerge {
  labels: SpotLabel[];
  /** Labels to store: new ones and imported ones that replace what was stored. */
  changed: SpotLabel[];
  added: number;
  conflicts: LabelConflict[];
}

/**
 * Imports labels by an order the reviewer can see, never by the clock a file claims
 * (`labelled_at` is recorded, not trusted): labels under the reviewer's own name are theirs and
 * an import never replaces them; any other reviewer's label is replaced by a later import (the
 * latest import wins, and within a file the later line). Every difference is reported.
 */
export function mergeImport(stored: readonly SpotLabel[], incoming: readonly SpotLabel[], own: string): LabelMerge {
  const byKey = new Map<string, SpotLabel>();
  for (const l of stored) byKey.set(labelKey(l), l);
  const fresh = new Map<string, SpotLabel>();
  for (const l of incoming) fresh.set(labelKey(l), l);
  const changed: SpotLabel[] = [];
  const conflicts: LabelConflict[] = [];
  let added = 0;
  for (const [k, l] of fresh) {
    const had = byKey.get(k);
    if (!had) {
      added++;
    } else if (sameAnswers(had, l)) {
      continue;
    } else if (own && had.reviewer === own) {
      conflicts.push({ task_id: l.task_id, reviewer: l.reviewer, outcome: 'kept' });
      continue;
    } else {
      conflicts.push({ task_id: l.task_id, reviewer: l.reviewer, outcome: 'replaced' });
    }
    byKey.set(k, l);
    changed.push(l);
  }
  return { labels: [...byKey.values()], changed, added, conflicts };
}
