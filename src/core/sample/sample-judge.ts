/**
 * The sample release's judge: deterministic, no LLM. It grades from what the sample knows (the
 * task's reference answer, gold items and false element) by token containment, and answers in
 * the reply shapes of the sample judge profile, so the real scorer code can run on its replies.
 */
import type { Task } from '../release/types.ts';
import type { JudgeCall, JudgeFn } from '../scoring/score.ts';

const STOP = new Set(['the', 'a', 'an', 'of', 'and', 'in', 'on', 'at', 'to', 'for']);
const REFUSAL =
  /(does not contain enough information|not enough information|cannot (?:be )?(?:answer|determine|find)|can't (?:answer|determine|find)|unable to (?:answer|determine|find)|no (?:information|record|evidence)|insufficient information)/i;
const ITEM_SPLIT = /\s*(?:[,;\n]|\band\b)\s*/i;

export function sampleTokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== '' && !STOP.has(t));
}

/** Every token of `needle` appears in `haystack` (an empty needle is never contained). */
export function containsTokens(haystack: string, needle: string): boolean {
  const want = sampleTokens(needle);
  if (want.length === 0) return false;
  const have = new Set(sampleTokens(haystack));
  return want.every((t) => have.has(t));
}

export function isRefusal(answer: string): boolean {
  return REFUSAL.test(answer);
}

function answerReply(task: Task, answer: string): string {
  const refusal = isRefusal(answer);
  const correct = !refusal && task.answer !== null && containsTokens(answer, task.answer);
  return `{"correct": ${correct}, "is_refusal": ${refusal}}`;
}

function aggregationReply(task: Task, answer: string): string {
  const items = (task.items ?? []).map((i) => i.item);
  const matched = items.map((item) => containsTokens(answer, item));
  const pieces = answer.split(ITEM_SPLIT).filter((p) => sampleTokens(p).length > 0);
  const extra = pieces.filter((p) => !items.some((item) => containsTokens(p, item) || containsTokens(item, p))).length;
  return `{"matched_items": [${matched.join(', ')}], "extra_items": ${extra}}`;
}

function premiseReply(task: Task, answer: string): string {
  const identified = task.false_element !== undefined && containsTokens(answer, task.false_element);
  return `{"identified": ${identified}}`;
}

/** The reply of the sample judge to one call about `task`, given the answer the call grades. */
export function sampleJudgeReply(call: Pick<JudgeCall, 'tag'>, task: Task, answer: string): string {
  if (call.tag === 'AGGJUDGE') return aggregationReply(task, answer);
  if (call.tag === 'PREMISEID') return premiseReply(task, answer);
  return answerReply(task, answer);
}

/** A judge function over known tasks and answers that records every reply (the shipped cache). */
export function sampleJudge(
  tasks: readonly Task[],
  answers: ReadonlyMap<string, string>,
  replies: Map<string, string>,
): JudgeFn {
  const byId = new Map(tasks.map((t) => [t.task_id, t]));
  return async (call) => {
    const task = byId.get(call.task_id);
    if (!task) throw new Error(`sample judge: unknown task ${call.task_id}`);
    const reply = sampleJudgeReply(call, task, answers.get(call.task_id) ?? '');
    replies.set(call.key, reply);
    return reply;
  };
}
