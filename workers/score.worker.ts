/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { IdbJudgeCache } from '../src/adapters/browser/idb-judge-cache.ts';
import { webLocksCallLock } from '../src/adapters/browser/web-locks.ts';
import { PairedScoreSession } from '../src/core/analysis/paired-session.ts';
import { MemoryJudgeCacheStore, type JudgeCacheStore } from '../src/core/scoring/session/index.ts';

/** Validation, judging, scoring and paired comparisons off the main thread; the judge cache lives in IndexedDB. */
async function openStore(): Promise<JudgeCacheStore> {
  try {
    return await IdbJudgeCache.open();
  } catch {
    return new MemoryJudgeCacheStore();
  }
}

const lock = webLocksCallLock();
const session = new PairedScoreSession(openStore(), { baseHref: self.location.href, ...(lock ? { lock } : {}) });

/** The session's methods, named here as every worker names its API. */
const api = {
  useRelease: session.useRelease.bind(session),
  useTasksFile: session.useTasksFile.bind(session),
  useProfileFile: session.useProfileFile.bind(session),
  choose: session.choose.bind(session),
  inputs: session.inputs.bind(session),
  setPredictions: session.setPredictions.bind(session),
  useReleaseSubmission: session.useReleaseSubmission.bind(session),
  validate: session.validate.bind(session),
  cachePersistent: session.cachePersistent.bind(session),
  cacheInfo: session.cacheInfo.bind(session),
  importCache: session.importCache.bind(session),
  importCacheFolder: session.importCacheFolder.bind(session),
  exportCacheJson: session.exportCacheJson.bind(session),
  exportCacheZip: session.exportCacheZip.bind(session),
  clearCache: session.clearCache.bind(session),
  plan: session.plan.bind(session),
  reportFieldDefaults: session.reportFieldDefaults.bind(session),
  pause: session.pause.bind(session),
  resume: session.resume.bind(session),
  cancel: session.cancel.bind(session),
  score: session.score.bind(session),
  cachedVerdicts: session.cachedVerdicts.bind(session),
  detail: session.detail.bind(session),
  compare: session.compare.bind(session),
  paired: session.paired.bind(session),
};
export type ScoreApi = typeof api;
Comlink.expose(api);
