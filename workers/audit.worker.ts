/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { IdbJudgeCache } from '../src/adapters/browser/idb-judge-cache.ts';
import { AuditService, type AuditOverview, type SignalsSubmission } from '../src/core/audit/service.ts';
import { sourceLabel } from '../src/core/audit/source-provider.ts';
import type { LoadProgress } from '../src/core/release/load.ts';
import type { SourceSpec } from '../src/core/release/source-spec.ts';
import type { SplitName } from '../src/core/release/types.ts';
import type { BatchProgress } from '../src/core/source-docs/lookup.ts';
import type { RateWait } from '../src/core/source-docs/rate-gate.ts';
import type { SourceEstimateOutcome } from '../src/core/source-docs/service.ts';
import { settingsFrom, type HfSourceSettings } from '../src/core/source-docs/settings.ts';
import type { SpotLabel } from '../src/core/audit/spot-check/labels.ts';
import { spotCheckStats } from '../src/core/audit/spot-check/stats.ts';
import type { SourceApi } from './source.worker.ts';

/** The audits off the main thread; verdicts also come from the Score page's judge cache (IndexedDB). */
let idb: Promise<IdbJudgeCache | undefined> | undefined;
const service = new AuditService({
  here: self.location.href,
  judgeCache: async () => {
    idb ??= IdbJudgeCache.open().catch(() => undefined);
    const cache = await idb;
    return cache ? (key: string) => cache.get(key) : undefined;
  },
});
/** The source worker, reached directly through the port the page handed over. */
let source: Comlink.Remote<Pick<SourceApi, 'readMany' | 'estimate'>> | undefined;
const sourceReady = () => {
  if (!source) throw new Error('the source worker is not connected to the audit worker');
  return source;
};

const api = {
  /** The page's end of a MessageChannel whose other end the source worker serves. */
  connectSource: (port: MessagePort) => {
    source = Comlink.wrap(port);
  },
  open: (spec: SourceSpec, onProgress?: (p: LoadProgress) => void) => service.open(spec, onProgress),
  /**
   * With `fromSource`, what the release lacks is read from the Hugging Face source (the source
   * worker); `onSourceWait` hears when that read waits on the Hub (a rate limit) and when it goes on.
   */
  overview: (
    split: SplitName,
    onProgress?: (done: number, total: number) => void,
    fromSource?: Partial<HfSourceSettings>,
    onSourceWait?: (wait: RateWait | undefined) => void,
  ): Promise<AuditOverview> => {
    let waited: RateWait | undefined;
    return service.overview(
      split,
      onProgress,
      fromSource
        ? {
            label: sourceLabel(settingsFrom(fromSource)),
            readMany: async (ids, onRead) => {
              const out = await sourceReady().readMany(
                fromSource,
                ids,
                Comlink.proxy((p: BatchProgress) => {
                  onRead?.(p.read);
                  if (p.waiting?.until !== waited?.until) onSourceWait?.(p.waiting);
                  waited = p.waiting;
                }),
              );
              if (waited) onSourceWait?.((waited = undefined));
              return out;
            },
          }
        : undefined,
    );
  },
  /** What reading the documents the split still lacks would cost (from the source's cache; no request). */
  sourceEstimate: async (
    split: SplitName,
    settings: Partial<HfSourceSettings>,
  ): Promise<SourceEstimateOutcome & { ids: number }> => {
    const ids = await service.unread(split);
    return { ...(await sourceReady().estimate(settings, ids)), ids: ids.length };
  },
  forget: () => service.forget(),
  grounding: (split: SplitName) => service.grounding(split),
  cutoffs: (split: SplitName) => service.cutoffs(split),
  poolBiasRows: (split: SplitName, slug: string) => service.poolBiasRows(split, slug),
  absenceTasks: (split: SplitName) => service.absenceTasks(split),
  keySignals: (split: SplitName, submission: SignalsSubmission) => service.keySignals(split, submission),
  spotSample: (split: SplitName, size: number, seed: number) => service.spotSample(split, size, seed),
  /** Spot-check figures off the main thread (thousands of reviewers must not freeze the page). */
  spotStats: (labels: SpotLabel[]) => spotCheckStats(labels),
};
export type AuditApi = typeof api;
Comlink.expose(api);
