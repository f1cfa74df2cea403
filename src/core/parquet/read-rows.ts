/**
 * parquetReadObjects with the decompressors the file's codecs need (codecs.ts): every reader of a
 * release's or a source's parquet goes through here, so a file any writer made decodes the same.
 * codecs.ts itself is loaded only for a file that names a codec hyparquet lacks, so the first view
 * and the embeds (Snappy files) carry only the check below.
 */
import { parquetReadObjects, type FileMetaData, type ParquetReadOptions } from 'hyparquet';

export type ParquetRowsOptions = Omit<ParquetReadOptions, 'compressors' | 'metadata' | 'onComplete' | 'rowFormat'> & {
  metadata: FileMetaData;
};

/** Rows as objects; `file` names the parquet file in errors. */
export async function readParquetRows(
  options: ParquetRowsOptions,
  file: string,
): Promise<Array<Record<string, unknown>>> {
  const { metadata } = options;
  const plain = metadata.row_groups.every((rg) =>
    rg.columns.every((c) => !c.meta_data || c.meta_data.codec === 'SNAPPY' || c.meta_data.codec === 'UNCOMPRESSED'),
  );
  const codecs = plain ? undefined : await import('./codecs.ts');
  const compressors = await codecs?.decompressorsFor(
    metadata,
    file,
    options.columns,
    codecs.rowGroupsIn(metadata, options.rowStart, options.rowEnd),
  );
  return (await parquetReadObjects({
    ...options,
    ...(compressors ? { compressors } : {}),
  })) as Array<Record<string, unknown>>;
}
