import { errorMessage } from '../../../core/error-message.ts';
import * as Comlink from 'comlink';
import type { AuditOverview, AuditReleaseInfo } from '../../../core/audit/service.ts';
import type { SplitName } from '../../../core/release/types.ts';
import { auditWorker } from '../../data/audit-client.ts';
import { AsyncState } from '../../lib/async-state.svelte.ts';
import { release } from '../../state/release.svelte.ts';
import { url } from '../../state/url.svelte.ts';
import { sourceDocs } from '../../state/source-docs.svelte.ts';
import { sourceLabel, type SourceRead } from '../../../core/audit/source-provider.ts';

/** The page's release as the audit worker sees it, and each split's audit overview. */
class AuditState {
  info = $state<AuditReleaseInfo | undefined>();
  error = $state<string | undefined>();
  overview = $state<Partial<Record<SplitName, AuditOverview>>>({});
  progress = $state<{ done: number; total: number } | undefined>();
  running = $state(false);
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
   * the Hugging Face source: only when the user asked for it, and only once they allowed the endpoint.
   */
  async run(split: SplitName, fromSource = false): Promise<AuditOverview | undefined> {
    const had = this.overview[split];
    if (had && (!fromSource || had.remoteFailures)) return had;
    const settings = sourceDocs.settings;
    if (fromSource && !(sourceDocs.allowed && settings.ok)) return had;
    const version = this.opened;
    this.running = true;
    this.progress = undefined;
    try {
      const progress = Comlink.proxy((done: number, total: number) => (this.progress = { done, total }));
      const o =
        fromSource && settings.ok
          ? await auditWorker().overview(split, progress, sourceLabel(settings.value), Comlink.proxy(readFromSource))
          : await auditWorker().overview(split, progress);
      if (version === this.opened) this.overview = { ...this.overview, [split]: o };
      return o;
    } catch (e) {
      this.error = `The audit failed: ${errorMessage(e)}`;
      return undefined;
    } finally {
      this.running = false;
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

async function readFromSource(docId: string): Promise<SourceRead> {
  const out = await sourceDocs.lookup(docId, () => undefined);
  return out.ok ? { ok: true, text: out.doc.row.text_content } : { ok: false, kind: out.kind, error: out.error };
}

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
