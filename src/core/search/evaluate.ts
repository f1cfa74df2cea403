/**
 * Scores rankings against gold sets, the same way for the CLI (`run`) and the search worker:
 * the benchmark's diagnostics (recall@5, recall@20, nDCG@10; docs/benchmark-spec.md 2.3) over
 * every task whose type is not unanswerable / false_premise, and trec_eval's measures with -c
 * over the tasks that have gold documents (docs/ux-anchors.md 4(a)), overall and per type.
 */
import { REFUSAL_TYPES, type TaskType } from '../release/types.ts';
import { benchmarkNdcgAt10, benchmarkRecallAt, qrelsFromGold, trecEval, type RankedDoc } from '../retrieval/index.ts';
import type { EvalReport, EvalTask, SearchMethod, TaskRetrievalScores, TypeScorecard } from './types.ts';

/** Tasks that count for the retrieval diagnostics (their type expects an answer from documents). */
export function answerableTasks<T extends { type: TaskType }>(tasks: readonly T[]): T[] {
  return tasks.filter((t) => !REFUSAL_TYPES.has(t.type));
}

export type Rankings = ReadonlyMap<string, readonly RankedDoc[]>;

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return values.length ? sum / values.length : 0;
}

function trecOf(tasks: readonly EvalTask[], rankings: Rankings): ReturnType<typeof trecEval> {
  const qrels = qrelsFromGold(tasks);
  const run = new Map<string, Array<{ docid: string; score: number }>>();
  for (const t of tasks) {
    run.set(
      t.task_id,
      (rankings.get(t.task_id) ?? []).map((d) => ({ docid: d.doc_id, score: d.score })),
    );
  }
  return trecEval(run, qrels, { complete: true });
}

/**
 * `tasks` may hold every task of a split: refusal types are counted in `excluded` and left
 * out. A task without a ranking scores as an empty ranking.
 */
export function evaluateRankings(
  method: SearchMethod,
  k: number,
  tasks: readonly EvalTask[],
  rankings: Rankings,
): EvalReport {
  const scored = answerableTasks(tasks);
  const perTask: TaskRetrievalScores[] = scored.map((t) => {
    const retrieved = (rankings.get(t.task_id) ?? []).map((d) => d.doc_id);
    return {
      task_id: t.task_id,
      type: t.type,
      gold: new Set(t.gold_docs).size,
      'recall@5': benchmarkRecallAt(retrieved, t.gold_docs, 5),
      'recall@20': benchmarkRecallAt(retrieved, t.gold_docs, 20),
      'ndcg@10': benchmarkNdcgAt10(retrieved, t.gold_docs),
    };
  });
  const types: TaskType[] = [];
  for (const t of scored) if (!types.includes(t.type)) types.push(t.type);
  const perType: TypeScorecard[] = types.map((type) => {
    const rows = perTask.filter((r) => r.type === type);
    const trec = trecOf(
      scored.filter((t) => t.type === type),
      rankings,
    );
    return {
      type,
      n: rows.length,
      'recall@5': mean(rows.map((r) => r['recall@5'])),
      'recall@20': mean(rows.map((r) => r['recall@20'])),
      'ndcg@10': mean(rows.map((r) => r['ndcg@10'])),
      trec: trec.all,
      trecNumQ: trec.numQ,
    };
  });
  const trec = trecOf(scored, rankings);
  return {
    method,
    k,
    n: scored.length,
    excluded: tasks.length - scored.length,
    emptyGold: perTask.filter((r) => r.gold === 0).length,
    overall: {
      'recall@5': mean(perTask.map((r) => r['recall@5'])),
      'recall@20': mean(perTask.map((r) => r['recall@20'])),
      'ndcg@10': mean(perTask.map((r) => r['ndcg@10'])),
    },
    trec: trec.all,
    trecNumQ: trec.numQ,
    perType,
    perTask,
  };
}
