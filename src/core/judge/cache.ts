import { errorMessage } from '../error-message.ts';
import { pyJsonDumps } from '../python/json-dumps.ts';
import type { JudgeCache } from './types.ts';

/** A cache held in memory (tests, the CLI's offline scoring, a page without IndexedDB). */
export class MemoryJudgeCache implements JudgeCache {
  readonly entries: Map<string, string>;

  constructor(entries?: Iterable<readonly [string, string]>) {
    this.entries = new Map(entries);
  }

  async get(key: string): Promise<string | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, text: string): Promise<void> {
    this.entries.set(key, text);
  }
}

/** A judge cache key: hex sha256. */
const CACHE_KEY = /^[0-9a-f]{64}$/;

export function isCacheKey(value: string): boolean {
  return CACHE_KEY.test(value);
}

/** Bounds for imported cache maps (untrusted uploads). */
export const MAX_CACHE_ENTRIES = 200_000;
export const MAX_REPLY_CHARS = 200_000;

/**
 * Reads the golden verdicts.json format: one JSON object {"<cache key>": "<raw reply text>"}.
 * Throws an Error naming the source, the key and what was wrong.
 */
export function parseVerdictsJson(text: string, source = 'verdicts.json'): Map<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not valid JSON (${errorMessage(error)})`, {
      cause: error,
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${source}: expected a JSON object {"<cache key>": "<reply text>"}, found ${describe(parsed)}`);
  }
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length > MAX_CACHE_ENTRIES) {
    throw new Error(`${source}: ${entries.length} entries, more than the ${MAX_CACHE_ENTRIES} allowed`);
  }
  const map = new Map<string, string>();
  for (const [key, value] of entries) {
    if (!isCacheKey(key)) throw new Error(`${source}: key ${JSON.stringify(key)} is not a 64-hex-digit cache key`);
    if (typeof value !== 'string') {
      throw new Error(`${source}: value of key ${key} should be the reply text (a string), found ${describe(value)}`);
    }
    if (value.length > MAX_REPLY_CHARS) {
      throw new Error(`${source}: reply of key ${key} is longer than ${MAX_REPLY_CHARS} characters`);
    }
    map.set(key, value);
  }
  return map;
}

/** Writes a map as the benchmark writes verdicts.json: keys sorted, indent 1, ASCII escapes, final newline. */
export function serializeVerdictsJson(map: ReadonlyMap<string, string>): string {
  const sorted = new Map([...map.keys()].sort().map((key) => [key, map.get(key) ?? '']));
  return `${pyJsonDumps(sorted, { indent: 1, ensureAscii: true })}\n`;
}

/** A file of an on-disk judge cache (folder or zip), with its path relative to any root. */
export interface CacheFileEntry {
  path: string;
  text: string;
}

export interface CacheFilesImport {
  map: Map<string, string>;
  /** Files that are not cache entries by their path (README, .DS_Store, ...): not read. */
  skipped: string[];
}

/** `<key[:2]>/<key>.json` as the last two path segments, under any prefix (e.g. build/llm_cache/). */
const CACHE_FILE_PATH = /(?:^|\/)([0-9a-f]{2})\/([0-9a-f]{64})\.json$/;

/**
 * Reads the on-disk cache layout `<key[:2]>/<key>.json`, each file holding {"text": "<raw reply>"}.
 * Files whose path is not of that shape are skipped; a cache file with bad content throws.
 */
export function cacheFilesToMap(files: readonly CacheFileEntry[]): CacheFilesImport {
  const map = new Map<string, string>();
  const skipped: string[] = [];
  for (const file of files) {
    const path = file.path.replace(/\\/g, '/');
    const match = CACHE_FILE_PATH.exec(path);
    if (match === null) {
      skipped.push(file.path);
      continue;
    }
    const [, shard, key] = match as unknown as [string, string, string];
    if (!key.startsWith(shard)) {
      throw new Error(`${file.path}: cache file is in folder ${shard}/ but its key starts with ${key.slice(0, 2)}`);
    }
    if (map.size >= MAX_CACHE_ENTRIES) {
      throw new Error(`${file.path}: more than the ${MAX_CACHE_ENTRIES} cache entries allowed`);
    }
    map.set(key, readCacheFileText(file));
  }
  return { map, skipped };
}

function readCacheFileText(file: CacheFileEntry): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.text);
  } catch (error) {
    throw new Error(`${file.path}: not valid JSON (${errorMessage(error)})`, {
      cause: error,
    });
  }
  const text =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>).text
      : undefined;
  if (typeof text !== 'string') {
    throw new Error(`${file.path}: expected {"text": "<reply>"}, found ${describe(parsed)}`);
  }
  if (text.length > MAX_REPLY_CHARS) {
    throw new Error(`${file.path}: reply is longer than ${MAX_REPLY_CHARS} characters`);
  }
  return text;
}

/** The on-disk cache layout for a map: `<prefix><key[:2]>/<key>.json` holding {"text": reply}, keys sorted. */
export function mapToCacheFiles(map: ReadonlyMap<string, string>, prefix = ''): CacheFileEntry[] {
  const root = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
  return [...map.keys()].sort().map((key) => {
    if (!isCacheKey(key)) throw new Error(`cache key ${JSON.stringify(key)} is not 64 hex digits`);
    return {
      path: `${root}${key.slice(0, 2)}/${key}.json`,
      text: pyJsonDumps({ text: map.get(key) ?? '' }, { ensureAscii: true }),
    };
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 60))}`;
  if (typeof value === 'object') return `an object with keys ${JSON.stringify(Object.keys(value).slice(0, 5))}`;
  return `${typeof value} ${String(value)}`;
}
