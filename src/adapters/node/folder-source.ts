import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AsyncBuffer } from 'hyparquet';
import type { ReleaseSource } from '../../core/release/source.ts';
import { MAX_RELEASE_FILE_BYTES, pathInside, readRegularFile } from './regular-file.ts';

/**
 * A release folder on disk, for the CLI. Reads only regular files inside the folder (a link out
 * of it, a FIFO or a device is refused with FileRefusedError), each at most `limit` bytes.
 */
export class FolderSource implements ReleaseSource {
  private readonly files: string[];
  constructor(
    readonly root: string,
    private readonly limit = MAX_RELEASE_FILE_BYTES,
  ) {
    const rootReal = realpathSync(root);
    this.files = walk(root, rootReal, '', new Set([rootReal])).sort();
  }
  get label(): string {
    return this.root;
  }
  list(): readonly string[] {
    return this.files;
  }
  async read(rel: string): Promise<Uint8Array | undefined> {
    try {
      return await readRegularFile(pathInside(this.root, rel), this.limit);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }
  async open(rel: string): Promise<AsyncBuffer | undefined> {
    const bytes = await this.read(rel);
    return bytes ? { byteLength: bytes.byteLength, slice: (s, e) => bytes.slice(s, e).buffer } : undefined;
  }
}

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Every file under the folder. A linked folder inside is entered unless it is one of its own parents (a link loop ends); what a link
 * outside the folder names is listed as it is, so that reading it is refused with its reason.
 */
function walk(root: string, rootReal: string, rel: string, ancestors: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, rel))) {
    if (name.startsWith('.')) continue;
    const child = rel ? `${rel}/${name}` : name;
    const full = path.join(root, child);
    let isDirectory = false;
    try {
      isDirectory = statSync(full).isDirectory();
    } catch {
      // a dangling link: listed, and refused or missing when read
    }
    if (!isDirectory) {
      out.push(child);
      continue;
    }
    let real: string;
    try {
      real = realpathSync(full);
    } catch {
      continue;
    }
    const relReal = path.relative(rootReal, real);
    if (relReal.startsWith('..') || path.isAbsolute(relReal)) {
      out.push(child);
      continue;
    }
    if (ancestors.has(real)) continue;
    out.push(...walk(root, rootReal, child, new Set([...ancestors, real])));
  }
  return out;
}
