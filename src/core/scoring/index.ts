/** Public API of the scorer (docs/benchmark-spec.md section 2). */
export { parsePredictions, parsePredictionsStream } from './predictions.ts';
export type {
  PredictionIssue,
  PredictionIssueCode,
  PredictionsOptions,
  PredictionsResult,
  ScoringPrediction,
  TelemetrySums,
} from './predictions.ts';
export { parseJudgeProfile, parseTasksJsonl, ScoringInputError } from './scoring-inputs.ts';
export {
  judgeCacheKey,
  renderAggregationPrompt,
  renderAnswerPrompt,
  renderPremisePrompt,
  sha256Hex,
  JudgeProfileError,
} from './prompts.ts';
export type { JudgeTag } from './prompts.ts';
export { readAggregationVerdict, readAnswerVerdict, readPremiseVerdict, JudgeReplyError } from './verdicts.ts';
export { CanonicalScorerCrash } from './python-semantics.ts';
export {
  computeDeterministicMetrics,
  planJudgeCalls,
  planPremiseCalls,
  scoreSubmission,
  JudgeCallMissingError,
  JudgeCallsMissingError,
  ScoringAbortedError,
} from './score.ts';
export type {
  DeterministicMetrics,
  JudgeCall,
  JudgeCallRecord,
  JudgeFn,
  ScoreSubmissionInput,
  ScoringOutcome,
  TaskOutcome,
} from './score.ts';
export { formatScoresJson, orderReport, REPORT_KEY_ORDER } from './report.ts';
export type { ReportNumberKinds } from './report.ts';
export { compareScores } from './compare.ts';
export type { ScoreMismatch } from './compare.ts';
export { checkLeaderboard } from './leaderboard-check.ts';
export type { LeaderboardCheckRow } from './leaderboard-check.ts';
