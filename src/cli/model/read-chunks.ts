/** Reads chunks.parquet of a release folder (chunk_id, doc_id, text), checking every row. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parquetReadObjects } from 'hyparquet';

export interface ChunkRow {
  chunkId: string;
  docId: string;
  text: string;
}

/** Refuses files that could not be a sample-sized corpus chunk table. */
const MAX_CHUNKS_FILE_BYTES = 2 * 1024 * 1024 * 1024;

export async function readChunks(releaseDir: string): Promise<ChunkRow[]> {
  const file = path.join(releaseDir, 'chunks.parquet');
  const bytes = await readFile(file);
  if (bytes.byteLength > MAX_CHUNKS_FILE_BYTES) throw new Error(`${file}: ${bytes.byteLength} bytes is too large`);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const rows = (await parquetReadObjects({ file: buffer, columns: ['chunk_id', 'doc_id', 'text'] })) as Record<
    string,
    unknown
  >[];
  return rows.map((row, i) => {
    const where = `${file}: row ${i + 1}`;
    const chunkId = row['chunk_id'];
    const docId = row['doc_id'];
    const text = row['text'];
    if (typeof chunkId !== 'string' || chunkId === '')
      throw new Error(`${where}: chunk_id must be a non-empty string, found ${JSON.stringify(chunkId)}`);
    if (typeof docId !== 'string' || docId === '')
      throw new Error(`${where}: doc_id must be a non-empty string, found ${JSON.stringify(docId)}`);
    if (text !== null && text !== undefined && typeof text !== 'string')
      throw new Error(`${where}: text must be a string or null, found ${typeof text}`);
    return { chunkId, docId, text: text ?? '' };
  });
}
