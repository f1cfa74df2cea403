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

export type ScoreApi = PairedScoreSession;
Comlink.expose(session);
