/**
 * Maps kept between visits (IndexedDB), keyed by a hash of what they were laid out from and the
 * method's version, so that a release's map is computed once. Any failure (private mode, quota)
 * only means the map is computed again.
 */
import type { BenchmarkMap } from '../../core/map/layout.ts';

const DB = 'ebx-maps';
const STORE = 'maps';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB refused'));
  });
}

function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return open().then((db) =>
    new Promise<T>((resolve, reject) => {
      const request = act(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB refused'));
    }).finally(() => db.close()),
  );
}

export async function cachedMap(key: string): Promise<BenchmarkMap | undefined> {
  try {
    return (await run<BenchmarkMap | undefined>('readonly', (s) => s.get(key))) ?? undefined;
  } catch {
    return undefined;
  }
}

export async function keepMap(key: string, map: BenchmarkMap): Promise<void> {
  try {
    await run('readwrite', (s) => s.put(map, key));
  } catch {
    // Not kept: computed again next time.
  }
}
