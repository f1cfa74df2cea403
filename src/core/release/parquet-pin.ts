/**
 * A docs/chunks parquet file left on its source for range reads, checked before any of its bytes
 * is used: its sha256 against the release's pin (hashing the whole file, started at load and
 * run in the background), then its columns. Every read waits for the check and fails for good
 * when the check fails. A pinned file up to VERIFIED_IN_MEMORY_MAX_BYTES is kept after hashing
 * and read from those verified bytes, so that no later read can return other bytes than the
 * ones hashed; a larger one is hashed in streamed ranges and then read from its source.
 */
import { errorMessage } from '../error-message.ts';
import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import { ReleaseRefused } from './loaded.ts';
import { checkPin } from './manifest.ts';
import { checkParquetColumns } from './schemas/parquet.ts';
import { Sha256, sha256Hex } from './sha256.ts';

export const VERIFIED_IN_MEMORY_MAX_BYTES = 256 * 1024 * 1024;
export const HASH_READ_BYTES = 8 * 1024 * 1024;

export interface ParquetToCheck {
  /** As the release names it, for messages. */
  path: string;
  kind: 'docs' | 'chunks';
  pin?: string;
  pinSource?: string;
}

export interface CheckedParquet {
  /** Reads wait for `checked` and fail when it failed. */
  file: AsyncBuffer;
  /** Resolves once the pin (if any) and the columns are checked; rejects with ReleaseRefused. */
  checked: Promise<void>;
}

async function hashInRanges(source: AsyncBuffer): Promise<string> {
  const hash = new Sha256();
  for (let at = 0; at < source.byteLength; at += HASH_READ_BYTES) {
    const end = Math.min(source.byteLength, at + HASH_READ_BYTES);
    hash.update(new Uint8Array(await source.slice(at, end)));
  }
  return hash.hex();
}

function memoryBuffer(bytes: ArrayBuffer): AsyncBuffer {
  return { byteLength: bytes.byteLength, slice: (start, end) => bytes.slice(start, end) };
}

export function checkedParquet(source: AsyncBuffer, what: ParquetToCheck): CheckedParquet {
  let verified: AsyncBuffer = source;
  const refusal = (message: string) => new ReleaseRefused(message, what.path);
  const checked = (async () => {
    if (what.pin !== undefined) {
      let actual: string;
      if (source.byteLength <= VERIFIED_IN_MEMORY_MAX_BYTES) {
        const bytes = await source.slice(0, source.byteLength);
        actual = await sha256Hex(new Uint8Array(bytes));
        verified = memoryBuffer(bytes);
      } else {
        actual = await hashInRanges(source);
      }
      const mismatch = checkPin(what.path, actual, what.pin);
      if (mismatch) throw refusal(`${mismatch.message} (pin from ${what.pinSource ?? 'the release'})`);
    }
    const { parquetMetadataAsync, parquetSchema } = await import('hyparquet');
    let metadata: FileMetaData;
    try {
      metadata = await parquetMetadataAsync(verified);
    } catch (error) {
      throw refusal(`${what.path}: not a readable parquet file (${errorMessage(error)})`);
    }
    const issues = checkParquetColumns(what.path, what.kind, parquetSchema(metadata).children);
    if (issues.length > 0) throw refusal(issues.map((i) => i.message).join('; '));
  })();
  // Awaited by every read and by the loader; a failure is reported there, not as unhandled.
  checked.catch(() => undefined);
  return {
    checked,
    file: {
      byteLength: source.byteLength,
      slice: async (start, end) => {
        await checked;
        return verified.slice(start, end);
      },
    },
  };
}

/** Waits for the checks of every deferred parquet file of a release; rejects with the first refusal. */
export async function parquetChecked(parquet: ReadonlyArray<{ checked?: Promise<void> }>): Promise<void> {
  await Promise.all(parquet.map((p) => p.checked));
}
