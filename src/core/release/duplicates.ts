/**
 * Duplicates across the rows of a JSONL file (a task id twice, a pool row twice) and inside a
 * row (a doc id listed twice in gold_docs). They are reported as issues of the file and the
 * rows are kept, so that release-check fails and the explorer still shows what there is.
 */
import { makeIssue, type IssueList } from './issues.ts';
import type { ReleaseFileKind } from './types.ts';

type Row = Record<string, unknown>;

/** The key a row must not share with another row of the same file, by file kind. */
const ROW_KEY: Partial<Record<ReleaseFileKind, { field: string; keyOf: (row: Row) => string | undefined }>> = {
  questions: { field: 'task_id', keyOf: (r) => str(r.task_id) },
  tasks: { field: 'task_id', keyOf: (r) => str(r.task_id) },
  candidates: { field: 'task_id', keyOf: (r) => str(r.task_id) },
  verified: { field: 'task_id', keyOf: (r) => str(r.task_id) },
  pooled: { field: 'task_id', keyOf: (r) => str(r.task_id) },
  rejected: { field: 'task_id', keyOf: (r) => str(r.task_id) },
  pool_dropped: { field: 'task_id', keyOf: (r) => str(r.task_id) },
  pool: {
    field: 'task_id and doc_id',
    keyOf: (r) => (str(r.task_id) !== undefined ? `${str(r.task_id)} ${str(r.doc_id) ?? ''}` : undefined),
  },
  docs: { field: 'doc_id', keyOf: (r) => str(r.doc_id) },
  chunks: { field: 'chunk_id', keyOf: (r) => str(r.chunk_id) },
};

/** Lists of doc ids inside a row that must not repeat an id. */
const ID_LISTS: ReadonlySet<ReleaseFileKind> = new Set(['tasks', 'candidates', 'verified', 'pooled']);

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const MAX_SHOWN = 80;

function shown(text: string): string {
  return JSON.stringify(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);
}

function repeatedIn(list: unknown): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const seen = new Set<unknown>();
  for (const id of list) {
    if (seen.has(id)) return typeof id === 'string' ? id : JSON.stringify(id);
    seen.add(id);
  }
  return undefined;
}

/** Adds one issue per duplicate; `lines[i]` is the line of `rows[i]`. */
export function reportDuplicates(
  kind: string,
  rows: readonly unknown[],
  lines: readonly number[],
  file: string,
  issues: IssueList,
): void {
  const rule = ROW_KEY[kind as ReleaseFileKind];
  const firstLine = new Map<string, number>();
  rows.forEach((value, i) => {
    if (typeof value !== 'object' || value === null) return;
    const row = value as Row;
    const line = lines[i];
    const key = rule?.keyOf(row);
    if (rule && key !== undefined) {
      const seenAt = firstLine.get(key);
      if (seenAt === undefined) {
        firstLine.set(key, line ?? i + 1);
      } else {
        const issue = makeIssue(file, line, rule.field, 'a value no other line has', `the one of line ${seenAt}`);
        issue.message = `${file}, line ${line ?? '?'}: ${rule.field} ${shown(key)} repeats line ${seenAt}`;
        issues.add(issue);
      }
    }
    if (!ID_LISTS.has(kind as ReleaseFileKind)) return;
    const lists: Array<[string, unknown]> = [
      ['gold_docs', row.gold_docs],
      ['source_doc_ids', row.source_doc_ids],
    ];
    if (Array.isArray(row.items)) {
      row.items.forEach((item: unknown, j) => {
        if (typeof item === 'object' && item !== null) lists.push([`items[${j}].doc_ids`, (item as Row).doc_ids]);
      });
    }
    for (const [field, list] of lists) {
      const repeated = repeatedIn(list);
      if (repeated === undefined) continue;
      const issue = makeIssue(file, line, field, 'each doc id once', `${shown(repeated)} twice`);
      issue.message = `${file}, line ${line ?? '?'}, field "${field}": doc id ${shown(repeated)} is listed twice`;
      issues.add(issue);
    }
  });
}
