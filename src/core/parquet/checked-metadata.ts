/**
 * hyparquet's footer readers with the structural check first (footer-structure.ts): the same
 * reads as parquetMetadataAsync (the tail, then the rest of the footer when it is longer), so a
 * source that keeps ranges sees no new requests.
 */
import { parquetMetadata, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { errorMessage } from '../error-message.ts';
import { checkFooterStructure } from './footer-structure.ts';

const DEFAULT_INITIAL_FETCH = 1 << 19;

/** The metadata of a parquet file or of its footer bytes, checked before it is decoded. */
export function checkedParquetMetadata(bytes: Uint8Array): FileMetaData {
  checkFooterStructure(bytes);
  return parquetMetadata(bytes);
}

/** parquetMetadataAsync, checked before it is decoded. */
export async function checkedParquetMetadataAsync(
  file: AsyncBuffer,
  initialFetchSize = DEFAULT_INITIAL_FETCH,
): Promise<FileMetaData> {
  const tailStart = Math.max(0, file.byteLength - initialFetchSize);
  const tail = new Uint8Array(await file.slice(tailStart, file.byteLength));
  if (tail.byteLength < 8) return checkedParquetMetadata(tail);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const metadataLength = view.getUint32(tail.byteLength - 8, true);
  if (metadataLength + 8 <= tail.byteLength || metadataLength > file.byteLength - 8)
    return checkedParquetMetadata(tail);
  const start = file.byteLength - metadataLength - 8;
  const head = new Uint8Array(await file.slice(start, tailStart));
  const footer = new Uint8Array(metadataLength + 8);
  footer.set(head, 0);
  footer.set(tail, tailStart - start);
  return checkedParquetMetadata(footer);
}

/**
 * The footer every reader of a release's parquet files opens with: checked, and a failure names
 * the file ("docs.parquet: not a readable parquet file (<why>)").
 */
export async function readParquetFooter(
  file: AsyncBuffer,
  name: string,
  initialFetchSize = DEFAULT_INITIAL_FETCH,
): Promise<FileMetaData> {
  try {
    return await checkedParquetMetadataAsync(file, initialFetchSize);
  } catch (e) {
    throw unreadableFooter(name, e);
  }
}

/** checkedParquetMetadata for a whole file in memory, a failure naming the file as readParquetFooter's does. */
export function readParquetFooterBytes(bytes: Uint8Array, name: string): FileMetaData {
  try {
    return checkedParquetMetadata(bytes);
  } catch (e) {
    throw unreadableFooter(name, e);
  }
}

function unreadableFooter(name: string, cause: unknown): Error {
  return new Error(`${name}: not a readable parquet file (${errorMessage(cause)})`, { cause });
}
