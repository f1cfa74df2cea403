import { errorMessage } from '../../core/error-message.ts';
import { IdbAuditStore } from '../../adapters/browser/idb-audit-store.ts';
import { appealCounts, type GoldAppeal } from '../../core/audit/appeals.ts';
import { localDataScope } from '../../core/audit/scope.ts';
import {
  cleanReviewer,
  labelKey,
  mergeImport,
  putLabel,
  type LabelMerge,
  type SpotLabel,
} from '../../core/audit/spot-check/labels.ts';
import { release } from './release.svelte.ts';
import { remembered } from './remembered.ts';

/** Records an earlier version kept under the release's claimed id, not yet in this release's scope. */
export interface LegacyRecords {
  labels: SpotLabel[];
  appeals: GoldAppeal[];
}

/**
 * The reviewer's spot-check labels and gold appeals for the loaded release, kept in IndexedDB
 * (memory only when the browser refuses it, and the page says so) under the release's scope:
 * where it came from and its pins, not the id it claims.
 */
class AuditStore {
  // Raw: records are replaced, never mutated, and must stay plain objects for IndexedDB's structured clone.
  labels = $state.raw<SpotLabel[]>([]);
  appeals = $state.raw<GoldAppeal[]>([]);
  /** The scope the lists belong to. */
  loadedFor = $state('');
  /** Version 1's records for a release of this name, offered to adopt (a release off the site's list). */
  legacy = $state.raw<LegacyRecords | undefined>();
  persistent = $state(true);
  error = $state<string | undefined>();
  /** Who labels and appeals; a preference of this browser, not view state. */
  reviewer = $state(remembered.get(REVIEWER_KEY) ?? '');
  private store: Promise<IdbAuditStore | undefined> | undefined;

  setReviewer(name: string): void {
    this.reviewer = cleanReviewer(name);
    remembered.set(REVIEWER_KEY, this.reviewer);
  }

  /** The loaded release's identity, as labels and appeals record it (what it says of itself). */
  get identity(): { releaseId: string; datasetVersion: string } | undefined {
    const d = release.summary?.descriptor;
    return d ? { releaseId: d.id, datasetVersion: d.dataset_version } : undefined;
  }

  /** Where the loaded release's records are kept: its origin and pins. */
  get scope(): string | undefined {
    const spec = release.spec;
    const summary = release.summary;
    return spec && summary ? localDataScope(spec, location.href, summary.files) : undefined;
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
    const scope = this.scope;
    const id = this.identity;
    if (!scope || !id || this.loadedFor === scope) return;
    const db = await this.db();
    const [labels, appeals, old] = db
      ? await Promise.all([db.labels(scope), db.appeals(scope), db.legacy(id.releaseId, id.datasetVersion)])
      : [[], [], { labels: [], appeals: [] }];
    if (this.scope !== scope) return;
    this.labels = labels;
    this.appeals = appeals;
    this.loadedFor = scope;
    const have = new Set(labels.map(labelKey));
    const haveAppeals = new Set(appeals.map((a) => a.appeal_id));
    const left: LegacyRecords = {
      labels: old.labels.filter((l) => !have.has(labelKey(l))),
      appeals: old.appeals.filter((a) => !haveAppeals.has(a.appeal_id)),
    };
    const any = left.labels.length + left.appeals.length > 0;
    // The site's own releases take their earlier records at once; any other release is asked first.
    if (any && release.ref?.kind === 'shipped') {
      this.legacy = left;
      await this.adoptLegacy();
    } else this.legacy = any ? left : undefined;
  }

  /** Copies the earlier version's records into this release's scope (the old copies stay where they are). */
  async adoptLegacy(): Promise<void> {
    const old = this.legacy;
    const scope = this.loadedFor;
    if (!old || !scope) return;
    this.legacy = undefined;
    const have = new Set(this.labels.map(labelKey));
    const labels = old.labels.filter((l) => !have.has(labelKey(l)));
    const ids = new Set(this.appeals.map((a) => a.appeal_id));
    const appeals = old.appeals.filter((a) => !ids.has(a.appeal_id));
    this.labels = [...this.labels, ...labels];
    this.appeals = sortAppeals([...this.appeals, ...appeals]);
    const db = await this.db();
    await Promise.all([db?.putLabels(scope, labels), db?.putAppeals(scope, appeals)]);
  }

  /** The reviewer's own answer: it replaces their earlier label of the task. */
  async saveLabel(label: SpotLabel): Promise<void> {
    const scope = this.loadedFor;
    this.labels = putLabel(this.labels, label);
    await (await this.db())?.putLabels(scope, [label]);
  }

  /** Imported labels: another reviewer's are replaced by a later import; the reviewer's own are kept. */
  async importLabels(labels: readonly SpotLabel[]): Promise<LabelMerge> {
    const scope = this.loadedFor;
    const merge = mergeImport(this.labels, labels, this.reviewer);
    this.labels = merge.labels;
    await (await this.db())?.putLabels(scope, merge.changed);
    return merge;
  }

  labelOf(split: string, taskId: string, reviewer: string): SpotLabel | undefined {
    return this.labels.find((l) => l.split === split && l.task_id === taskId && l.reviewer === reviewer);
  }

  async deleteLabel(label: SpotLabel): Promise<void> {
    const scope = this.loadedFor;
    this.labels = this.labels.filter((l) => labelKey(l) !== labelKey(label));
    await (await this.db())?.deleteLabel(scope, label);
  }

  /** A new appeal filed here. */
  async addAppeal(appeal: GoldAppeal): Promise<void> {
    const scope = this.loadedFor;
    this.appeals = sortAppeals([...this.appeals.filter((a) => a.appeal_id !== appeal.appeal_id), appeal]);
    await (await this.db())?.putAppeals(scope, [appeal]);
  }

  /**
   * Imported appeals: only ids this release does not hold yet are added; an appeal already here
   * stays as it is (an import never replaces or deletes what it did not add).
   */
  async importAppeals(appeals: readonly GoldAppeal[]): Promise<{ added: number; alreadyHere: number }> {
    const scope = this.loadedFor;
    const ids = new Set(this.appeals.map((a) => a.appeal_id));
    const fresh = appeals.filter((a) => !ids.has(a.appeal_id));
    this.appeals = sortAppeals([...this.appeals, ...fresh]);
    await (await this.db())?.putAppeals(scope, fresh);
    return { added: fresh.length, alreadyHere: appeals.length - fresh.length };
  }

  async deleteAppeal(appealId: string): Promise<void> {
    const scope = this.loadedFor;
    this.appeals = this.appeals.filter((a) => a.appeal_id !== appealId);
    await (await this.db())?.deleteAppeal(scope, appealId);
  }

  /** Appeals per "split:task_id", for the task list. */
  counts = $derived(appealCounts(this.appeals));
}

const sortAppeals = (list: GoldAppeal[]) => list.sort((a, b) => a.created_at.localeCompare(b.created_at));

const REVIEWER_KEY = 'ebx-reviewer';

export const auditStore = new AuditStore();
