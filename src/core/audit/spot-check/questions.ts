/**
 * The spot-check's four questions as a task asks them: which apply to it, their wording, and the
 * label a reviewer's first answer starts from (README, "Auditing the benchmark").
 */
import { REFUSAL_TYPES, type SplitName, type TaskType } from '../../release/types.ts';
import {
  emptyLabels,
  SPOT_FORMAT,
  SPOT_QUESTIONS,
  type JudgeVerdict,
  type SpotLabel,
  type SpotQuestion,
} from './labels.ts';

/** What the questions need to know of a sampled task. */
export interface SpotTaskShape {
  task_id: string;
  type: TaskType;
  items: readonly unknown[] | null;
  judge: { submission: string; verdict: JudgeVerdict } | null;
}

/** Refusal types have no gold documents to check; the judge question needs a cached verdict. */
export function applicable(t: Pick<SpotTaskShape, 'type' | 'judge'>, q: SpotQuestion): boolean {
  if (q === 'docs_support') return !REFUSAL_TYPES.has(t.type);
  if (q === 'judge_agrees') return t.judge !== null;
  return true;
}

const verdictWords = (v: JudgeVerdict | undefined) => (v === 'credit' ? 'credit' : 'no credit');

/** The question as the reviewer reads it, worded for the task's type. */
export function prompt(t: Pick<SpotTaskShape, 'type' | 'items' | 'judge'>, q: SpotQuestion): string {
  if (!applicable(t, q))
    return q === 'judge_agrees'
      ? 'Judge verdict: no cached verdict for this task (n/a)'
      : 'Gold documents: none for this type (n/a)';
  switch (q) {
    case 'standalone':
      return 'Is the question standalone (clear without the source document in view)?';
    case 'answer_right':
      if (t.type === 'unanswerable') return 'Is it really unanswerable from the corpus?';
      if (t.type === 'false_premise') return 'Is the premise really false (the false element unsupported)?';
      return t.items ? 'Are the gold items right?' : 'Is the gold answer right?';
    case 'docs_support':
      return 'Do the gold documents support it?';
    case 'judge_agrees':
      return `Do you agree with the judge's verdict (${verdictWords(t.judge?.verdict)})?`;
  }
}

/** What a "no" to each question means, for the table of error rates. */
export const ERROR_MEANING: Readonly<Record<SpotQuestion, string>> = {
  standalone: 'question not standalone',
  answer_right: 'gold answer wrong',
  docs_support: 'gold documents do not support it',
  judge_agrees: 'judge verdict wrong',
};

/** Every question has an answer (questions that do not apply are stored as na). */
export function isComplete(l: SpotLabel | undefined): boolean {
  return Boolean(l && SPOT_QUESTIONS.every((q) => l.labels[q] !== null));
}

/** The first applicable question without an answer (0 when all are answered). */
export function firstOpen(t: Pick<SpotTaskShape, 'type' | 'judge'>, l: SpotLabel | undefined): number {
  const open = SPOT_QUESTIONS.findIndex((q) => applicable(t, q) && (l?.labels[q] ?? null) === null);
  return open < 0 ? 0 : open;
}

/** The next applicable question from `from` in direction `dir`, or undefined past either end. */
export function stepQuestion(t: Pick<SpotTaskShape, 'type' | 'judge'>, from: number, dir: 1 | -1): number | undefined {
  for (let q = from + dir; q >= 0 && q < SPOT_QUESTIONS.length; q += dir)
    if (applicable(t, SPOT_QUESTIONS[q]!)) return q;
  return undefined;
}

export interface LabelContext {
  releaseId: string;
  datasetVersion: string;
  split: SplitName;
  reviewer: string;
  seed: number;
  size: number;
}

/** A reviewer's label of a task before any answer: questions that do not apply are na. */
export function baseLabel(t: SpotTaskShape, c: LabelContext, now: string): SpotLabel {
  const labels = emptyLabels();
  for (const q of SPOT_QUESTIONS) if (!applicable(t, q)) labels[q] = 'na';
  return {
    format: SPOT_FORMAT,
    release_id: c.releaseId,
    dataset_version: c.datasetVersion,
    split: c.split,
    task_id: t.task_id,
    type: t.type,
    reviewer: c.reviewer,
    sample: { seed: c.seed, size: c.size },
    labels,
    judge: t.judge ? { submission: t.judge.submission, verdict: t.judge.verdict } : null,
    note: '',
    labelled_at: now,
  };
}
