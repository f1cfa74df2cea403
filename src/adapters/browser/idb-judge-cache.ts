import type { JudgeCacheStore } from '../../core/scoring/session/cache-store.ts';
import { finished, promised } from './idb.ts';

/** Where the browser keeps judge replies: one object store, reply text by cache key. */
export const JUDGE_CACHE_DB = 'ebx-judge-cache';
const STORE = 'replies';
const VERSION = 1;

/**
 * The judge cache in IndexedDB (page or worker), keyed by the judge cache key, so that a reload
 * resumes a run without repeating the calls already answered. Values are the raw reply texts.
 */
export class IdbJudgeCache implements JudgeCacheStore {
  readonly persistent = true;

  private constructor(private readonly db: IDBDatabase) {}

  static async open(factory: IDBFactory = indexedDB, name = JUDGE_CACHE_DB): Promise<IdbJudgeCache> {
    const request = factory.open(name, VERSION);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
    };
    return new IdbJudgeCache(await promised(request));
  }

  async get(key: string): Promise<string | undefined> {
    const value: unknown = await promised(this.db.transaction(STORE, 'readonly').objectStore(STORE).get(key));
    return typeof value === 'string' ? value : undefined;
  }

  async set(key: string, text: string): Promise<void> {
    const tx = this.db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(text, key);
    await finished(tx);
  }

  /** Stores many replies in one transaction (imports). */
  async setMany(entries: Iterable<readonly [string, string]>): Promise<number> {
    const tx = this.db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    let n = 0;
    for (const [key, text] of entries) {
      store.put(text, key);
      n++;
    }
    await finished(tx);
    return n;
  }

  async count(): Promise<number> {
    return promised(this.db.transaction(STORE, 'readonly').objectStore(STORE).count());
  }

  /** Every entry, for export. */
  async entries(): Promise<Map<string, string>> {
    const store = this.db.transaction(STORE, 'readonly').objectStore(STORE);
    const [keys, values] = await Promise.all([promised(store.getAllKeys()), promised(store.getAll())]);
    const map = new Map<string, string>();
    keys.forEach((key, i) => {
      const value: unknown = values[i];
      if (typeof key === 'string' && typeof value === 'string') map.set(key, value);
    });
    return map;
  }

  async clear(): Promise<void> {
    const tx = this.db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).clear();
    await finished(tx);
  }
}
