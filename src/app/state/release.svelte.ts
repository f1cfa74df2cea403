import { errorMessage } from '../../core/error-message.ts';
import * as Comlink from 'comlink';
import type { LoadProgress } from '../../core/release/load.ts';
import type { ReleaseSummary } from '../../core/explorer/service.ts';
import type { SourceSpec } from '../../core/release/source-spec.ts';
import { dataWorker } from '../data/client.ts';

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
  /** The source of the loaded release, for workers that read it themselves (the score worker). */
  spec = $state.raw<SourceSpec | undefined>();

  private seq = 0;

  /** The latest load wins: a slower earlier one (e.g. the default release) is discarded. */
  async load(spec: SourceSpec): Promise<boolean> {
    const mine = ++this.seq;
    this.loading = true;
    this.error = undefined;
    this.progress = undefined;
    try {
      const outcome = await dataWorker().load(
        spec,
        Comlink.proxy((p: LoadProgress) => {
          if (mine === this.seq) this.progress = p;
        }),
      );
      if (mine !== this.seq) return false;
      if (!outcome.ok) {
        this.error = { message: outcome.error, file: outcome.file };
        return false;
      }
      this.summary = outcome.summary;
      this.spec = spec;
      this.version++;
      return true;
    } catch (e) {
      if (mine !== this.seq) return false;
      this.error = { message: errorMessage(e) };
      return false;
    } finally {
      if (mine === this.seq) this.loading = false;
    }
  }
}

export const release = new ReleaseState();

/** static-data/releases.json: the releases the site ships; the first is the default. */
export async function siteReleases(): Promise<SiteRelease[]> {
  const response = await fetch(`${import.meta.env.BASE_URL}static-data/releases.json`);
  if (!response.ok) return [];
  const body = (await response.json()) as { releases?: SiteRelease[] };
  return body.releases ?? [];
}
