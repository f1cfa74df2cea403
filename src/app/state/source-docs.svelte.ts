import * as Comlink from 'comlink';
import { RememberedSecret } from '../../core/remembered-secret.ts';
import type { LookupProgress } from '../../core/source-docs/lookup.ts';
import type { SourceLookupOutcome } from '../../core/source-docs/service.ts';
import {
  checkToken,
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
const TOKEN_ITEM = 'ebx.source-docs.hfToken';

function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function validToken(raw: string): string | undefined {
  try {
    return checkToken(raw);
  } catch {
    return undefined;
  }
}

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
 * endpoint: a link cannot grant it), the Hugging Face token (kept like the judge's API key: in
 * memory, in localStorage only while "remember" is ticked; never in the URL), and the lookups
 * themselves (in the source worker, which alone sends the token, to the Hub's origin only).
 */
class SourceDocsState {
  /** Endpoints the user chose to read from. */
  allowedEndpoints = $state<string[]>(storedHosts());
  /** The token field as typed. */
  token = $state('');
  /** "Remember on this device": the token is in localStorage only while this is ticked. */
  rememberToken = $state(false);
  /** Counts changes of the token in use, so that a read refused for want of one can try again. */
  tokenVersion = $state(0);
  /** The token lookups use (checked; undefined: none). */
  #applied = $state<string | undefined>();
  /** What the source worker was last given (null: nothing yet). */
  #sent: string | undefined | null = null;
  readonly #secret = new RememberedSecret(browserStorage(), TOKEN_ITEM);
  /** The release version whose locator the worker has (or is being given). */
  private locatorSent?: { version: number; done: Promise<void> };
  /** Counts Cancel presses, so a lookup still waiting for the locator knows it was stopped. */
  #cancels = 0;

  constructor() {
    const remembered = this.#secret.remembered();
    if (remembered !== undefined) {
      this.token = remembered;
      this.rememberToken = true;
      this.#applied = validToken(remembered);
    }
  }

  /** Whether lookups send a token. */
  get hasToken(): boolean {
    return this.#applied !== undefined;
  }

  /** Called when the token or the tick changes: stores or removes it accordingly (as the judge key). */
  applyRemember(): void {
    this.#secret.apply(this.token, this.rememberToken);
  }

  /**
   * Makes the typed token the one lookups use (an empty field: none). Answers why it cannot be a
   * token (the message never repeats it), else undefined.
   */
  useToken(): string | undefined {
    let next: string | undefined;
    try {
      next = checkToken(this.token);
    } catch (e) {
      return e instanceof SettingsError ? e.message : 'the Hugging Face token is not usable';
    }
    if (next !== this.#applied) {
      this.#applied = next;
      this.tokenVersion++;
    }
    return undefined;
  }

  /** Forgets the token everywhere: the field, localStorage, the source worker. */
  forgetToken(): void {
    this.token = '';
    this.rememberToken = false;
    this.#secret.forget();
    if (this.#applied !== undefined) {
      this.#applied = undefined;
      this.tokenVersion++;
    }
    // A worker that was given one drops it now, not at its next lookup.
    if (this.#sent) void this.sendToken(sourceWorker());
  }

  private async sendToken(worker: Comlink.Remote<SourceApi>): Promise<void> {
    const token = this.#applied;
    if (this.#sent === token) return;
    await worker.setToken(token);
    this.#sent = token;
  }

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

  /** What the settings panel shows: the settings in use, else the URL's values as they are (to be corrected). */
  get shown(): HfSourceSettings {
    const s = this.settings;
    if (s.ok) return s.value;
    return {
      endpoint: url.get('hf_endpoint') ?? DEFAULT_SETTINGS.endpoint,
      dataset: url.get('hf_dataset') ?? DEFAULT_SETTINGS.dataset,
      revision: url.get('hf_revision') ?? DEFAULT_SETTINGS.revision,
    };
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
    await this.sendToken(worker);
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
