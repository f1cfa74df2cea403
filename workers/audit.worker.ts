/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { IdbJudgeCache } from '../src/adapters/browser/idb-judge-cache.ts';
import { AuditService, type RemoteDocs, type SignalsSubmission } from '../src/core/audit/service.ts';
import type { LoadProgress } from '../src/core/release/load.ts';
import type { SourceSpec } from '../src/core/release/source-spec.ts';
import type { SplitName } from '../src/core/release/types.ts';
import type { SpotLabel } from '../src/core/audit/spot-check/labels.ts';
import { spotCheckStats } from '../src/core/audit/spot-check/stats.ts';

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

const api = {
  open: (spec: SourceSpec, onProgress?: (p: LoadProgress) => void) => service.open(spec, onProgress),
  /** remoteRead (a comlink proxy) reads what the release lacks through the page: the Hugging Face source. */
  overview: (
    split: SplitName,
    onProgress?: (done: number, total: number) => void,
    remoteLabel?: string,
    remoteRead?: RemoteDocs['read'],
  ) =>
    service.overview(
      split,
      onProgress,
      remoteLabel && remoteRead ? { label: remoteLabel, read: (id) => remoteRead(id) } : undefined,
    ),
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
