/** The columns the explorer reads from docs.parquet and chunks.parquet (spec 1.7: the flattened doc and chunk records). */
import type { SchemaElement } from 'hyparquet';
import { makeIssue, type ParseIssue } from '../issues.ts';

type ColumnKind = 'string' | 'integer';

interface ColumnRule {
  kind: ColumnKind;
  required: boolean;
}

export const PARQUET_COLUMNS: Readonly<Record<'docs' | 'chunks', Readonly<Record<string, ColumnRule>>>> = {
  docs: {
    doc_id: { kind: 'string', required: true },
    text: { kind: 'string', required: true },
    quality: { kind: 'string', required: false },
    file_name: { kind: 'string', required: false },
    file_type: { kind: 'string', required: false },
    online_url: { kind: 'string', required: false },
    n_chars: { kind: 'integer', required: false },
  },
  chunks: {
    chunk_id: { kind: 'string', required: true },
    doc_id: { kind: 'string', required: true },
    text: { kind: 'string', required: true },
  },
};

function isString(e: SchemaElement): boolean {
  return (
    e.type === 'BYTE_ARRAY' &&
    (e.converted_type === 'UTF8' || e.logical_type?.type === 'STRING' || e.converted_type === 'JSON')
  );
}

function isInteger(e: SchemaElement): boolean {
  return e.type === 'INT32' || e.type === 'INT64';
}

function describeColumn(e: SchemaElement): string {
  const annotation = e.logical_type?.type ?? e.converted_type;
  return e.type === undefined ? 'a nested group' : `${e.type}${annotation ? ` ${annotation}` : ''}`;
}

/**
 * Issues for a parquet file whose top-level columns (the schema's children, each with its own
 * children for nested groups) lack a required column or hold one of the wrong type.
 */
export function checkParquetColumns(
  file: string,
  kind: 'docs' | 'chunks',
  columns: ReadonlyArray<{ element: SchemaElement; children: readonly unknown[] }>,
): ParseIssue[] {
  const byName = new Map(columns.map((c) => [c.element.name, c]));
  const issues: ParseIssue[] = [];
  for (const [name, rule] of Object.entries(PARQUET_COLUMNS[kind])) {
    const column = byName.get(name);
    const expected = rule.kind === 'string' ? 'a string column (BYTE_ARRAY UTF8)' : 'an integer column (INT32/INT64)';
    if (!column) {
      if (!rule.required) continue;
      const issue = makeIssue(file, undefined, name, expected, 'no such column');
      issue.message = `${file}: required column "${name}" is missing (columns: ${[...byName.keys()].join(', ')})`;
      issues.push(issue);
      continue;
    }
    const ok =
      column.children.length === 0 && (rule.kind === 'string' ? isString(column.element) : isInteger(column.element));
    if (!ok) {
      const found = describeColumn(column.element);
      const issue = makeIssue(file, undefined, name, expected, found);
      issue.message = `${file}: column "${name}" should be ${expected}, found ${found}`;
      issues.push(issue);
    }
  }
  return issues;
}
