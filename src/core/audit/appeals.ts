/**
 * Gold appeals: "this document supports task X", with the passage and a note, exported as JSONL
 * for the maintainers to apply to the next point release (README, "Auditing").
 */
import { errorMessage } from '../error-message.ts';
import type { SplitName } from '../release/types.ts';
import { SPLITS } from '../release/types.ts';
import { codePointOffset } from './normalise.ts';
import { wordsPattern } from '../text/regexp.ts';

export const APPEAL_FORMAT = 'epstein-bench-appeal/1';
export const MAX_PASSAGE_CHARS = 4000;
export const MAX_APPEAL_NOTE_CHARS = 4000;
const MAX_APPEAL_LINE_CHARS = 16_384;

export interface GoldAppeal {
  format: typeof APPEAL_FORMAT;
  appeal_id: string;
  release_id: string;
  dataset_version: string;
  split: SplitName;
  task_id: string;
  /** For aggregation and dossier tasks, the gold item the document supports (0-based), else null. */
  item: number | null;
  doc_id: string;
  /** Where the passage starts in the document, in code points (Python's index), or null when not found. */
  passage_start: number | null;
  passage: string;
  note: string;
  reviewer: string;
  created_at: string;
}

/** The first place the passage occurs in the text (whitespace runs may differ), in code points. */
export function locatePassage(text: string, passage: string): number | null {
  const words = passage.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const re = wordsPattern(words, 'u');
  const m = re.exec(text);
  return m ? codePointOffset(text, m.index) : null;
}

export function appealLine(a: GoldAppeal): string {
  return JSON.stringify({
    format: a.format,
    appeal_id: a.appeal_id,
    release_id: a.release_id,
    dataset_version: a.dataset_version,
    split: a.split,
    task_id: a.task_id,
    item: a.item,
    doc_id: a.doc_id,
    passage_start: a.passage_start,
    passage: a.passage,
    note: a.note,
    reviewer: a.reviewer,
    created_at: a.created_at,
  });
}

export function appealsJsonl(appeals: readonly GoldAppeal[]): string {
  return appeals.map((a) => `${appealLine(a)}\n`).join('');
}

/** Problems with an appeal before it is filed, or [] when it can be filed. */
export function appealProblems(a: Pick<GoldAppeal, 'task_id' | 'doc_id' | 'passage' | 'note'>): string[] {
  const out: string[] = [];
  if (!a.task_id.trim()) out.push('Choose the task this document supports.');
  if (!a.doc_id.trim()) out.push('No document.');
  if (!a.passage.trim()) out.push('Give the passage that supports the task (select it in the text, or paste it).');
  if (a.passage.length > MAX_PASSAGE_CHARS) out.push(`The passage is longer than ${MAX_PASSAGE_CHARS} characters.`);
  if (a.note.length > MAX_APPEAL_NOTE_CHARS) out.push(`The note is longer than ${MAX_APPEAL_NOTE_CHARS} characters.`);
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads an appeals JSONL file (a maintainer's tooling, or a reviewer moving appeals between browsers). */
export function parseAppealsJsonl(text: string, source = 'appeals.jsonl'): { appeals: GoldAppeal[]; issues: string[] } {
  const appeals: GoldAppeal[] = [];
  const issues: string[] = [];
  /** Line of each appeal_id read: an appeal is kept and listed by its id, so a repeat is refused. */
  const lineOf = new Map<string, number>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) return;
    const bad = (m: string) => issues.push(`${source} line ${i + 1}: ${m}`);
    if (line.length > MAX_APPEAL_LINE_CHARS) return bad(`longer than ${MAX_APPEAL_LINE_CHARS} characters`);
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      return bad(`invalid JSON (${errorMessage(e)})`);
    }
    if (!isRecord(v) || v.format !== APPEAL_FORMAT) return bad(`expected an object with format "${APPEAL_FORMAT}"`);
    for (const k of [
      'appeal_id',
      'release_id',
      'dataset_version',
      'task_id',
      'doc_id',
      'passage',
      'note',
      'reviewer',
      'created_at',
    ])
      if (typeof v[k] !== 'string') return bad(`expected ${k} to be a string`);
    if (!SPLITS.includes(v.split as SplitName)) return bad(`expected split to be one of ${SPLITS.join(', ')}`);
    if (v.item !== null && !(Number.isSafeInteger(v.item) && (v.item as number) >= 0))
      return bad('expected item to be null or a non-negative integer');
    if (v.passage_start !== null && !(Number.isSafeInteger(v.passage_start) && (v.passage_start as number) >= 0))
      return bad('expected passage_start to be null or a non-negative integer');
    const problems = appealProblems(v as unknown as GoldAppeal);
    if (problems.length) return bad(problems.join(' '));
    const first = lineOf.get(v.appeal_id as string);
    if (first !== undefined) return bad(`appeal_id ${JSON.stringify(v.appeal_id)} repeats line ${first}`);
    lineOf.set(v.appeal_id as string, i + 1);
    appeals.push(v as unknown as GoldAppeal);
  });
  return { appeals, issues };
}

/** Appeals per task (split:task_id), for the task list. */
export function appealCounts(appeals: readonly GoldAppeal[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const a of appeals) out.set(`${a.split}:${a.task_id}`, (out.get(`${a.split}:${a.task_id}`) ?? 0) + 1);
  return out;
}
