/** The Score page's engine (run in workers/score.worker.ts). */
export { MemoryJudgeCacheStore, ScoreSession } from './session.ts';
export type {
  InputsState,
  JudgeCacheStore,
  LiveJudgeOptions,
  ProfileChoice,
  ReleaseInfo,
  ScoreOptions,
  TasksChoice,
} from './session.ts';
export type { ReleaseSourceSpec } from './release-inputs.ts';
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
