/**
 * Node-only judge cache I/O: a verdicts.json map {key: reply} or the benchmark's cache
 * folder (<key[:2]>/<key>.json holding {"text": reply}), and the offline judge built on it.
 */
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileRefusedError, readRegularText } from './regular-file.ts';
import { serializeVerdictsJson } from '../../core/judge/cache.ts';
import { pyJsonDumps } from '../../core/python/json-dumps.ts';
import { JudgeCallMissingError } from '../../core/scoring/score.ts';
import type { JudgeFn } from '../../core/scoring/score.ts';

const KEY = /^[0-9a-f]{64}$/;
const MAX_MAP_BYTES = 1024 * 1024 * 1024;
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;

export interface JudgeCacheReader {
  /** Where the replies come from, for messages. */
  readonly source: string;
  get(key: string): Promise<string | undefined>;
}

export class JudgeCacheError extends Error {}

async function openMap(file: string, size: number): Promise<JudgeCacheReader> {
  const map = await readMapFile(file, size);
  return { source: file, get: async (key) => map.get(key) };
}

async function readMapFile(file: string, size: number): Promise<Map<string, string>> {
  if (size > MAX_MAP_BYTES)
    throw new JudgeCacheError(`${file}: ${size} bytes is more than a verdicts map may hold (${MAX_MAP_BYTES})`);
  let value: unknown;
  try {
    value = JSON.parse(await readRegularText(file, MAX_MAP_BYTES));
  } catch (error) {
    if (error instanceof FileRefusedError) throw new JudgeCacheError(error.message);
    throw new JudgeCacheError(
      `${file}: expected a JSON object {key: reply}, found invalid JSON (${(error as Error).message})`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new JudgeCacheError(`${file}: expected a JSON object {key: reply}`);
  const map = new Map<string, string>();
  for (const [key, reply] of Object.entries(value as Record<string, unknown>)) {
    if (typeof reply !== 'string')
      throw new JudgeCacheError(`${file}, key ${key}: expected the reply text as a string, found ${typeof reply}`);
    map.set(key, reply);
  }
  return map;
}

function openFolder(dir: string): JudgeCacheReader {
  return {
    source: dir,
    async get(key) {
      if (!KEY.test(key)) return undefined;
      const file = path.join(dir, key.slice(0, 2), `${key}.json`);
      let text: string;
      try {
        text = await readRegularText(file, MAX_ENTRY_BYTES);
      } catch {
        return undefined;
      }
      try {
        const entry = JSON.parse(text) as { text?: unknown };
        // like llm.py, a corrupt entry counts as a miss
        return typeof entry?.text === 'string' ? entry.text : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** A verdicts.json file or a cache folder, whichever `location` is. */
export async function openJudgeCache(location: string): Promise<JudgeCacheReader> {
  let info;
  try {
    info = await stat(location);
  } catch {
    throw new JudgeCacheError(`${location}: no such file or folder`);
  }
  return info.isDirectory() ? openFolder(location) : openMap(location, info.size);
}

/** Writes one entry in the benchmark's format (json.dumps({"text": reply})), atomically. */
export async function writeJudgeCacheEntry(dir: string, key: string, reply: string): Promise<void> {
  if (!KEY.test(key)) throw new JudgeCacheError(`not a cache key: ${key}`);
  const folder = path.join(dir, key.slice(0, 2));
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `${key}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, pyJsonDumps({ text: reply }, { ensureAscii: true }), 'utf8');
  await rename(tmp, file);
}

/** Offline judging: every reply must be in the cache. */
export function cacheOnlyJudge(cache: JudgeCacheReader): JudgeFn {
  return async (call) => {
    const reply = await cache.get(call.key);
    if (reply === undefined) throw new JudgeCallMissingError(call);
    return reply;
  };
}

/** A cache that live judging reads and writes: every new reply is on disk as soon as it arrives. */
export interface WritableJudgeCache extends JudgeCacheReader {
  set(key: string, reply: string): Promise<void>;
}

/**
 * A cache folder (created when absent) or a verdicts.json map (a path ending in .json). A map is
 * rewritten whole, atomically, after each new reply; writes are serialised.
 */
export async function openWritableJudgeCache(location: string): Promise<WritableJudgeCache> {
  let info;
  try {
    info = await stat(location);
  } catch {
    info = undefined;
  }
  if (info?.isDirectory() || (!info && !location.endsWith('.json'))) {
    await mkdir(location, { recursive: true });
    const reader = openFolder(location);
    return { ...reader, set: (key, reply) => writeJudgeCacheEntry(location, key, reply) };
  }
  const map = info ? await readMapFile(location, info.size) : new Map<string, string>();
  let queue: Promise<void> = Promise.resolve();
  const persist = async (): Promise<void> => {
    const tmp = `${location}.${process.pid}.tmp`;
    await writeFile(tmp, serializeVerdictsJson(map), 'utf8');
    await rename(tmp, location);
  };
  return {
    source: location,
    get: async (key) => map.get(key),
    set: (key, reply) => {
      if (!KEY.test(key)) return Promise.reject(new JudgeCacheError(`not a cache key: ${key}`));
      map.set(key, reply);
      queue = queue.then(persist, persist);
      return queue;
    },
  };
}
