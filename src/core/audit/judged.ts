/**
 * A submission's per-task scores as the scorer computes them, from judge replies already in a
 * cache (no judge is called). Used where an audit needs the judge's view of one answer.
 */
import { errorMessage } from '../error-message.ts';
import type { JudgeProfile, Task } from '../release/types.ts';
import type { ScoringPrediction } from '../scoring/predictions.ts';
import { judgeCacheKey, renderAggregationPrompt, renderAnswerPrompt } from '../scoring/prompts.ts';
import {
  NO_GOLD_TYPES,
  isListType,
  scoreListTask,
  scoreRefusalTask,
  scoreSingleAnswerTask,
} from '../scoring/task-score.ts';
import { readAggregationVerdict, readAnswerVerdict } from '../scoring/verdicts.ts';

/** A reply by judge cache key, or undefined when the cache does not hold it. */
export type ReplyLookup = (key: string) => Promise<string | undefined>;

export type JudgedScore =
  | { status: 'scored'; cited: number; uncited: number }
  /** An answerable task with an empty answer: scored (0, 0) without a judge call. */
  | { status: 'no_call'; cited: 0; uncited: 0 }
  | { status: 'not_cached' }
  /** A reply the scorer cannot read (a judge error, scored 0). */
  | { status: 'judge_error'; message: string };

/** The first judge call's cache key of a task, or null when the scorer makes none. */
export async function firstCallKey(profile: JudgeProfile, task: Task, answer: string): Promise<string | null> {
  let prompt: string;
  if (NO_GOLD_TYPES.has(task.type)) prompt = renderAnswerPrompt(profile, task, answer || '(empty)');
  else if (!answer) return null;
  else if (isListType(task.type)) prompt = renderAggregationPrompt(profile, task, answer);
  else prompt = renderAnswerPrompt(profile, task, answer);
  return judgeCacheKey(profile.judge_model, profile.system, prompt);
}

export async function judgedScore(
  profile: JudgeProfile,
  task: Task,
  prediction: ScoringPrediction,
  lookup: ReplyLookup,
): Promise<JudgedScore> {
  const key = await firstCallKey(profile, task, prediction.answer);
  if (key === null) return { status: 'no_call', cited: 0, uncited: 0 };
  const reply = await lookup(key);
  if (reply === undefined) return { status: 'not_cached' };
  const gate = prediction.citations.slice(0, profile.gate_max_citations);
  try {
    const score = NO_GOLD_TYPES.has(task.type)
      ? scoreRefusalTask(readAnswerVerdict(reply))
      : isListType(task.type)
        ? scoreListTask(task, gate, readAggregationVerdict(reply))
        : scoreSingleAnswerTask(task, gate, readAnswerVerdict(reply));
    return { status: 'scored', ...score };
  } catch (error) {
    return { status: 'judge_error', message: errorMessage(error) };
  }
}
