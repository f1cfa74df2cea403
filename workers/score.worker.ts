/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { IdbJudgeCache } from '../src/adapters/browser/idb-judge-cache.ts';
import type { JudgeProgress } from '../src/core/judge/types.ts';
import type { SplitName, SubmissionMetadata } from '../src/core/release/types.ts';
import {
  MemoryJudgeCacheStore,
  ScoreSession,
  type JudgeCacheStore,
  type PredictionSlot,
  type ProfileChoice,
  type ReleaseSourceSpec,
  type ScoreOptions,
  type TasksChoice,
} from '../src/core/scoring/session/index.ts';

/** Validation, judging and scoring off the main thread; the judge cache lives in IndexedDB. */
async function openStore(): Promise<{ store: JudgeCacheStore; persistent: boolean }> {
  try {
    return { store: await IdbJudgeCache.open(), persistent: true };
  } catch {
    return { store: new MemoryJudgeCacheStore(), persistent: false };
  }
}

const opened = openStore();
const session = opened.then(({ store }) => new ScoreSession(store));

const api = {
  async cachePersistent(): Promise<boolean> {
    return (await opened).persistent;
  },
  async useRelease(spec: ReleaseSourceSpec) {
    return (await session).useRelease(spec, self.location.href);
  },
  async useTasksFile(name: string, blob: Blob) {
    return (await session).useTasksFile(name, blob);
  },
  async useProfileFile(name: string, blob: Blob) {
    return (await session).useProfileFile(name, blob);
  },
  async choose(tasks: TasksChoice, profile: ProfileChoice) {
    return (await session).choose(tasks, profile);
  },
  async inputs() {
    return (await session).inputs();
  },
  async setPredictions(slot: PredictionSlot, name: string, blob: Blob, metadata?: SubmissionMetadata) {
    return (await session).setPredictions(slot, name, blob, metadata);
  },
  async useReleaseSubmission(slot: PredictionSlot, slug: string) {
    return (await session).useReleaseSubmission(slot, slug);
  },
  async validate(slot: PredictionSlot) {
    return (await session).validate(slot);
  },
  async cacheInfo() {
    return (await session).cacheInfo();
  },
  async importCache(name: string, blob: Blob) {
    return (await session).importCache(name, blob);
  },
  async importCacheFolder(files: Array<{ path: string; file: Blob }>) {
    return (await session).importCacheFolder(files);
  },
  async exportCacheJson() {
    return (await session).exportCacheJson();
  },
  async exportCacheZip() {
    const bytes = await (await session).exportCacheZip();
    return Comlink.transfer(bytes, [bytes.buffer]);
  },
  async clearCache() {
    return (await session).clearCache();
  },
  async plan(slot: PredictionSlot) {
    return (await session).plan(slot);
  },
  async score(
    slot: PredictionSlot,
    options: Omit<ScoreOptions, 'onProgress'>,
    onProgress?: (p: JudgeProgress) => void,
  ) {
    return (await session).score(slot, { ...options, ...(onProgress ? { onProgress } : {}) });
  },
  async pause() {
    (await session).pause();
  },
  async resume() {
    (await session).resume();
  },
  async cancel() {
    (await session).cancel();
  },
  async cachedVerdicts(slugs: string[], split: SplitName, taskIds?: string[]) {
    return (await session).cachedVerdicts(slugs, split, taskIds);
  },
  async detail(slot: PredictionSlot, taskId: string) {
    return (await session).detail(slot, taskId);
  },
  async compare() {
    return (await session).compare();
  },
};

export type ScoreApi = typeof api;
Comlink.expose(api);
