/** Small hand-made tasks, predictions and a judge profile for behaviour tests (no ../shared needed). */
import type { GoldItem, JudgeProfile, Task, TaskType } from '../../../../src/core/release/types.ts';
import type { JudgeFn } from '../../../../src/core/scoring/score.ts';

export const testProfile: JudgeProfile = {
  judge_model: 'judge-x',
  judge_prompt_version: 'v2',
  system: 'Respond with JSON only.',
  gate_max_citations: 3,
  judge_error_abort_ratio: 0.02,
  prompts: {
    answer:
      '[SCOREJUDGE] {"correct": true|false}\n\nQuestion: {question}\nReference answer: {reference_answer}\n<system_answer>\n{answer}\n</system_answer>',
    aggregation:
      '[AGGJUDGE] [true|false x {n_gold_items}]\n\nQuestion: {question}\nGold items: {gold_items_python_repr}\n<system_answer>\n{answer}\n</system_answer>',
    premise_id:
      '[PREMISEID]\n\nQuestion: {question}\nFalse presupposition: {false_presupposition}\n<system_answer>\n{answer}\n</system_answer>',
  },
  bootstrap: { iterations: 200, seed: 7, percentiles: [2.5, 97.5] },
};

export function task(id: string, type: TaskType, extra: Partial<Task> = {}): Task {
  return {
    task_id: id,
    type,
    answer: type === 'single_hop' || type === 'timeline' ? `answer of ${id}` : null,
    items: null,
    source_doc_ids: [],
    provenance: { generator_model: 'g', pipeline_version: '1.1.0' },
    question: `question ${id}?`,
    gold_docs: [],
    ...extra,
  };
}

export function items(...list: [string, string[]][]): GoldItem[] {
  return list.map(([item, doc_ids]) => ({ item, doc_ids }));
}

export function jsonl(rows: readonly object[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** A judge answering from `${task_id}:${tag}` -> reply; an Error value is thrown instead. */
export function scriptedJudge(replies: Record<string, string | Error>, seen: string[] = []): JudgeFn {
  return async (call) => {
    seen.push(`${call.task_id}:${call.tag}`);
    const reply = replies[`${call.task_id}:${call.tag}`];
    if (reply === undefined) throw new Error(`unexpected judge call ${call.task_id}:${call.tag}`);
    if (reply instanceof Error) throw reply;
    return reply;
  };
}

export const CORRECT = '{"correct": true, "is_refusal": false}';
export const WRONG = '{"correct": false, "is_refusal": false}';
export const REFUSAL = '{"correct": false, "is_refusal": true}';
