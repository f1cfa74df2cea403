/**
 * What a submission that read the answer key looks like, for the key-reading signals tests: its
 * own retriever's list (a published system's; empty without one), but the key's answer (the items
 * joined for list tasks) and the key's gold documents as citations.
 */
import type { Task } from '../../src/core/release/types.ts';
import type { PredictionsResult } from '../../src/core/scoring/predictions.ts';

export function keyBuiltPredictions(tasks: readonly Task[], retriever?: PredictionsResult): string {
  return tasks
    .map((t) =>
      JSON.stringify({
        task_id: t.task_id,
        answer: t.answer ?? (t.items ?? []).map((i) => i.item).join('; '),
        citations: t.gold_docs ?? [],
        retrieved: retriever?.byTaskId.get(t.task_id)?.retrieved ?? [],
      }),
    )
    .join('\n');
}
