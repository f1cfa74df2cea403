/**
 * Block pins: beside a parquet file's whole-file sha256, release.json may pin the sha256 of each
 * fixed-size block of it (`blocks`), so that a reader that needs a few ranges (an embed) proves
 * them by their blocks alone instead of downloading the whole file. Written by `npm run sample`,
 * checked against the file and its whole-file pin by `release-check`.
 */
import { sha256Hex } from './sha256.ts';

export interface BlockPins {
  /** Every block but the last is this long. */
  block_bytes: number;
  /** The sha256 (hex) of each block, in file order. */
  sha256: string[];
}

export const MIN_BLOCK_BYTES = 16 * 1024;
/** Large files get larger blocks, so that release.json stays small (~70 bytes a block). */
export const MAX_BLOCKS = 1024;

export function blockBytesFor(length: number): number {
  let size = MIN_BLOCK_BYTES;
  while (Math.ceil(length / size) > MAX_BLOCKS) size *= 2;
  return size;
}

export const blockCount = (length: number, blockBytes: number): number => Math.ceil(length / blockBytes);

export async function blockPinsOf(bytes: Uint8Array, blockBytes = blockBytesFor(bytes.byteLength)): Promise<BlockPins> {
  const sha256: string[] = [];
  for (let at = 0; at < bytes.byteLength; at += blockBytes) {
    sha256.push(await sha256Hex(bytes.subarray(at, Math.min(bytes.byteLength, at + blockBytes))));
  }
  return { block_bytes: blockBytes, sha256 };
}

/** Why `bytes` do not match `pins`, or undefined when every block does. */
export async function blockMismatch(path: string, bytes: Uint8Array, pins: BlockPins): Promise<string | undefined> {
  const count = blockCount(bytes.byteLength, pins.block_bytes);
  if (count !== pins.sha256.length) {
    return `${path}: ${bytes.byteLength} bytes make ${count} blocks of ${pins.block_bytes}, but release.json blocks pins ${pins.sha256.length}`;
  }
  const actual = await blockPinsOf(bytes, pins.block_bytes);
  const bad = actual.sha256.findIndex((h, i) => h !== pins.sha256[i]);
  if (bad < 0) return undefined;
  const from = bad * pins.block_bytes;
  return `${path}: block ${bad + 1} of ${count} (bytes ${from}–${Math.min(bytes.byteLength, from + pins.block_bytes)}) has sha256 ${actual.sha256[bad]}, release.json blocks pins ${pins.sha256[bad]}`;
}
