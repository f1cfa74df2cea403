/** Reads a release's chunks.parquet (chunk_id, doc_id, text), checking every row. */
import { readRegularFile } from '../../adapters/node/regular-file.ts';
import path from 'node:path';
import { readParquetRows } from '../../core/parquet/read-rows.ts';
import { readParquetFooterBytes } from '../../core/parquet/checked-metadata.ts';
import type { ChunkInput } from '../../core/retrieval/index.ts';

/** Refuses files that could not be a corpus chunk table. */
const MAX_CHUNKS_FILE_BYTES = 2 * 1024 * 1024 * 1024;

export async function readChunkRows(file: string): Promise<ChunkInput[]> {
  const bytes = await readRegularFile(file, MAX_CHUNKS_FILE_BYTES);
  const metadata = readParquetFooterBytes(bytes, file);
  const rows = await readParquetRows(
    {
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      metadata,
      columns: ['chunk_id', 'doc_id', 'text'],
    },
    file,
  );
  return rows.map((row, i) => {
    const where = `${file} row ${i + 1}`;
    const { chunk_id, doc_id, text } = row;
    if (typeof chunk_id !== 'string' || chunk_id === '')
      throw new Error(`${where}: chunk_id must be a non-empty string, found ${JSON.stringify(chunk_id)}`);
    if (typeof doc_id !== 'string' || doc_id === '')
      throw new Error(`${where}: doc_id must be a non-empty string, found ${JSON.stringify(doc_id)}`);
    if (text !== null && text !== undefined && typeof text !== 'string')
      throw new Error(`${where}: text must be a string or null, found ${typeof text}`);
    return { chunk_id, doc_id, text: text ?? '' };
  });
}

/** chunks.parquet at the root of a release folder. */
export function readChunks(releaseDir: string): Promise<ChunkInput[]> {
  return readChunkRows(path.join(releaseDir, 'chunks.parquet'));
}
