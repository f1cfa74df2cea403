import { errorMessage } from '../../core/error-message.ts';
import * as Comlink from 'comlink';
import type { LoadProgress } from '../../core/release/load.ts';
import type { LoadEvents, LoadNeeds, ReleaseSummary } from '../../core/explorer/service.ts';
import type { SourceSpec } from '../../core/release/source-spec.ts';
import { rememberFolder, reopenFolder } from '../../adapters/browser/remembered-folders.ts';
import { dataWorker } from '../data/client.ts';
import { keepOffline } from '../offline/offline.ts';
import { url } from './url.svelte.ts';
import { parseRefParam, refParam, remoteHost, shippedSpec, siteReleases, type ReleaseRef } from './site-releases.ts';

export { remoteHost, shippedSpec, siteReleases };
export type { ReleaseRef, SiteRelease } from './site-releases.ts';

/** A picked folder or files: what the dialog hands over. */
export interface PickedSource {
  label: string;
  files: Array<{ path: string; file: File }>;
  /** The folder's handle, when the browser gave one: it is remembered for "Reopen". */
  handle?: FileSystemDirectoryHandle;
}

/** The loaded release, the load in progress and its last error. */
class ReleaseState {
  summary = $state<ReleaseSummary | undefined>();
  progress = $state<LoadProgress | undefined>();
  loading = $state(false);
  error = $state<{ message: string; file?: string } | undefined>();
  /** Bumped after every successful load so views re-query. */
  version = $state(0);
  /**
   * Bumped when a release shown from its first files is complete: views that showed part of
   * something (a task's pool) ask again, without clearing what they show.
   */
  completed = $state(0);
  /** Progress of the rest of the release, read in the background after the first view. */
  background = $state<LoadProgress | undefined>();
  /** The source of the loaded release, for workers that read it themselves (the score worker). */
  spec = $state.raw<SourceSpec | undefined>();
  /** What is loaded, as `?release=` names it. */
  ref = $state.raw<ReleaseRef | undefined>();
  /** The host or folder a load in progress reads from, for its progress line. */
  loadingFrom = $state<string | undefined>();
  /** A remembered folder that needs a click (permission) before it can be read again. */
  folderToReopen = $state<string | undefined>();

  /** Told of each load as it starts (a task page warms its BM25 ranking meanwhile). */
  onLoadStart?: (spec: SourceSpec) => void;

  private seq = 0;
  private showRest?: () => void;

  /**
   * A view calls this once it shows the first answers of a load: the rest of the release (and
   * DuckDB) is read after that paint, so it never delays the first view. Views that need DuckDB
   * start it themselves by asking; a second after the load it starts anyway.
   */
  shown(): void {
    const run = this.showRest;
    this.showRest = undefined;
    run?.();
  }

  /**
   * The latest load wins: the worker cancels an earlier one still pending (e.g. a hung URL).
   * `needs` says what the first view shows (`rowsOnly`: an embed, no DuckDB, only the rows it shows). `runRest` decides when the rest
   * runs once the first view is shown: by default after the next paint; the embeds of a page take
   * turns instead (an embed out of view is never painted, and must not hold the others back).
   */
  async load(
    spec: SourceSpec,
    from?: string,
    needs: LoadNeeds = {},
    runRest: (rest: () => Promise<void>) => Promise<void> = (rest) => nextPaint().then(rest),
  ): Promise<boolean> {
    const mine = ++this.seq;
    const current = () => mine === this.seq;
    this.onLoadStart?.(spec);
    this.loading = true;
    this.loadingFrom = from;
    this.error = undefined;
    this.progress = undefined;
    const events: LoadEvents = {
      progress: (p) => {
        if (!current()) return;
        if (this.loading) this.progress = p;
        else this.background = p;
      },
      completed: (summary) => {
        if (!current()) return;
        this.summary = summary;
        this.background = undefined;
        this.completed++;
        if (!needs.rowsOnly) void keepOffline(spec, summary).catch(() => undefined);
      },
      refused: (message, file) => {
        if (!current()) return;
        this.summary = undefined;
        this.background = undefined;
        this.error = { message: `The rest of the release was refused, so it is not loaded: ${message}`, file };
        this.version++;
      },
    };
    try {
      const outcome = await dataWorker().load(spec, Comlink.proxy(events), needs);
      if (!current()) return false;
      if (!outcome.ok) {
        if (!outcome.cancelled) this.error = { message: outcome.error, file: outcome.file };
        return false;
      }
      this.summary = outcome.summary;
      this.spec = spec;
      this.version++;
      // The rest (an embed: the pin check of docs.parquet) starts once the first view is shown.
      if (!outcome.summary.complete) {
        this.showRest = () => void runRest(() => dataWorker().completeLoad());
        setTimeout(() => current() && this.shown(), 1000);
      } else if (!needs.rowsOnly) void keepOffline(spec, outcome.summary).catch(() => undefined);
      return true;
    } catch (e) {
      if (!current()) return false;
      this.error = { message: errorMessage(e) };
      return false;
    } finally {
      if (current()) {
        this.loading = false;
        this.loadingFrom = undefined;
      }
    }
  }

  /**
   * Opens a release and, once loaded, names it in `?release=` (keeping the rest of the URL, the
   * task included). `push` adds a history entry (a user's choice); the first load replaces none.
   */
  async open(
    ref: ReleaseRef,
    options: { push?: boolean; fromClick?: boolean; needs?: LoadNeeds } = {},
  ): Promise<boolean> {
    const shipped = await siteReleases();
    let spec: SourceSpec;
    let from: string | undefined;
    switch (ref.kind) {
      case 'shipped': {
        const entry = shipped.find((r) => r.id === ref.id);
        if (!entry) {
          const known = shipped.map((r) => `"${r.id}"`).join(', ');
          this.error = {
            message: `This site ships no release named "${ref.id}"${known ? ` (it ships ${known})` : ''}. Use "Load release" to open one.`,
          };
          return false;
        }
        spec = shippedSpec(entry);
        from = remoteHost(entry);
        break;
      }
      case 'url':
        spec = { kind: 'url', base: ref.base };
        from = new URL(ref.base).host;
        break;
      case 'folder': {
        const reopened = await reopenFolder(ref.name, options.fromClick ?? false);
        if (!reopened.ok) {
          this.folderToReopen = reopened.reason === 'needs-click' ? ref.name : undefined;
          this.error = {
            message:
              reopened.reason === 'needs-click'
                ? `${reopened.message} Click "Reopen ${ref.name}" (or use "Load release").`
                : `${reopened.message} Use "Load release" to pick it again.`,
          };
          return false;
        }
        this.folderToReopen = undefined;
        spec = { kind: 'files', label: ref.name, files: reopened.files };
        from = `folder ${ref.name}`;
        break;
      }
      case 'files':
        this.error = {
          message: `This link named files picked from a disk ("${ref.label}"); a browser cannot reopen those by itself. Use "Load release" to pick them again.`,
        };
        return false;
    }
    const ok = await this.load(spec, from, options.needs);
    if (ok) this.named(ref, shipped[0]?.id, options.push ?? false);
    return ok;
  }

  /** Loads files the user picked; a folder handle is remembered so that it can be reopened. */
  async openPicked(picked: PickedSource): Promise<boolean> {
    const ok = await this.load({ kind: 'files', label: picked.label, files: picked.files }, picked.label);
    if (!ok) return false;
    let ref: ReleaseRef = { kind: 'files', label: picked.label };
    if (picked.handle) {
      try {
        await rememberFolder(picked.handle);
        ref = { kind: 'folder', name: picked.handle.name };
      } catch {
        // Not remembered (private window, storage refused): it just cannot be reopened later.
      }
    }
    this.named(ref, (await siteReleases())[0]?.id, true);
    return true;
  }

  /** The release the page URL names (the site's default when it names none); `needs` says what the first view shows. */
  async openFromPage(needs?: LoadNeeds): Promise<boolean> {
    const ref = parseRefParam(url.get('release'));
    if (ref) return this.open(ref, { needs });
    const first = (await siteReleases())[0];
    if (!first) {
      this.error = {
        message: 'This site ships no release (static-data/releases.json is missing). Use "Load release".',
      };
      return false;
    }
    return this.open({ kind: 'shipped', id: first.id }, { needs });
  }

  /** Back and Forward across a change of release reopen the release the URL names; returns the cleanup. */
  followPageUrl(): () => void {
    const onPop = () => {
      const wanted = new URLSearchParams(location.search).get('release') ?? undefined;
      void siteReleases().then((shipped) => {
        const loaded = this.ref ? refParam(this.ref, shipped[0]?.id) : undefined;
        if (wanted !== loaded && !this.loading) void this.openFromPage();
      });
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }

  private named(ref: ReleaseRef, defaultId: string | undefined, push: boolean): void {
    this.ref = ref;
    const param = refParam(ref, defaultId);
    if (url.get('release') !== param) url.update({ release: param }, !push);
  }
}

/** Resolves once the next frame is painted, so the rest of a release never delays the first view. */
function nextPaint(): Promise<void> {
  if (typeof requestAnimationFrame !== 'function') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

export const release = new ReleaseState();
