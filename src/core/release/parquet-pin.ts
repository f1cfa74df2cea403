/**
 * A docs/chunks parquet file left on its source for range reads, checked against the release:
 * its sha256 against the release's pin (hashing the whole file), then its columns. A failed
 * check fails every later read for good.
 *
 * When the check runs is the caller's choice:
 * - 'before-reads' (the default: CLI, audit): the check starts at once and every read waits for it;
 * - 'on-demand' (the explorer's first view and embeds): the check starts when `check()` is called
 *   (after the first view is on screen, so the whole-file download never delays it). Reads made
 *   before that come from the source and are kept; the check compares each of them with the bytes
 *   it hashed, so a source that served other bytes to a range read than to the hash is refused
 *   like a changed file. Reads made once the check has started wait for it.
 *
 * - 'blocks' (embeds): when the release pins the file's blocks (block-pins.ts), every range read
 *   is widened to whole blocks and each block is checked against its pin before any byte of it is
 *   used; the check reads the footer through those checked blocks and checks the columns, and
 *   nothing is downloaded whole. A block that differs refuses the file for good. Without block
 *   pins (older releases) it is 'on-demand'.
 *
 * A pinned file up to VERIFIED_IN_MEMORY_MAX_BYTES is kept after hashing and read from those
 * verified bytes, so that no later read can return other bytes than the ones hashed; a larger
 * one is hashed in streamed ranges and then read from its source.
 */
import { errorMessage } from '../error-message.ts';
import { parquetSchema, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { checkedParquetMetadataAsync } from '../parquet/checked-metadata.ts';
import { ReleaseRefused } from './loaded.ts';
import { checkPin } from './manifest.ts';
import { checkParquetColumns } from './schemas/parquet.ts';
import { Sha256, sha256Hex } from './sha256.ts';
import { blockCount, type BlockPins } from './block-pins.ts';

export const VERIFIED_IN_MEMORY_MAX_BYTES = 256 * 1024 * 1024;
export const HASH_READ_BYTES = 8 * 1024 * 1024;
const FOOTER_FETCH = 16 * 1024;

export type ParquetCheckTiming = 'before-reads' | 'on-demand' | 'blocks';

export interface ParquetToCheck {
  /** As the release names it, for messages. */
  path: string;
  kind: 'docs' | 'chunks';
  pin?: string;
  pinSource?: string;
  blocks?: BlockPins;
}

export interface CheckedParquet {
  /** Range reads: see the module comment for when they wait for the check. */
  file: AsyncBuffer;
  /** Settles when the check has run: resolves once the pin, the columns and the earlier reads agree; rejects with ReleaseRefused. */
  checked: Promise<void>;
  /** Starts the check if it has not started; returns `checked`. */
  check(): Promise<void>;
}

/** A range read made before the check, kept to be compared with the hashed bytes. */
interface EarlyRead {
  start: number;
  bytes: Uint8Array;
}

function memoryBuffer(bytes: ArrayBuffer): AsyncBuffer {
  return { byteLength: bytes.byteLength, slice: (start, end) => bytes.slice(start, end) };
}

/** The first early read whose bytes differ from `chunk` (the file's bytes from `at`) where they overlap. */
function differingRead(reads: readonly EarlyRead[], at: number, chunk: Uint8Array): EarlyRead | undefined {
  const chunkEnd = at + chunk.byteLength;
  return reads.find((r) => {
    const from = Math.max(at, r.start);
    const to = Math.min(chunkEnd, r.start + r.bytes.byteLength);
    for (let i = from; i < to; i++) if (r.bytes[i - r.start] !== chunk[i - at]) return true;
    return false;
  });
}

export function checkedParquet(
  source: AsyncBuffer,
  what: ParquetToCheck,
  timing: ParquetCheckTiming = 'before-reads',
): CheckedParquet {
  if (timing === 'blocks') {
    if (what.blocks) return blockChecked(source, what, what.blocks);
    timing = 'on-demand';
  }
  let verified: AsyncBuffer = source;
  const refusal = (message: string) => new ReleaseRefused(message, what.path);
  const early: EarlyRead[] = [];
  const inflight = new Set<Promise<unknown>>();
  let started = false;
  let settle!: { resolve: () => void; reject: (e: unknown) => void };
  const checked = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  // Awaited by every read and by the loader; a failure is reported there, not as unhandled.
  checked.catch(() => undefined);

  const compareEarly = (at: number, chunk: Uint8Array) => {
    const bad = differingRead(early, at, chunk);
    if (bad) {
      throw refusal(
        `${what.path}: bytes ${bad.start}–${bad.start + bad.bytes.byteLength} read before the check differ from the file that was hashed (the source changed it while it was read)`,
      );
    }
  };

  async function hashInRanges(): Promise<string> {
    const hash = new Sha256();
    for (let at = 0; at < source.byteLength; at += HASH_READ_BYTES) {
      const end = Math.min(source.byteLength, at + HASH_READ_BYTES);
      const chunk = new Uint8Array(await source.slice(at, end));
      compareEarly(at, chunk);
      hash.update(chunk);
    }
    return hash.hex();
  }

  async function run(): Promise<void> {
    // Reads already on their way are compared too.
    await Promise.allSettled([...inflight]);
    if (what.pin !== undefined) {
      let actual: string;
      if (source.byteLength <= VERIFIED_IN_MEMORY_MAX_BYTES) {
        const bytes = await source.slice(0, source.byteLength);
        const whole = new Uint8Array(bytes);
        actual = await sha256Hex(whole);
        compareEarly(0, whole);
        verified = memoryBuffer(bytes);
      } else {
        actual = await hashInRanges();
      }
      const mismatch = checkPin(what.path, actual, what.pin);
      if (mismatch) throw refusal(`${mismatch.message} (pin from ${what.pinSource ?? 'the release'})`);
    }
    early.length = 0;
    let metadata: FileMetaData;
    try {
      metadata = await checkedParquetMetadataAsync(verified);
    } catch (error) {
      throw refusal(`${what.path}: not a readable parquet file (${errorMessage(error)})`);
    }
    const issues = checkParquetColumns(what.path, what.kind, parquetSchema(metadata).children);
    if (issues.length > 0) throw refusal(issues.map((i) => i.message).join('; '));
  }

  function check(): Promise<void> {
    if (!started) {
      started = true;
      run().then(settle.resolve, settle.reject);
    }
    return checked;
  }

  async function earlyRead(start: number, end: number | undefined): Promise<ArrayBuffer> {
    const read = Promise.resolve(source.slice(start, end));
    inflight.add(read);
    try {
      const bytes = await read;
      // A file without a pin has no hashed bytes to compare with: nothing to keep.
      if (what.pin !== undefined) early.push({ start, bytes: new Uint8Array(bytes) });
      return bytes;
    } finally {
      inflight.delete(read);
    }
  }

  if (timing === 'before-reads') check();
  return {
    checked,
    check,
    file: {
      byteLength: source.byteLength,
      slice: async (start, end) => {
        if (!started) return earlyRead(start, end);
        await checked;
        return verified.slice(start, end);
      },
    },
  };
}

/** The columns of a parquet file whose bytes are checked as it is read (`file`). */
async function checkColumns(file: AsyncBuffer, what: ParquetToCheck): Promise<void> {
  let metadata: FileMetaData;
  try {
    // The footer's end, as the explorer's own reader asks for it (hyparquet's default is 512 KB).
    metadata = await checkedParquetMetadataAsync(file, Math.min(FOOTER_FETCH, file.byteLength));
  } catch (error) {
    if (error instanceof ReleaseRefused) throw error;
    throw new ReleaseRefused(`${what.path}: not a readable parquet file (${errorMessage(error)})`, what.path);
  }
  const issues = checkParquetColumns(what.path, what.kind, parquetSchema(metadata).children);
  if (issues.length > 0) throw new ReleaseRefused(issues.map((i) => i.message).join('; '), what.path);
}

/** Range reads checked block by block against `pins` (the 'blocks' timing of the module comment). */
function blockChecked(source: AsyncBuffer, what: ParquetToCheck, pins: BlockPins): CheckedParquet {
  const size = pins.block_bytes;
  const length = source.byteLength;
  const count = blockCount(length, size);
  const blocks = new Map<number, Promise<Uint8Array>>();
  let refused: ReleaseRefused | undefined;
  let started = false;
  let settle!: { resolve: () => void; reject: (e: unknown) => void };
  const checked = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  checked.catch(() => undefined);
  const refuse = (message: string): never => {
    refused ??= new ReleaseRefused(message, what.path);
    started = true;
    settle.reject(refused);
    throw refused;
  };

  /** Blocks first..last, the missing ones fetched in one range read and each checked. */
  function readBlocks(first: number, last: number): Promise<Uint8Array[]> {
    const missing: number[] = [];
    for (let i = first; i <= last; i++) if (!blocks.has(i)) missing.push(i);
    if (missing.length > 0) {
      const from = missing[0]! * size;
      const to = Math.min(length, (missing.at(-1)! + 1) * size);
      const span = Promise.resolve(source.slice(from, to)).then((b) => new Uint8Array(b));
      for (const i of missing) {
        const block = span.then(async (bytes) => {
          const part = bytes.subarray(i * size - from, Math.min(length, (i + 1) * size) - from);
          const actual = await sha256Hex(part);
          if (actual !== pins.sha256[i]) {
            refuse(
              `${what.path}: block ${i + 1} of ${count} (bytes ${i * size}–${i * size + part.byteLength}) has sha256 ${actual}, but release.json blocks pins ${pins.sha256[i]}`,
            );
          }
          return part;
        });
        // A failed read (not a refusal) is tried again by the next read.
        block.catch(() => {
          if (!refused) blocks.delete(i);
        });
        blocks.set(i, block);
      }
    }
    const wanted: Array<Promise<Uint8Array>> = [];
    for (let i = first; i <= last; i++) wanted.push(blocks.get(i)!);
    return Promise.all(wanted);
  }

  const file: AsyncBuffer = {
    byteLength: length,
    slice: async (start, end) => {
      if (refused) throw refused;
      if (count !== pins.sha256.length) {
        refuse(
          `${what.path}: ${length} bytes make ${count} blocks of ${size}, but release.json blocks pins ${pins.sha256.length} (the file changed)`,
        );
      }
      const stop = Math.min(end ?? length, length);
      if (stop <= start) return new ArrayBuffer(0);
      const first = Math.floor(start / size);
      const parts = await readBlocks(first, Math.floor((stop - 1) / size));
      const out = new Uint8Array(stop - start);
      let at = 0;
      for (const [k, part] of parts.entries()) {
        const blockStart = (first + k) * size;
        const from = Math.max(start, blockStart) - blockStart;
        const to = Math.min(stop, blockStart + part.byteLength) - blockStart;
        out.set(part.subarray(from, to), at);
        at += to - from;
      }
      return out.buffer;
    },
  };

  function check(): Promise<void> {
    if (!started) {
      started = true;
      checkColumns(file, what).then(settle.resolve, settle.reject);
    }
    return checked;
  }
  return { file, checked, check };
}

/** Checks every deferred parquet file of a release (starting the on-demand ones); rejects with the first refusal. */
export async function parquetChecked(
  parquet: ReadonlyArray<{ checked?: Promise<void>; check?: () => Promise<void> }>,
): Promise<void> {
  await Promise.all(parquet.map((p) => (p.check ? p.check() : p.checked)));
}
