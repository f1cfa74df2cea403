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
import { finished, promised } from './idb.ts';

/** Where the browser keeps what source-document lookups learned: one object store per kind. */
export const SOURCE_CACHE_DB = 'ebx-source-docs';
const STORES = ['listing', 'footer', 'ids', 'location', 'text'] as const;
type Store = (typeof STORES)[number];
/** 2 added the text store (batch reads); an upgrade from 1 keeps the other stores as they are. */
const VERSION = 2;

/**
 * The source-document cache in IndexedDB (page or worker): footers as bytes, the rest as
 * structured clones, all checked for shape when read back.
 */
export class IdbSourceCache implements SourceCache {
  private constructor(private readonly db: IDBDatabase) {}

  static async open(factory: IDBFactory = indexedDB, name = SOURCE_CACHE_DB): Promise<IdbSourceCache> {
    const request = factory.open(name, VERSION);
    request.onupgradeneeded = () => {
      for (const store of STORES)
        if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store);
    };
    return new IdbSourceCache(await promised(request));
  }

  private async get(store: Store, key: string): Promise<unknown> {
    return promised(this.db.transaction(store, 'readonly').objectStore(store).get(key));
  }

  private async put(store: Store, key: string, value: unknown): Promise<void> {
    const tx = this.db.transaction(store, 'readwrite');
    tx.objectStore(store).put(value, key);
    await finished(tx);
  }

  async getListing(key: string): Promise<CachedListing | undefined> {
    const v = await this.get('listing', key);
    return isCachedListing(v) ? v : undefined;
  }
  putListing(key: string, value: CachedListing): Promise<void> {
    return this.put('listing', key, value);
  }
  async getFooter(key: string): Promise<Uint8Array | undefined> {
    const v = await this.get('footer', key);
    return v instanceof Uint8Array ? v : undefined;
  }
  putFooter(key: string, bytes: Uint8Array): Promise<void> {
    return this.put('footer', key, bytes);
  }
  async getRowGroupIds(key: string): Promise<string[] | undefined> {
    const v = await this.get('ids', key);
    return isIdList(v) ? v : undefined;
  }
  putRowGroupIds(key: string, ids: string[]): Promise<void> {
    return this.put('ids', key, ids);
  }
  async getLocation(key: string): Promise<CachedLocation | undefined> {
    const v = await this.get('location', key);
    return isCachedLocation(v) ? v : undefined;
  }
  putLocation(key: string, value: CachedLocation): Promise<void> {
    return this.put('location', key, value);
  }
  async getText(key: string): Promise<CachedText | undefined> {
    const v = await this.get('text', key);
    return isCachedText(v) ? v : undefined;
  }
  putText(key: string, value: CachedText): Promise<void> {
    return this.put('text', key, value);
  }
  async clear(): Promise<void> {
    const tx = this.db.transaction([...STORES], 'readwrite');
    for (const store of STORES) tx.objectStore(store).clear();
    await finished(tx);
  }
}
