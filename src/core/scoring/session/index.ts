/** The Score page's engine (run in workers/score.worker.ts). */
export { ScoreSession } from './session.ts';
export type { ScoreOptions, ScoreSessionOptions } from './session.ts';
export { MemoryJudgeCacheStore } from './cache-store.ts';
export type { CacheImportResult, CacheInfo, JudgeCacheStore } from './cache-store.ts';
export type { LiveJudgeOptions } from './live-judge.ts';
export type { CachedVerdicts } from './cached-verdicts.ts';
export type { InputsState, ProfileChoice, ReleaseInfo, TasksChoice } from './score-inputs.ts';
export type { SourceSpec as ReleaseSourceSpec } from '../../release/source-spec.ts';
export type {
  ComparisonView,
  DeterministicView,
  LeaderboardPlace,
  PlanView,
  PredictionSlot,
  ScorecardView,
  ScoreRunResult,
  TaskDetail,
  TaskRow,
  ValidationView,
} from './views.ts';
