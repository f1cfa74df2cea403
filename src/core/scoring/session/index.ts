/** The Score page's engine (run in workers/score.worker.ts). */
export { MemoryJudgeCacheStore, ScoreSession } from './session.ts';
export type {
  CachedVerdicts,
  InputsState,
  JudgeCacheStore,
  LiveJudgeOptions,
  ProfileChoice,
  ReleaseInfo,
  ScoreOptions,
  TasksChoice,
} from './session.ts';
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
