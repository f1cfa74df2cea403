/**
 * The spot-check's keyboard: one key per answer, then the next question, after the last the next
 * task. A pure state machine over (task, question, position) so the view only applies its result.
 */
import { SPOT_QUESTIONS, type SpotAnswer } from './labels.ts';
import { applicable, stepQuestion, type SpotTaskShape } from './questions.ts';

export type SpotKeyAction =
  | { kind: 'answer'; answer: SpotAnswer }
  | { kind: 'question'; dir: 1 | -1 }
  | { kind: 'task'; dir: 1 | -1 }
  | { kind: 'note' };

const ANSWER_OF: Readonly<Record<string, SpotAnswer>> = { y: 'yes', n: 'no', u: 'unsure' };

/** The action a key stands for (modifiers held: none, so browser shortcuts keep working). */
export function spotKeyAction(e: {
  key: string;
  metaKey?: boolean;
  ctrlKey?: boolean;
  altKey?: boolean;
}): SpotKeyAction | undefined {
  if (e.metaKey || e.ctrlKey || e.altKey) return undefined;
  const answer = ANSWER_OF[e.key];
  if (answer) return { kind: 'answer', answer };
  switch (e.key) {
    case 'ArrowDown':
      return { kind: 'question', dir: 1 };
    case 'ArrowUp':
      return { kind: 'question', dir: -1 };
    case 'j':
    case 'ArrowRight':
      return { kind: 'task', dir: 1 };
    case 'k':
    case 'ArrowLeft':
      return { kind: 'task', dir: -1 };
    case 'e':
      return { kind: 'note' };
    default:
      return undefined;
  }
}

/** Where the reviewer stands: the task's position in the sample and the current question. */
export interface SpotPlace {
  index: number;
  question: number;
}

/**
 * Where an answer to the current question leads: the next applicable question, else the next
 * task (whose first open question the view picks), else stay on the last one. Undefined when the
 * answer is refused (a yes/no/unsure to a question that does not apply).
 */
export function afterAnswer(
  t: Pick<SpotTaskShape, 'type' | 'judge'>,
  place: SpotPlace,
  answer: SpotAnswer,
  sampleSize: number,
): { place: SpotPlace; nextTask: boolean } | undefined {
  if (!applicable(t, SPOT_QUESTIONS[place.question]!) && answer !== 'na') return undefined;
  const next = stepQuestion(t, place.question, 1);
  if (next !== undefined) return { place: { ...place, question: next }, nextTask: false };
  if (place.index < sampleSize - 1) return { place: { index: place.index + 1, question: 0 }, nextTask: true };
  return { place, nextTask: false };
}
