import * as Comlink from 'comlink';
import type { LoadProgress } from '../../core/release/load.ts';
import type { LoadEvents, LoadMode, ReleaseSummary } from '../../core/explorer/service.ts';
import type { SourceSpec } from '../../core/release/source-spec.ts';
import { dataWorker } from '../data/client.ts';
import { enginesFirst } from '../lib/engines-first.ts';
import { keepOffline } from '../offline/offline.ts';

export interface SiteRelease {
  id: string;
  title: string;
  path: string;
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

  /** The latest load wins: the worker cancels an earlier one still pending (e.g. a hung URL). */
  async load(spec: SourceSpec, mode: LoadMode = {}): Promise<boolean> {
    const mine = ++this.seq;
    const current = () => mine === this.seq;
    this.loading = true;
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
        if (!mode.light) void keepOffline(spec, summary).catch(() => undefined);
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
      // The engines-first design (benchmark only) loads embeds through DuckDB as well.
      const how = enginesFirst ? { ...mode, light: false, enginesFirst } : mode;
      const outcome = await dataWorker().load(spec, Comlink.proxy(events), how);
      if (!current()) return false;
      if (!outcome.ok) {
        if (!outcome.cancelled) this.error = { message: outcome.error, file: outcome.file };
        return false;
      }
      this.summary = outcome.summary;
      this.spec = spec;
      this.version++;
      if (mode.light) return true;
      if (!outcome.summary.complete) {
        this.showRest = () => afterPaint(() => void dataWorker().completeLoad());
        setTimeout(() => current() && this.shown(), 1000);
      } else void keepOffline(spec, outcome.summary).catch(() => undefined);
      return true;
    } catch (e) {
      if (!current()) return false;
      this.error = { message: e instanceof Error ? e.message : String(e) };
      return false;
    } finally {
      if (current()) this.loading = false;
    }
  }
}

/** Runs once the next frame is painted, so the rest of a release never delays the first view. */
function afterPaint(run: () => void): void {
  if (typeof requestAnimationFrame !== 'function') return run();
  requestAnimationFrame(() => setTimeout(run, 0));
}

export const release = new ReleaseState();

/** static-data/releases.json: the releases the site ships; the first is the default. */
export async function siteReleases(): Promise<SiteRelease[]> {
  // The data worker starts (its script downloads and runs) while this file comes.
  dataWorker();
  const response = await fetch(`${import.meta.env.BASE_URL}static-data/releases.json`);
  if (!response.ok) return [];
  const body = (await response.json()) as { releases?: SiteRelease[] };
  return body.releases ?? [];
}
