/**
 * Decodes the first page of every column chunk of a parquet file, so that a codec or an encoding
 * no reader here handles is reported by file and column when a release is checked, not when a
 * user first opens the view that reads that column.
 */
import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import { errorMessage } from '../error-message.ts';
import { readParquetRows } from './read-rows.ts';

export interface ColumnProblem {
  column: string;
  rowGroup: number;
  problem: string;
}

/** One problem per column at most (the first row group where it fails); empty when every column decodes. */
export async function columnChunkProblems(
  file: AsyncBuffer,
  metadata: FileMetaData,
  name: string,
): Promise<ColumnProblem[]> {
  const columns = [
    ...new Set(metadata.row_groups.flatMap((rg) => rg.columns.map((c) => c.meta_data?.path_in_schema[0] ?? ''))),
  ].filter((c) => c !== '');
  const problems: ColumnProblem[] = [];
  for (const column of columns) {
    let start = 0;
    for (const [rowGroup, rg] of metadata.row_groups.entries()) {
      const rows = Number(rg.num_rows);
      if (rows > 0) {
        try {
          await readParquetRows({ file, metadata, columns: [column], rowStart: start, rowEnd: start + 1 }, name);
        } catch (e) {
          problems.push({ column, rowGroup, problem: errorMessage(e) });
          break;
        }
      }
      start += rows;
    }
  }
  return problems;
}

/** "docs.parquet: column text (row group 0) cannot be decoded: <why>" */
export function describeColumnProblem(name: string, p: ColumnProblem): string {
  const why = p.problem.startsWith(`${name}: `) ? p.problem.slice(name.length + 2) : p.problem;
  return `${name}: column ${p.column} (row group ${p.rowGroup}) cannot be decoded: ${why}`;
}
