import { SvelteMap } from 'svelte/reactivity';
import { errorMessage } from '../../core/error-message.ts';
import { appealCounts, type GoldAppeal } from '../../core/audit/appeals.ts';
import {
  cleanReviewer,
  labelKey,
  mergeImport,
  putLabel,
  type LabelMerge,
  type SpotLabel,
} from '../../core/audit/spot-check/labels.ts';
import { remembered } from './remembered.ts';

/** Records an earlier version kept under the release's claimed id, not yet in this release's scope. */
export interface LegacyRecords {
  labels: SpotLabel[];
  appeals: GoldAppeal[];
}

/** Where the lists are kept (IndexedDB in the page: IdbAuditStore). */
export interface AuditDb {
  labels(scope: string): Promise<SpotLabel[]>;
  appeals(scope: string): Promise<GoldAppeal[]>;
  legacy(releaseId: string, datasetVersion: string): Promise<LegacyRecords>;
  putLabels(scope: string, labels: readonly SpotLabel[]): Promise<void>;
  putAppeals(scope: string, appeals: readonly GoldAppeal[]): Promise<void>;
  deleteLabel(scope: string, label: SpotLabel): Promise<void>;
  deleteAppeal(scope: string, appealId: string): Promise<void>;
}

/** What the lists follow: the loaded release's scope and identity, and where they are stored. */
export interface AuditHost {
  /** The loaded release's scope (localDataScope: origin and pins), undefined before one is loaded. */
  scope(): string | undefined;
  /** The loaded release's identity, as labels and appeals record it (what it says of itself). */
  identity(): { releaseId: string; datasetVersion: string } | undefined;
  /** The site's own releases take their earlier records at once; any other release is asked first. */
  shipped(): boolean;
  openDb(): Promise<AuditDb>;
}

/** A change of the lists, replayed on a scope's stored lists when it was made before they were read. */
type Change =
  /** `imported`: a label replaced keeps its place (as mergeImport orders them); the reviewer's own moves last. */
  | { kind: 'put-labels'; labels: readonly SpotLabel[]; imported?: boolean }
  | { kind: 'delete-label'; label: SpotLabel }
  | { kind: 'put-appeals'; appeals: readonly GoldAppeal[] }
  | { kind: 'delete-appeal'; appealId: string };

const REVIEWER_KEY = 'ebx-reviewer';

/** Membership over a list as it is now (not state: made and dropped at once). */
const labelKeys = (labels: readonly SpotLabel[]): ReadonlySet<string> => new Set(labels.map(labelKey));
const appealIds = (appeals: readonly GoldAppeal[]): ReadonlySet<string> => new Set(appeals.map((a) => a.appeal_id));

function replaceInPlace(stored: readonly SpotLabel[], labels: readonly SpotLabel[]): SpotLabel[] {
  const byKey = new SvelteMap(stored.map((l) => [labelKey(l), l] as const));
  for (const l of labels) byKey.set(labelKey(l), l);
  return [...byKey.values()];
}

const sortAppeals = (list: GoldAppeal[]) => list.sort((a, b) => a.created_at.localeCompare(b.created_at));

/**
 * The reviewer's spot-check labels and gold appeals for the loaded release, kept in IndexedDB
 * (memory only when the browser refuses it, and the page says so) under the release's scope:
 * where it came from and its pins, not the id it claims.
 *
 * A change goes to the scope shown when it is made. Until that scope's lists are read (the
 * release just changed, ensure() is under way) it waits, and is replayed on those lists once
 * they are read: never written under the previous release's scope, never lost.
 */
export class AuditLists {
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
  private store: Promise<AuditDb | undefined> | undefined;
  /** Changes made for a scope whose lists are not read yet, in order. */
  private readonly waiting = new SvelteMap<string, Change[]>();

  constructor(private readonly host: AuditHost) {}

  setReviewer(name: string): void {
    this.reviewer = cleanReviewer(name);
    remembered.set(REVIEWER_KEY, this.reviewer);
  }

  get identity(): { releaseId: string; datasetVersion: string } | undefined {
    return this.host.identity();
  }

  get scope(): string | undefined {
    return this.host.scope();
  }

  private db(): Promise<AuditDb | undefined> {
    this.store ??= this.host.openDb().catch((e: unknown) => {
      this.persistent = false;
      this.error = `IndexedDB is not available (${errorMessage(e)}): labels and appeals last until this page is closed; export them.`;
      return undefined;
    });
    return this.store;
  }

  /** Reads the lists of the loaded release (once per release), then replays what was recorded for it meanwhile. */
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
    const early = this.waiting.get(scope) ?? [];
    this.waiting.delete(scope);
    for (const change of early) await this.apply(scope, change);
    const have = labelKeys(this.labels);
    const haveAppeals = appealIds(this.appeals);
    const left: LegacyRecords = {
      labels: old.labels.filter((l) => !have.has(labelKey(l))),
      appeals: old.appeals.filter((a) => !haveAppeals.has(a.appeal_id)),
    };
    const any = left.labels.length + left.appeals.length > 0;
    if (any && this.host.shipped()) {
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
    const have = labelKeys(this.labels);
    const labels = old.labels.filter((l) => !have.has(labelKey(l)));
    const ids = appealIds(this.appeals);
    const appeals = old.appeals.filter((a) => !ids.has(a.appeal_id));
    this.labels = [...this.labels, ...labels];
    this.appeals = sortAppeals([...this.appeals, ...appeals]);
    const db = await this.db();
    await Promise.all([db?.putLabels(scope, labels), db?.putAppeals(scope, appeals)]);
  }

  /** A change to the lists shown, stored under the scope shown (or kept until its lists are read). */
  private async record(change: Change): Promise<void> {
    const scope = this.scope;
    if (scope && scope === this.loadedFor) return this.apply(scope, change);
    this.change(change);
    if (scope) this.waiting.set(scope, [...(this.waiting.get(scope) ?? []), change]);
  }

  /** The change in memory. */
  private change(change: Change): void {
    if (change.kind === 'put-labels')
      this.labels = change.imported
        ? replaceInPlace(this.labels, change.labels)
        : change.labels.reduce(putLabel, this.labels);
    else if (change.kind === 'delete-label')
      this.labels = this.labels.filter((l) => labelKey(l) !== labelKey(change.label));
    else if (change.kind === 'put-appeals') {
      const ids = appealIds(change.appeals);
      this.appeals = sortAppeals([...this.appeals.filter((a) => !ids.has(a.appeal_id)), ...change.appeals]);
    } else this.appeals = this.appeals.filter((a) => a.appeal_id !== change.appealId);
  }

  /** The change in memory and in the store, under `scope`. */
  private async apply(scope: string, change: Change): Promise<void> {
    this.change(change);
    const db = await this.db();
    if (!db) return;
    if (change.kind === 'put-labels') await db.putLabels(scope, change.labels);
    else if (change.kind === 'delete-label') await db.deleteLabel(scope, change.label);
    else if (change.kind === 'put-appeals') await db.putAppeals(scope, change.appeals);
    else await db.deleteAppeal(scope, change.appealId);
  }

  /** The reviewer's own answer: it replaces their earlier label of the task. */
  saveLabel(label: SpotLabel): Promise<void> {
    return this.record({ kind: 'put-labels', labels: [label] });
  }

  /** Imported labels: another reviewer's are replaced by a later import; the reviewer's own are kept. */
  async importLabels(labels: readonly SpotLabel[]): Promise<LabelMerge> {
    const merge = mergeImport(this.labels, labels, this.reviewer);
    await this.record({ kind: 'put-labels', labels: merge.changed, imported: true });
    return merge;
  }

  labelOf(split: string, taskId: string, reviewer: string): SpotLabel | undefined {
    return this.labels.find((l) => l.split === split && l.task_id === taskId && l.reviewer === reviewer);
  }

  deleteLabel(label: SpotLabel): Promise<void> {
    return this.record({ kind: 'delete-label', label });
  }

  /** A new appeal filed here. */
  addAppeal(appeal: GoldAppeal): Promise<void> {
    return this.record({ kind: 'put-appeals', appeals: [appeal] });
  }

  /**
   * Imported appeals: only ids this release does not hold yet are added; an appeal already here
   * stays as it is (an import never replaces or deletes what it did not add).
   */
  async importAppeals(appeals: readonly GoldAppeal[]): Promise<{ added: number; alreadyHere: number }> {
    const ids = appealIds(this.appeals);
    const fresh = appeals.filter((a) => !ids.has(a.appeal_id));
    await this.record({ kind: 'put-appeals', appeals: fresh });
    return { added: fresh.length, alreadyHere: appeals.length - fresh.length };
  }

  deleteAppeal(appealId: string): Promise<void> {
    return this.record({ kind: 'delete-appeal', appealId });
  }

  /** Appeals per "split:task_id", for the task list. */
  counts = $derived(appealCounts(this.appeals));
}
