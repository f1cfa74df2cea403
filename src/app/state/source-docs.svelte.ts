import * as Comlink from 'comlink';
import type { LookupProgress } from '../../core/source-docs/lookup.ts';
import type { SourceLookupOutcome } from '../../core/source-docs/service.ts';
import {
  DEFAULT_SETTINGS,
  hostOf,
  SettingsError,
  settingsFrom,
  type HfSourceSettings,
} from '../../core/source-docs/settings.ts';
import { dataWorker } from '../data/client.ts';
import { sourceWorker } from '../data/source-client.ts';
import type { SourceApi } from '../../../workers/source.worker.ts';
import { release } from './release.svelte.ts';
import { url } from './url.svelte.ts';

/** URL parameters of the source settings (absent = the default); kept when the view changes. */
export const SOURCE_PARAMS = ['hf_endpoint', 'hf_dataset', 'hf_revision'] as const;
const ALLOWED_KEY = 'ebx.source-docs.allowed';

function storedHosts(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(ALLOWED_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, 50) : [];
  } catch {
    return [];
  }
}

/**
 * Reading document text from the Hugging Face source: where from (URL parameters, so a link
 * carries them), whether the user allowed that endpoint (remembered in this browser, per
 * endpoint: a link cannot grant it), and the lookups themselves (in the source worker).
 */
class SourceDocsState {
  /** Endpoints the user chose to read from. */
  allowedEndpoints = $state<string[]>(storedHosts());
  /** The release version whose locator the worker has (or is being given). */
  private locatorSent?: { version: number; done: Promise<void> };
  /** Counts Cancel presses, so a lookup still waiting for the locator knows it was stopped. */
  #cancels = 0;

  /** The settings the URL asks for, or why they are unusable. */
  get settings(): { ok: true; value: HfSourceSettings } | { ok: false; error: string } {
    try {
      return {
        ok: true,
        value: settingsFrom({
          endpoint: url.get('hf_endpoint'),
          dataset: url.get('hf_dataset'),
          revision: url.get('hf_revision'),
        }),
      };
    } catch (e) {
      return { ok: false, error: e instanceof SettingsError ? e.message : String(e) };
    }
  }

  get host(): string {
    const s = this.settings;
    return s.ok ? hostOf(s.value.endpoint) : '';
  }

  /** Scheme and host ("https://huggingface.co"): what the consent names, so plain http shows. */
  get origin(): string {
    const s = this.settings;
    if (!s.ok) return '';
    try {
      return new URL(s.value.endpoint).origin;
    } catch {
      return s.value.endpoint;
    }
  }

  get allowed(): boolean {
    const s = this.settings;
    return s.ok && this.allowedEndpoints.includes(s.value.endpoint);
  }

  allow(): void {
    const s = this.settings;
    if (!s.ok) return;
    this.allowedEndpoints = [...new Set([...this.allowedEndpoints, s.value.endpoint])];
    this.persist();
  }

  revoke(): void {
    const s = this.settings;
    if (!s.ok) return;
    this.allowedEndpoints = this.allowedEndpoints.filter((e) => e !== s.value.endpoint);
    this.persist();
  }

  private persist(): void {
    try {
      localStorage.setItem(ALLOWED_KEY, JSON.stringify(this.allowedEndpoints));
    } catch {
      // Storage refused: the choice holds for this page only.
    }
  }

  /** Puts settings in the URL (defaults are left out); throws SettingsError for a bad value. */
  change(values: HfSourceSettings): void {
    const next = settingsFrom(values);
    url.update(
      {
        hf_endpoint: next.endpoint === DEFAULT_SETTINGS.endpoint ? undefined : next.endpoint,
        hf_dataset: next.dataset === DEFAULT_SETTINGS.dataset ? undefined : next.dataset,
        hf_revision: next.revision === DEFAULT_SETTINGS.revision ? undefined : next.revision,
      },
      true,
    );
  }

  /** The source worker, once it has the loaded release's locator (or knows it has none). */
  async worker(): Promise<Comlink.Remote<SourceApi>> {
    const worker = sourceWorker();
    if (this.locatorSent?.version !== release.version) {
      // The data worker reads the release's locator on first use (a page opened by permalink shows
      // before the release's other files are read). Without one a lookup still works (it searches),
      // so a failure here is not fatal.
      const done = (async () => {
        await worker.setLocator(await dataWorker().sourceLocator());
      })().catch(() => worker.setLocator(undefined));
      this.locatorSent = { version: release.version, done };
    }
    await this.locatorSent.done;
    return worker;
  }

  async lookup(docId: string, onProgress: (p: LookupProgress) => void): Promise<SourceLookupOutcome> {
    const s = this.settings;
    if (!s.ok) return { ok: false, kind: 'settings', error: s.error };
    const generation = this.#cancels;
    const worker = await this.worker();
    // A Cancel pressed while the locator was still on its way finds no lookup in the worker to stop.
    if (generation !== this.#cancels) return { ok: false, kind: 'cancelled', error: `Stopped reading ${docId}` };
    return worker.lookup({ ...s.value }, docId, Comlink.proxy(onProgress));
  }

  /** Stops the lookups under way, and those still waiting for the locator (they end as 'cancelled'). */
  cancel(): Promise<void> {
    this.#cancels++;
    return sourceWorker().cancel();
  }

  clearCache(): Promise<void> {
    return sourceWorker().clearCache();
  }
}

export const sourceDocs = new SourceDocsState();
