import { errorMessage } from '../../core/error-message.ts';
import { IdbAuditStore } from '../../adapters/browser/idb-audit-store.ts';
import { appealCounts, type GoldAppeal } from '../../core/audit/appeals.ts';
import { cleanReviewer, labelKey, mergeLabels, type SpotLabel } from '../../core/audit/spot-check/labels.ts';
import { release } from './release.svelte.ts';

/**
 * The reviewer's spot-check labels and gold appeals for the loaded release, kept in IndexedDB
 * (memory only when the browser refuses it, and the page says so).
 */
class AuditStore {
  // Raw: records are replaced, never mutated, and must stay plain objects for IndexedDB's structured clone.
  labels = $state.raw<SpotLabel[]>([]);
  appeals = $state.raw<GoldAppeal[]>([]);
  /** "releaseId|datasetVersion" the lists belong to. */
  loadedFor = $state('');
  persistent = $state(true);
  error = $state<string | undefined>();
  /** Who labels and appeals; a preference of this browser, not view state. */
  reviewer = $state(readReviewer());
  private store: Promise<IdbAuditStore | undefined> | undefined;

  setReviewer(name: string): void {
    this.reviewer = cleanReviewer(name);
    try {
      localStorage.setItem(REVIEWER_KEY, this.reviewer);
    } catch {
      // private mode: the name lasts for this page only
    }
  }

  /** The loaded release's identity, as labels and appeals record it. */
  get identity(): { releaseId: string; datasetVersion: string } | undefined {
    const d = release.summary?.descriptor;
    return d ? { releaseId: d.id, datasetVersion: d.dataset_version } : undefined;
  }

  private db(): Promise<IdbAuditStore | undefined> {
    this.store ??= IdbAuditStore.open().catch((e: unknown) => {
      this.persistent = false;
      this.error = `IndexedDB is not available (${errorMessage(e)}): labels and appeals last until this page is closed; export them.`;
      return undefined;
    });
    return this.store;
  }

  /** Reads the lists of the loaded release (once per release). */
  async ensure(): Promise<void> {
    const id = this.identity;
    if (!id) return;
    const key = `${id.releaseId}|${id.datasetVersion}`;
    if (this.loadedFor === key) return;
    const db = await this.db();
    const [labels, appeals] = db
      ? await Promise.all([db.labels(id.releaseId, id.datasetVersion), db.appeals(id.releaseId, id.datasetVersion)])
      : [[], []];
    if (this.identity && `${this.identity.releaseId}|${this.identity.datasetVersion}` !== key) return;
    this.labels = labels;
    this.appeals = appeals;
    this.loadedFor = key;
  }

  async putLabels(labels: readonly SpotLabel[]): Promise<void> {
    const merged = mergeLabels(this.labels, labels);
    const changed = merged.filter((l) => labels.includes(l));
    this.labels = merged;
    await (await this.db())?.putLabels(changed);
  }

  labelOf(split: string, taskId: string, reviewer: string): SpotLabel | undefined {
    return this.labels.find((l) => l.split === split && l.task_id === taskId && l.reviewer === reviewer);
  }

  async deleteLabel(label: SpotLabel): Promise<void> {
    this.labels = this.labels.filter((l) => labelKey(l) !== labelKey(label));
    await (await this.db())?.deleteLabel(label);
  }

  async putAppeals(appeals: readonly GoldAppeal[]): Promise<void> {
    const ids = new Set(appeals.map((a) => a.appeal_id));
    this.appeals = [...this.appeals.filter((a) => !ids.has(a.appeal_id)), ...appeals].sort((a, b) =>
      a.created_at.localeCompare(b.created_at),
    );
    await (await this.db())?.putAppeals(appeals);
  }

  async deleteAppeal(appealId: string): Promise<void> {
    this.appeals = this.appeals.filter((a) => a.appeal_id !== appealId);
    await (await this.db())?.deleteAppeal(appealId);
  }

  /** Appeals per "split:task_id", for the task list. */
  counts = $derived(appealCounts(this.appeals));
}

const REVIEWER_KEY = 'ebx-reviewer';
function readReviewer(): string {
  try {
    return localStorage.getItem(REVIEWER_KEY) ?? '';
  } catch {
    return '';
  }
}

export const auditStore = new AuditStore();
