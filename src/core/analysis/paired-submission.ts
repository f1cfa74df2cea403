/**
 * A submission against one system of the release, as `paired` compares two submission folders
 * (the Score view's comparison, run in the score worker): both read as the scorer reads them,
 * both numbers from paired-metrics.ts, the judge profile's bootstrap. A failure is a reason to
 * show, not an exception: the page offers the other systems and metrics.
 */
import type { ReplyLookup } from '../audit/judged.ts';
import type { JudgeProfile, Task } from '../release/types.ts';
import { parsePredictions, type PredictionsResult } from '../scoring/predictions.ts';
import { pairedComparison, type PairedResult } from './paired.ts';
import { systemMetric, VerdictsMissingError, type PairedMetric, type SystemMetric } from './paired-metrics.ts';

export type PairedOutcome = { ok: true; result: PairedResult } | { ok: false; why: string };

export interface PairedSubmissionInput {
  metric: PairedMetric;
  tasks: readonly Task[];
  profile: JudgeProfile;
  /** The submission's predictions, already read in the scorer's mode (A). */
  submission: PredictionsResult;
  /** The system of the release (B): its name and its predictions.jsonl as text. */
  system: { name: string; predictionsText: string };
  lookup: ReplyLookup;
}

async function metricOf(
  input: PairedSubmissionInput,
  predictions: PredictionsResult,
  whose: string,
): Promise<{ ok: true; metric: SystemMetric } | { ok: false; why: string }> {
  try {
    return {
      ok: true,
      metric: await systemMetric(input.metric, input.tasks, predictions, {
        profile: input.profile,
        lookup: input.lookup,
      }),
    };
  } catch (error) {
    if (error instanceof VerdictsMissingError)
      return {
        ok: false,
        why: `the judge cache lacks ${whose} verdicts on ${error.missing} of ${error.total} tasks; ${input.metric} correctness needs every one`,
      };
    throw error;
  }
}

export async function pairedAgainstSystem(input: PairedSubmissionInput): Promise<PairedOutcome> {
  if (!input.submission.ok) return { ok: false, why: 'this file has problems the scorer refuses; fix them first' };
  const system = parsePredictions(input.system.predictionsText, input.tasks, { mode: 'score', maxIssues: 1 });
  if (!system.ok)
    return {
      ok: false,
      why: `${input.system.name}'s predictions do not fit these tasks (${system.issueCount} problem(s), first: ${system.issues[0]?.message ?? system.summary[0] ?? 'unknown'})`,
    };
  const a = await metricOf(input, input.submission, "this file's");
  if (!a.ok) return a;
  const b = await metricOf(input, system, `${input.system.name}'s`);
  if (!b.ok) return b;
  return { ok: true, result: pairedComparison(input.metric, a.metric, b.metric, input.profile.bootstrap) };
}
