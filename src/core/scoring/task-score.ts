/** Per-task (cited, uncited) scores of spec 2.2, given the judge verdicts. */
import type { Task, TaskType } from '../release/types.ts';
import type { AggregationVerdict, AnswerVerdict } from './verdicts.ts';
import { pyTrueDiv } from '../python/sum.ts';

/** Types with no gold documents: judged on refusal, left out of retrieval and citation metrics. */
export const NO_GOLD_TYPES: ReadonlySet<TaskType> = new Set(['unanswerable', 'false_premise']);

export function isListType(type: TaskType): boolean {
  return type === 'aggregation' || type === 'dossier';
}

export interface TaskScore {
  cited: number;
  uncited: number;
}

/**
 * Item F1 as score.py computes it: recall = m / n_gold and precision = m / (m + e) with Python
 * ints (exact even for an absurd extra_items beyond 2^53), then 2PR / (P + R) in floats.
 */
export function itemF1(matched: number, extra: bigint, nGold: number): number {
  const m = BigInt(matched);
  const recall = nGold ? pyTrueDiv(m, BigInt(nGold)) : 0;
  const precision = m + extra ? pyTrueDiv(m, m + extra) : 0;
  if (precision + recall === 0) return 0;
  return (2 * precision * recall) / (precision + recall);
}

export function scoreRefusalTask(verdict: AnswerVerdict): TaskScore {
  const s = verdict.isRefusal ? 1 : 0;
  return { cited: s, uncited: s };
}

export function scoreSingleAnswerTask(task: Task, gate: readonly string[], verdict: AnswerVerdict): TaskScore {
  if (verdict.isRefusal || !verdict.correct) return { cited: 0, uncited: 0 };
  const gold = new Set(task.gold_docs ?? []);
  return { cited: gate.some((c) => gold.has(c)) ? 1 : 0, uncited: 1 };
}

export function scoreListTask(task: Task, gate: readonly string[], verdict: AggregationVerdict): TaskScore {
  const items = task.items ?? [];
  let citedMatched = 0;
  let uncitedMatched = 0;
  for (let i = 0; i < items.length; i++) {
    if (i >= verdict.matched.length || !verdict.matched[i]) continue;
    uncitedMatched++;
    const own = items[i]!.doc_ids ?? [];
    const supported = new Set(own.length ? own : (task.gold_docs ?? []));
    if (gate.some((c) => supported.has(c))) citedMatched++;
  }
  const extra = verdict.extra;
  return {
    cited: itemF1(citedMatched, extra + BigInt(uncitedMatched - citedMatched), items.length),
    uncited: itemF1(uncitedMatched, extra, items.length),
  };
}
