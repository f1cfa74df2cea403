/**
 * Reading and writing files the way untrusted folders need: only regular files are read (a FIFO
 * would block for ever, /dev/zero never ends), every read has a size limit, and a path inside a
 * root folder must stay inside it after its symbolic links are resolved, for reads and writes.
 */
import { constants, fstatSync, lstatSync, mkdirSync, openSync, closeSync, readSync, realpathSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Inputs the scorer reads whole (tasks, predictions, profiles, scores): the browser's own limit. */
export const MAX_INPUT_FILE_BYTES = 256 * 1024 * 1024;
/** A release file read whole (its largest are the retrieval indexes). */
export const MAX_RELEASE_FILE_BYTES = 1024 * 1024 * 1024;

export type RefusalReason = 'not-regular' | 'too-large' | 'outside';

/** A file refused before (or while) reading it; the message names the file and the rule. */
export class FileRefusedError extends Error {
  constructor(
    readonly file: string,
    readonly reason: RefusalReason,
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024 && n % (1024 * 1024 * 1024) === 0) return `${n / (1024 * 1024 * 1024)} GiB`;
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  return `${n.toLocaleString('en')} bytes`;
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isDirectory()) return 'a folder';
  return 'not a regular file';
}

function refuseIrregular(file: string, info: Stats, limit: number): void {
  if (!info.isFile())
    throw new FileRefusedError(
      file,
      'not-regular',
      `is ${kindOf(info)}, not a regular file; refused (it may never end)`,
    );
  if (info.size > limit) throw tooLarge(file, limit);
}

function tooLarge(file: string, limit: number): FileRefusedError {
  return new FileRefusedError(
    file,
    'too-large',
    `is larger than the ${formatBytes(limit)} limit for this file; refused`,
  );
}

/**
 * Opens without blocking (O_NONBLOCK: opening a FIFO would otherwise wait for a writer) and
 * refuses anything but a regular file of at most `limit` bytes.
 */
async function openRegular(file: string, limit: number): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    refuseIrregular(file, info, limit);
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The whole of a regular file of at most `limit` bytes (a file that grows while read is refused too). */
export async function readRegularFile(file: string, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const { handle, size } = await openRegular(file, limit);
  try {
    const out = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(out, filled, size - filled, filled);
      if (bytesRead === 0) return out.subarray(0, filled);
      filled += bytesRead;
    }
    const probe = new Uint8Array(1);
    if ((await handle.read(probe, 0, 1, size)).bytesRead > 0) throw tooLarge(file, Math.min(limit, size));
    return out;
  } finally {
    await handle.close();
  }
}

/** The same, synchronously (for the callers that read synchronously). */
export function readRegularFileSync(file: string, limit: number): Uint8Array<ArrayBuffer> {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    refuseIrregular(file, info, limit);
    const out = new Uint8Array(info.size);
    let filled = 0;
    while (filled < info.size) {
      const n = readSync(fd, out, filled, info.size - filled, filled);
      if (n === 0) return out.subarray(0, filled);
      filled += n;
    }
    if (readSync(fd, new Uint8Array(1), 0, 1, info.size) > 0) throw tooLarge(file, Math.min(limit, info.size));
    return out;
  } finally {
    closeSync(fd);
  }
}

export async function readRegularText(file: string, limit: number): Promise<string> {
  return new TextDecoder().decode(await readRegularFile(file, limit));
}

/** A regular file's bytes as chunks, refusing it once more than `limit` bytes have come. */
export async function* regularFileChunks(
  file: string,
  limit: number,
  chunkBytes = 1 << 20,
): AsyncGenerator<Uint8Array> {
  const { handle } = await openRegular(file, limit);
  try {
    let position = 0;
    for (;;) {
      const buffer = new Uint8Array(chunkBytes);
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      if (position > limit) throw tooLarge(file, limit);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * `rel` (with '/') under `root`, refused when it or a folder on its way is a symbolic link that
 * leads outside `root`. Returns the joined path (the file may not exist).
 */
export function pathInside(root: string, rel: string, what = 'the release folder'): string {
  const joined = path.join(root, ...rel.split('/'));
  const realRoot = realpathSync(root);
  if (!isInside(path.resolve(root), path.resolve(joined)))
    throw new FileRefusedError(joined, 'outside', `is outside ${what} ${root}; refused`);
  // the deepest part of the path that exists, resolved: a link anywhere on the way is followed
  let existing = path.resolve(joined);
  for (;;) {
    try {
      lstatSync(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return joined;
      existing = parent;
    }
  }
  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    // a dangling link: where it points is unknown until it exists; refuse rather than guess
    throw new FileRefusedError(joined, 'outside', `is a symbolic link that leads nowhere inside ${what}; refused`);
  }
  if (!isInside(realRoot, real))
    throw new FileRefusedError(
      joined,
      'outside',
      `is a symbolic link (or lies under one) that leads outside ${what} ${root} (to ${real}); refused`,
    );
  return joined;
}

/** Creates the folders of `rel` under `root` (refusing links that leave it) and returns the file's path. */
export function writablePathInside(root: string, rel: string, what = 'the release folder'): string {
  const target = pathInside(root, rel, what);
  mkdirSync(path.dirname(target), { recursive: true });
  return pathInside(root, rel, what);
}
