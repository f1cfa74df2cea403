/** manifest.json, scores.json, leaderboard.json, submission metadata.json and the judge profile (spec 1.3, 1.5, 1.6, 2.4, 2.7). */
import { MAX_BOOTSTRAP_ITERATIONS, MAX_GATE_CITATIONS } from '../profile-limits.ts';
import {
  TASK_TYPES,
  type JudgeProfile,
  type Leaderboard,
  type Manifest,
  type ScoreReport,
  type SubmissionMetadata,
} from '../types.ts';
import {
  anyString,
  arrayOf,
  int,
  nonEmptyString,
  num,
  object,
  optional,
  recordOf,
  refine,
  report,
  sha256HexString,
  str,
  tuple,
  type ValidationContext,
  type Validator,
} from '../validate.ts';
import type { IssueList } from '../issues.ts';
import { splitName } from './common.ts';
import { SPLITS } from '../types.ts';

const count = int({ min: 0 });

export const manifestSplitValidator = refine(
  object({
    n_tasks: count,
    by_type: recordOf(count, { keys: TASK_TYPES }),
    questions_sha256: sha256HexString,
  }),
  (split, ctx, issues) => {
    let sum = 0;
    for (const n of Object.values(split.by_type)) sum += n ?? 0;
    if (sum === split.n_tasks) return true;
    report(issues, ctx, `n_tasks equal to the sum of by_type (${sum})`, split.n_tasks, 'n_tasks');
    return false;
  },
);

export const manifestValidator: Validator<Manifest> = object({
  version: nonEmptyString,
  splits: recordOf(manifestSplitValidator, { keys: SPLITS, minKeys: 1 }),
});

const rate = num({ min: 0, max: 1 });
const ci95 = tuple(rate, rate);
const perType = recordOf(rate, { keys: TASK_TYPES });

const SCORE_FIELDS = {
  overall_cited_correctness: rate,
  overall_cited_correctness_ci95: ci95,
  overall_cited_correctness_micro: rate,
  per_type: perType,
  overall_uncited_correctness: rate,
  overall_uncited_correctness_ci95: ci95,
  overall_uncited_correctness_micro: rate,
  per_type_uncited: perType,
  citation_precision: rate,
  citation_recall: rate,
  retrieval: object({ 'recall@5': rate, 'recall@20': rate, 'ndcg@10': rate }),
  n_tasks: count,
  judge_model: nonEmptyString,
  judge_prompt_version: nonEmptyString,
  judge_errors: count,
  premise_id_rate: optional(rate),
  premise_refused_n: optional(count),
  tokens_total: optional(num({ min: 0 })),
  tokens_per_task: optional(num({ min: 0 })),
  cost_usd_total: optional(num({ min: 0 })),
  cost_usd_per_task: optional(num({ min: 0 })),
};

/** Keys the scorer writes together or not at all (spec 2.3, telemetry and premise diagnostic). */
const KEY_PAIRS: readonly (readonly [string, string])[] = [
  ['premise_id_rate', 'premise_refused_n'],
  ['tokens_total', 'tokens_per_task'],
  ['cost_usd_total', 'cost_usd_per_task'],
];

function checkPairs(report_: object, ctx: ValidationContext, issues: IssueList): boolean {
  let ok = true;
  for (const [a, b] of KEY_PAIRS) {
    const hasA = Object.hasOwn(report_, a);
    if (hasA === Object.hasOwn(report_, b)) continue;
    const [present, absent] = hasA ? [a, b] : [b, a];
    report(issues, ctx, `${absent} alongside ${present} (the scorer writes both or neither)`, undefined, absent);
    ok = false;
  }
  return ok;
}

/** A score report as the scorer returns it (system_name, split, dataset_version optional). */
export const scoreReportValidator: Validator<ScoreReport> = refine(
  object({
    ...SCORE_FIELDS,
    system_name: optional(nonEmptyString),
    split: optional(splitName),
    dataset_version: optional(nonEmptyString),
  }),
  checkPairs,
);

/** submissions/<slug>/scores.json and leaderboard entries: the report plus who, which split, which version. */
export const submissionScoresValidator: Validator<ScoreReport> = refine(
  object({ ...SCORE_FIELDS, system_name: nonEmptyString, split: splitName, dataset_version: nonEmptyString }),
  checkPairs,
);

export const leaderboardValidator: Validator<Leaderboard> = object({ entries: arrayOf(submissionScoresValidator) });

export const submissionMetadataValidator: Validator<SubmissionMetadata> = object({
  system_name: nonEmptyString,
  description: anyString,
  split: splitName,
  dataset_version: nonEmptyString,
  questions_sha256: sha256HexString,
});

const promptTemplate = str({ minLength: 1, pattern: /\{answer\}/, expected: 'a prompt template containing {answer}' });
const percentile = num({ min: 0, max: 100 });

export const judgeProfileValidator: Validator<JudgeProfile> = refine(
  object({
    about: optional(anyString),
    judge_model: nonEmptyString,
    judge_prompt_version: nonEmptyString,
    system: anyString,
    response_format: optional(object({ type: nonEmptyString })),
    gate_max_citations: int({ min: 1, max: MAX_GATE_CITATIONS }),
    judge_error_abort_ratio: num({ min: 0, max: 1 }),
    placeholder_rules: optional(recordOf(anyString)),
    prompts: object({ answer: promptTemplate, aggregation: promptTemplate, premise_id: promptTemplate }),
    bootstrap: object({
      iterations: int({ min: 1, max: MAX_BOOTSTRAP_ITERATIONS }),
      seed: int({ min: 0 }),
      generator: optional(anyString),
      percentiles: tuple(percentile, percentile),
    }),
  }),
  (profile, ctx, issues) => {
    const [low, high] = profile.bootstrap.percentiles;
    if (low < high) return true;
    report(issues, ctx, 'a lower then a higher percentile', profile.bootstrap.percentiles, 'bootstrap.percentiles');
    return false;
  },
);
