/**
 * The parts of a tasks.jsonl (answer key) that a release diff compares: id, type, question,
 * answer, items and gold set. Read more leniently than the loader does (older builds of v1.0
 * lack fields the current schema requires, e.g. provenance.salience), but still field by field,
 * with the file and line of each problem.
 */
import type { IssueList } from '../release/issues.ts';
import { parseJsonlBytes } from '../release/jsonl.ts';
import { taskType } from '../release/schemas/common.ts';
import type { GoldItem, TaskType } from '../release/types.ts';
import { anyString, arrayOf, nonEmptyString, nullable, object, type Validator } from '../release/validate.ts';

export interface KeyRow {
  task_id: string;
  type: TaskType;
  question: string;
  answer: string | null;
  items: GoldItem[] | null;
  gold_docs: string[];
  /** The line as written, so a filtered answer key keeps each task's bytes. */
  line: string;
}

const keyFields = object({
  task_id: nonEmptyString,
  type: taskType,
  question: anyString,
  answer: nullable(anyString),
  items: nullable(arrayOf(object({ item: anyString, doc_ids: arrayOf(anyString) }))),
  gold_docs: arrayOf(anyString),
});

const keyValidator: Validator<Omit<KeyRow, 'line'>> = (value, ctx, issues) => {
  const row = keyFields(value, ctx, issues);
  if (!row) return undefined;
  return {
    task_id: row.task_id,
    type: row.type,
    question: row.question,
    answer: row.answer,
    items: row.items,
    gold_docs: row.gold_docs,
  };
};

export interface AnswerKey {
  rows: KeyRow[];
  /** Lines that could not be read, each naming its file, line and field. */
  issues: IssueList;
  totalLines: number;
}

/** The answer key of one split: every readable row, and the problems of the others. */
export function readAnswerKey(bytes: Uint8Array, file: string, maxIssues = 20): AnswerKey {
  const parsed = parseJsonlBytes(bytes, file, keyValidator, { maxIssues });
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
  const lines = text.split(/\r\n|\n|\r/);
  const rows = parsed.rows.map((row, i) => ({ ...row, line: lines[parsed.lines[i]! - 1] ?? '' }));
  return { rows, issues: parsed.issues, totalLines: parsed.totalLines };
}
