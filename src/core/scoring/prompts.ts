/**
 * The three judge prompts, rendered from a judge profile's templates in one pass over the
 * named placeholders (text inside a substituted value is never substituted again), and the
 * judge cache key: hex sha256 of UTF-8 (model + NUL + system + NUL + prompt).
 */
import type { JudgeProfile, Task } from '../release/types.ts';
import { pyReprStrList } from '../python/repr.ts';
import { sha256Hex } from '../release/sha256.ts';

export type JudgeTag = 'SCOREJUDGE' | 'AGGJUDGE' | 'PREMISEID';
export type PromptKind = 'answer' | 'aggregation' | 'premise_id';

export const TAG_OF_PROMPT: Readonly<Record<PromptKind, JudgeTag>> = {
  answer: 'SCOREJUDGE',
  aggregation: 'AGGJUDGE',
  premise_id: 'PREMISEID',
};

const PLACEHOLDER_NAMES = [
  'question',
  'reference_answer',
  'false_presupposition',
  'answer',
  'gold_items_python_repr',
  'n_gold_items',
] as const;
type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];
const PLACEHOLDER = new RegExp(`\\{(${PLACEHOLDER_NAMES.join('|')})\\}`, 'g');

export class JudgeProfileError extends Error {}

function render(template: string, kind: PromptKind, values: Partial<Record<PlaceholderName, string>>): string {
  return template.replace(PLACEHOLDER, (whole, name: PlaceholderName) => {
    const value = values[name];
    if (value === undefined)
      throw new JudgeProfileError(`the ${kind} prompt template uses ${whole}, which that prompt does not provide`);
    return value;
  });
}

/** Python's `x or 'N/A'` for an optional task string. */
function orNA(value: string | null | undefined): string {
  return value ? value : 'N/A';
}

/** SCOREJUDGE. `answer` is what the judge is shown: refusal types pass "(empty)" for a blank answer. */
export function renderAnswerPrompt(profile: JudgeProfile, task: Task, answer: string): string {
  return render(profile.prompts.answer, 'answer', {
    question: task.question,
    reference_answer: orNA(task.answer),
    answer,
  });
}

export function renderAggregationPrompt(profile: JudgeProfile, task: Task, answer: string): string {
  const items = (task.items ?? []).map((i) => i.item);
  return render(profile.prompts.aggregation, 'aggregation', {
    question: task.question,
    gold_items_python_repr: pyReprStrList(items),
    n_gold_items: String(items.length),
    answer,
  });
}

export function renderPremisePrompt(profile: JudgeProfile, task: Task, answer: string): string {
  return render(profile.prompts.premise_id, 'premise_id', {
    question: task.question,
    false_presupposition: orNA(task.false_element),
    answer,
  });
}

export function judgeCacheKey(model: string, system: string, prompt: string): Promise<string> {
  return sha256Hex(`${model}\0${system}\0${prompt}`);
}
