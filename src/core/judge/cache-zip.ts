import { cacheFilesToMap, mapToCacheFiles, type CacheFilesImport } from './cache.ts';
import { readZip, writeStoredZip, type ZipReadLimits } from './zip.ts';

/** Reads a zipped on-disk judge cache (`.../<key[:2]>/<key>.json` files) into a map. */
export async function readCacheZip(bytes: Uint8Array, limits?: ZipReadLimits): Promise<CacheFilesImport> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const files = (await readZip(bytes, limits)).map((file) => {
    let text: string;
    try {
      text = decoder.decode(file.data);
    } catch {
      throw new Error(`${file.path}: not UTF-8 text`);
    }
    return { path: file.path, text };
  });
  return cacheFilesToMap(files);
}

/** A zip of the map in the on-disk judge cache layout, under `prefix` (e.g. "llm_cache/"). */
export function writeCacheZip(map: ReadonlyMap<string, string>, prefix = 'llm_cache/'): Uint8Array {
  return writeStoredZip(mapToCacheFiles(map, prefix).map((file) => ({ path: file.path, data: file.text })));
}
