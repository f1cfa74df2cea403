import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AsyncBuffer } from 'hyparquet';
import type { ReleaseSource } from '../../core/release/source.ts';

/** A release folder on disk, for the CLI. */
export class FolderSource implements ReleaseSource {
  private readonly files: string[];
  constructor(readonly root: string) {
    this.files = walk(root, '').sort();
  }
  get label(): string {
    return this.root;
  }
  list(): readonly string[] {
    return this.files;
  }
  async read(rel: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(readFileSync(path.join(this.root, rel)));
    } catch {
      return undefined;
    }
  }
  async open(rel: string): Promise<AsyncBuffer | undefined> {
    const bytes = await this.read(rel);
    return bytes ? { byteLength: bytes.byteLength, slice: (s, e) => bytes.slice(s, e).buffer } : undefined;
  }
}

function walk(root: string, rel: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, rel))) {
    if (name.startsWith('.')) continue;
    const child = rel ? `${rel}/${name}` : name;
    if (statSync(path.join(root, child)).isDirectory()) out.push(...walk(root, child));
    else out.push(child);
  }
  return out;
}
