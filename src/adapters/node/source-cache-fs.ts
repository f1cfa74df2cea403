/**
 * The source-document cache in a folder (CLI): one file per entry, named by a hash of its key,
 * footers as raw bytes and the rest as JSON. Writes go through a temporary file and a rename, so
 * an interrupted run leaves no half-written entry.
 */
import { sha256HexSync } from './sha256.ts';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  isCachedListing,
  isCachedLocation,
  isCachedText,
  isIdList,
  type CachedListing,
  type CachedLocation,
  type CachedText,
  type SourceCache,
} from '../../core/source-docs/cache.ts';

type Store = 'listing' | 'footer' | 'ids' | 'location' | 'text';

/** $XDG_CACHE_HOME (or ~/.cache)/epstein-bench-explorer/hf-source. */
export function defaultSourceCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'epstein-bench-explorer', 'hf-source');
}

export class FsSourceCache implements SourceCache {
  constructor(readonly dir: string) {}

  private file(store: Store, key: string, ext: 'bin' | 'json'): string {
    const name = sha256HexSync(key).slice(0, 40);
    return path.join(this.dir, store, `${name}.${ext}`);
  }

  private read(file: string): Buffer | undefined {
    try {
      return readFileSync(file);
    } catch {
      return undefined;
    }
  }

  private readJson(store: Store, key: string): unknown {
    const bytes = this.read(this.file(store, key, 'json'));
    if (!bytes) return undefined;
    try {
      const entry = JSON.parse(bytes.toString('utf8')) as { key?: unknown; value?: unknown };
      // The key is stored too: a hash collision or a renamed file is not taken for the entry.
      return entry.key === key ? entry.value : undefined;
    } catch {
      return undefined;
    }
  }

  private write(file: string, data: string | Uint8Array): void {
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  }

  private writeJson(store: Store, key: string, value: unknown): void {
    this.write(this.file(store, key, 'json'), JSON.stringify({ key, value }));
  }

  async getListing(key: string): Promise<CachedListing | undefined> {
    const v = this.readJson('listing', key);
    return isCachedListing(v) ? v : undefined;
  }
  async putListing(key: string, value: CachedListing): Promise<void> {
    this.writeJson('listing', key, value);
  }
  async getFooter(key: string): Promise<Uint8Array | undefined> {
    const bytes = this.read(this.file('footer', key, 'bin'));
    const sidecar = this.readJson('footer', key);
    if (!bytes || sidecar !== bytes.byteLength) return undefined;
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  async putFooter(key: string, bytes: Uint8Array): Promise<void> {
    this.write(this.file('footer', key, 'bin'), bytes);
    // The sidecar names the key and the length, so a truncated .bin is never used.
    this.writeJson('footer', key, bytes.byteLength);
  }
  async getRowGroupIds(key: string): Promise<string[] | undefined> {
    const v = this.readJson('ids', key);
    return isIdList(v) ? v : undefined;
  }
  async putRowGroupIds(key: string, ids: string[]): Promise<void> {
    this.writeJson('ids', key, ids);
  }
  async getLocation(key: string): Promise<CachedLocation | undefined> {
    const v = this.readJson('location', key);
    return isCachedLocation(v) ? v : undefined;
  }
  async putLocation(key: string, value: CachedLocation): Promise<void> {
    this.writeJson('location', key, value);
  }
  async getText(key: string): Promise<CachedText | undefined> {
    const v = this.readJson('text', key);
    return isCachedText(v) ? v : undefined;
  }
  async putText(key: string, value: CachedText): Promise<void> {
    this.writeJson('text', key, value);
  }
  async clear(): Promise<void> {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
