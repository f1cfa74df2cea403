/**
 * parquetReadObjects with the decompressors the file's codecs need (codecs.ts): every reader of a
 * release's or a source's parquet goes through here, so a file any writer made decodes the same.
 */
import { parquetReadObjects, type FileMetaData, type ParquetReadOptions } from 'hyparquet';
import { decompressorsFor } from './codecs.ts';

export type ParquetRowsOptions = Omit<ParquetReadOptions, 'compressors' | 'metadata' | 'onComplete' | 'rowFormat'> & {
  metadata: FileMetaData;
};

/** Rows as objects; `file` names the parquet file in errors. */
export async function readParquetRows(
  options: ParquetRowsOptions,
  file: string,
): Promise<Array<Record<string, unknown>>> {
  const compressors = await decompressorsFor(options.metadata, file, options.columns, rowGroupsRead(options));
  return (await parquetReadObjects({
    ...options,
    ...(compressors ? { compressors } : {}),
  })) as Array<Record<string, unknown>>;
}

/** The row groups [rowStart, rowEnd) touches, so that a codec only other row groups use is not loaded. */
function rowGroupsRead(options: ParquetRowsOptions): number[] {
  const start = options.rowStart ?? 0;
  const end = options.rowEnd ?? Infinity;
  const groups: number[] = [];
  let first = 0;
  options.metadata.row_groups.forEach((rg, i) => {
    const last = first + Number(rg.num_rows);
    if (last > start && first < end) groups.push(i);
    first = last;
  });
  return groups;
}
