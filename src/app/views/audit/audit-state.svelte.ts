import { errorMessage } from '../../../core/error-message.ts';
import * as Comlink from 'comlink';
import type { AuditOverview, AuditReleaseInfo } from '../../../core/audit/service.ts';
import type { SplitName } from '../../../core/release/types.ts';
import { auditWorker, auditWorkerWithSource } from '../../data/audit-client.ts';
import { AsyncState } from '../../lib/async-state.svelte.ts';
import { release } from '../../state/release.svelte.ts';
import { url } from '../../state/url.svelte.ts';
import { sourceDocs } from '../../state/source-docs.svelte.ts';
import type { BatchEstimate } from '../../../core/source-docs/lookup.ts';
import type { RateWait } from '../../../core/source-docs/rate-gate.ts';

/** The page's release as the audit worker sees it, and each split's audit overview. */
class AuditState {
  info = $state<AuditReleaseInfo | undefined>();
  error = $state<string | undefined>();
  overview = $state<Partial<Record<SplitName, AuditOverview>>>({});
  progress = $state<{ done: number; total: number } | undefined>();
  running = $state(false);
  /** Reading from the Hugging Face source (Stop applies). */
  readingSource = $state(false);
  /** That read waits on the Hub (its rate limit, a 503) until then. */
  sourceWait = $state<RateWait | undefined>();
  /** What reading the split's unread documents would cost, once asked (per split and load). */
  estimate = $state<{ split: SplitName; value: BatchEstimate | { error: string } } | undefined>();
  private opened = -1;
  private opening: Promise<AuditReleaseInfo | undefined> | undefined;

  /** Opens the loaded release in the audit worker once per load. */
  ensureOpen(): Promise<AuditReleaseInfo | undefined> {
    const spec = release.spec;
    if (!spec) return Promise.resolve(undefined);
    if (this.opened !== release.version || !this.opening) {
      this.opened = release.version;
      this.error = undefined;
      this.info = undefined;
      this.overview = {};
      this.estimate = undefined;
      this.opening = auditWorker()
        .open(spec)
        .then((info) => (this.info = info))
        .catch((e: unknown) => {
          this.error = `The audit worker could not read the release: ${errorMessage(e)}`;
          this.opening = undefined;
          return undefined;
        });
    }
    return this.opening;
  }

  /** The split the URL names, else full, else the first with an answer key. */
  split(): SplitName | undefined {
    const wanted = url.get('split');
    const splits = this.info?.splits.map((s) => s.split) ?? [];
    return (splits.find((s) => s === wanted) ?? (splits.includes('full') ? 'full' : splits[0])) as
      SplitName | undefined;
  }

  /**
   * The split's overview (run once). `fromSource` also reads the documents the release lacks from
   * the Hugging Face source (as one batch, in the source worker, which keeps each text): only when
   * the user asked for it, and only once they allowed the endpoint. Asked again after a Stop, it
   * reads only the rest.
   */
  async run(split: SplitName, fromSource = false): Promise<AuditOverview | undefined> {
    const had = this.overview[split];
    if (had && !fromSource) return had;
    const settings = sourceDocs.settings;
    if (fromSource && !(sourceDocs.allowed && settings.ok)) return had;
    const version = this.opened;
    this.running = true;
    this.readingSource = fromSource;
    this.progress = undefined;
    try {
      const progress = Comlink.proxy((done: number, total: number) => (this.progress = { done, total }));
      const o =
        fromSource && settings.ok
          ? await (
              await auditWorkerWithSource(await sourceDocs.worker())
            ).overview(
              split,
              progress,
              { ...settings.value },
              Comlink.proxy((wait: RateWait | undefined) => (this.sourceWait = wait)),
            )
          : await auditWorker().overview(split, progress);
      if (version === this.opened) {
        this.overview = { ...this.overview, [split]: o };
        if (fromSource) this.estimate = undefined;
      }
      return o;
    } catch (e) {
      this.error = `The audit failed: ${errorMessage(e)}`;
      return undefined;
    } finally {
      this.running = false;
      this.readingSource = false;
      this.sourceWait = undefined;
    }
  }

  /** Stops a read from the source: the audit then runs over what was read (kept for "Read the rest"). */
  stopSource(): Promise<void> {
    return sourceDocs.cancel();
  }

  /** The cost of reading the split's unread documents from the source (from its cache; no request). */
  async estimateSource(split: SplitName): Promise<void> {
    const settings = sourceDocs.settings;
    if (!settings.ok) return;
    const version = this.opened;
    try {
      const audit = await auditWorkerWithSource(await sourceDocs.worker());
      const out = await audit.sourceEstimate(split, { ...settings.value });
      if (version === this.opened) this.estimate = { split, value: out.ok ? out.estimate : { error: out.error } };
    } catch (e) {
      if (version === this.opened) this.estimate = { split, value: { error: errorMessage(e) } };
    }
  }

  /** Runs again (after judge verdicts were added on the Score page). */
  async rerun(split: SplitName): Promise<void> {
    await auditWorker().forget();
    this.overview = {};
    await this.run(split);
  }
}

export const auditState = new AuditState();

export function pct(x: number | null, digits = 1): string {
  return x === null ? '—' : `${(x * 100).toFixed(digits)}%`;
}

/**
 * A tab's list for the shown split, loaded again when the split or its overview changes (the
 * latest load wins). Call it while the tab's component is created: it registers an effect.
 */
export function splitList<T>(
  shown: () => { split: SplitName; overview: AuditOverview },
  load: (split: SplitName) => Promise<T[]>,
): AsyncState<T[]> {
  const list = new AsyncState<T[]>();
  $effect(() => {
    const { split, overview } = shown();
    void overview;
    void list.run(() => load(split));
  });
  return list;
}
