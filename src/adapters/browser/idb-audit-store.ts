import type { GoldAppeal } from '../../core/audit/appeals.ts';
import { labelKey, type SpotLabel } from '../../core/audit/spot-check/labels.ts';
import { finished, promised } from './idb.ts';

/** Where the browser keeps spot-check labels and gold appeals (they survive reloads). */
export const AUDIT_DB = 'ebx-audit';
const LABELS = 'labels';
const APPEALS = 'appeals';
const VERSION = 1;

/** Labels by (release, version, split, task, reviewer); appeals by their id. Values are the records as exported. */
export class IdbAuditStore {
  private constructor(private readonly db: IDBDatabase) {}

  static async open(factory: IDBFactory = indexedDB, name = AUDIT_DB): Promise<IdbAuditStore> {
    const request = factory.open(name, VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(LABELS)) db.createObjectStore(LABELS);
      if (!db.objectStoreNames.contains(APPEALS)) db.createObjectStore(APPEALS);
    };
    return new IdbAuditStore(await promised(request));
  }

  private async all<T>(store: string): Promise<T[]> {
    return (await promised(this.db.transaction(store, 'readonly').objectStore(store).getAll())) as T[];
  }

  private async putMany(store: string, entries: ReadonlyArray<readonly [string, unknown]>): Promise<void> {
    const tx = this.db.transaction(store, 'readwrite');
    const s = tx.objectStore(store);
    for (const [key, value] of entries) s.put(value, key);
    await finished(tx);
  }

  /** Every label of one release and dataset version. */
  async labels(releaseId: string, datasetVersion: string): Promise<SpotLabel[]> {
    return (await this.all<SpotLabel>(LABELS)).filter(
      (l) => l.release_id === releaseId && l.dataset_version === datasetVersion,
    );
  }

  async putLabels(labels: readonly SpotLabel[]): Promise<void> {
    await this.putMany(
      LABELS,
      labels.map((l) => [labelKey(l), l] as const),
    );
  }

  async deleteLabel(label: SpotLabel): Promise<void> {
    const tx = this.db.transaction(LABELS, 'readwrite');
    tx.objectStore(LABELS).delete(labelKey(label));
    await finished(tx);
  }

  async appeals(releaseId: string, datasetVersion: string): Promise<GoldAppeal[]> {
    return (await this.all<GoldAppeal>(APPEALS))
      .filter((a) => a.release_id === releaseId && a.dataset_version === datasetVersion)
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async putAppeals(appeals: readonly GoldAppeal[]): Promise<void> {
    await this.putMany(
      APPEALS,
      appeals.map((a) => [a.appeal_id, a] as const),
    );
  }

  async deleteAppeal(appealId: string): Promise<void> {
    const tx = this.db.transaction(APPEALS, 'readwrite');
    tx.objectStore(APPEALS).delete(appealId);
    await finished(tx);
  }
}
