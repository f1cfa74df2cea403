import type { TaskType } from '../../core/release/types.ts';

/** What each of the benchmark's six task types asks of a system (docs/benchmark-spec.md 1.2, 2.3). */
export const TASK_TYPE_HELP: Record<TaskType, string> = {
  single_hop: 'one fact stated in one document: answer it and cite that document',
  aggregation: 'a list gathered from several documents (every item, each with its source)',
  timeline: 'the order of, or time between, events found in different documents',
  dossier: "a dated record of one person's events across the corpus",
  unanswerable: 'the corpus does not hold the answer: the right reply is to say so',
  false_premise: 'the question assumes an event that never happened: the right reply rejects the premise',
};

export function typeHelp(type: string): string | undefined {
  return (TASK_TYPE_HELP as Record<string, string>)[type];
}
