import type { GoldAppeal } from '../../core/audit/appeals.ts';
import { labelKey, type SpotLabel } from '../../core/audit/spot-check/labels.ts';
import { finished, promised } from './idb.ts';

/** Where the browser keeps spot-check labels and gold appeals (they survive reloads). */
export const AUDIT_DB = 'ebx-audit';
/** Version 1's stores, keyed by what a release said about itself: read only, to adopt their records. */
const LEGACY_LABELS = 'labels';
const LEGACY_APPEALS = 'appeals';
const LABELS = 'scoped-labels';
const APPEALS = 'scoped-appeals';
const VERSION = 2;

/** A record kept under its release's scope (localDataScope: origin and pins). */
interface Scoped<T> {
  scope: string;
  record: T;
}

const scopedKey = (scope: string, key: string) => `${scope}\u0000${key}`;

/**
 * Labels by (scope, release, version, split, task, reviewer); appeals by (scope, appeal id). Two
 * releases never share a record, whatever ids they claim.
 */
export class IdbAuditStore {
  private constructor(private readonly db: IDBDatabase) {}

  static async open(factory: IDBFactory = indexedDB, name = AUDIT_DB): Promise<IdbAuditStore> {
    const request = factory.open(name, VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      for (const store of [LABELS, APPEALS])
        if (!db.objectStoreNames.contains(store)) db.createObjectStore(store).createIndex('scope', 'scope');
    };
    return new IdbAuditStore(await promised(request));
  }

  private async ofScope<T>(store: string, scope: string): Promise<T[]> {
    const index = this.db.transaction(store, 'readonly').objectStore(store).index('scope');
    return ((await promised(index.getAll(scope))) as Array<Scoped<T>>).map((s) => s.record);
  }

  private async putMany<T>(store: string, scope: string, entries: ReadonlyArray<readonly [string, T]>): Promise<void> {
    const tx = this.db.transaction(store, 'readwrite');
    const s = tx.objectStore(store);
    for (const [key, record] of entries) s.put({ scope, record } satisfies Scoped<T>, scopedKey(scope, key));
    await finished(tx);
  }

  private async deleteOne(store: string, scope: string, key: string): Promise<void> {
    const tx = this.db.transaction(store, 'readwrite');
    tx.objectStore(store).delete(scopedKey(scope, key));
    await finished(tx);
  }

  labels(scope: string): Promise<SpotLabel[]> {
    return this.ofScope<SpotLabel>(LABELS, scope);
  }

  putLabels(scope: string, labels: readonly SpotLabel[]): Promise<void> {
    return this.putMany(
      LABELS,
      scope,
      labels.map((l) => [labelKey(l), l] as const),
    );
  }

  deleteLabel(scope: string, label: SpotLabel): Promise<void> {
    return this.deleteOne(LABELS, scope, labelKey(label));
  }

  async appeals(scope: string): Promise<GoldAppeal[]> {
    return (await this.ofScope<GoldAppeal>(APPEALS, scope)).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  putAppeals(scope: string, appeals: readonly GoldAppeal[]): Promise<void> {
    return this.putMany(
      APPEALS,
      scope,
      appeals.map((a) => [a.appeal_id, a] as const),
    );
  }

  deleteAppeal(scope: string, appealId: string): Promise<void> {
    return this.deleteOne(APPEALS, scope, appealId);
  }

  /**
   * Records version 1 kept under a release's claimed id and dataset version (left in place: they
   * are read, never changed, so a release adopting them takes nothing from another).
   */
  async legacy(releaseId: string, datasetVersion: string): Promise<{ labels: SpotLabel[]; appeals: GoldAppeal[] }> {
    const all = async <T extends { release_id: string; dataset_version: string }>(store: string): Promise<T[]> => {
      if (!this.db.objectStoreNames.contains(store)) return [];
      const rows = (await promised(this.db.transaction(store, 'readonly').objectStore(store).getAll())) as T[];
      return rows.filter((r) => r.release_id === releaseId && r.dataset_version === datasetVersion);
    };
    return { labels: await all<SpotLabel>(LEGACY_LABELS), appeals: await all<GoldAppeal>(LEGACY_APPEALS) };
  }
}
