/** Judge cache imports from uploaded files (untrusted: size-capped, errors name the file). */
import { cacheFilesToMap, MAX_CACHE_ENTRIES, parseVerdictsJson, type CacheFileEntry } from '../../judge/cache.ts';
import { readCacheZip } from '../../judge/cache-zip.ts';

export const MAX_CACHE_UPLOAD_BYTES = 512 * 1024 * 1024;
const MAX_CACHE_FILE_BYTES = 16 * 1024 * 1024;
const CACHE_FILE_NAME = /(?:^|\/)[0-9a-f]{2}\/[0-9a-f]{64}\.json$/;

export interface CacheImport {
  map: Map<string, string>;
  /** Files that were not cache entries (ignored). */
  skipped: number;
}

function checkSize(name: string, size: number, limit: number): void {
  if (size > limit) throw new Error(`${name}: ${size} bytes, more than the ${limit} bytes allowed for a judge cache`);
}

/** A verdicts.json map {key: reply}, or a zip of the on-disk cache layout, told apart by content. */
export async function importCacheFile(name: string, blob: Blob): Promise<CacheImport> {
  checkSize(name, blob.size, MAX_CACHE_UPLOAD_BYTES);
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const isZip = bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  if (isZip) {
    const { map, skipped } = await readCacheZip(bytes);
    if (map.size === 0) throw new Error(`${name}: the zip holds no cache file <key[:2]>/<key>.json`);
    return { map, skipped: skipped.length };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error(
      `${name}: expected a verdicts.json map or a zip of the cache folder, found binary data that is not a zip`,
    );
  }
  return { map: parseVerdictsJson(text, name), skipped: 0 };
}

/** A picked or dropped cache folder: only paths shaped `<key[:2]>/<key>.json` are read. */
export async function importCacheFolder(files: ReadonlyArray<{ path: string; file: Blob }>): Promise<CacheImport> {
  const entries: CacheFileEntry[] = [];
  let skipped = 0;
  for (const { path, file } of files) {
    if (!CACHE_FILE_NAME.test(path.replace(/\\/g, '/'))) {
      skipped++;
      continue;
    }
    if (entries.length >= MAX_CACHE_ENTRIES)
      throw new Error(`${path}: more than the ${MAX_CACHE_ENTRIES} cache entries allowed`);
    checkSize(path, file.size, MAX_CACHE_FILE_BYTES);
    entries.push({ path, text: await file.text() });
  }
  if (entries.length === 0) throw new Error('the folder holds no cache file <key[:2]>/<key>.json');
  const { map, skipped: more } = cacheFilesToMap(entries);
  return { map, skipped: skipped + more.length };
}
