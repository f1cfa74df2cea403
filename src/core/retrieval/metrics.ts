/**
 * Retrieval metrics, two families:
 *
 * 1. The benchmark's diagnostics (docs/benchmark-spec.md section 2.3), per task:
 *    recall@k = |set(retrieved[:k]) ∩ gold| / |gold| (0 when gold is empty), and ndcg@10 with
 *    binary gain over the order-deduplicated list, IDCG over min(|gold|, 10) ideal hits.
 *    The per-task rules and the means (Python 3.12 sum()/len()) are the scorer's own
 *    (scoring/metrics.ts, scoring/python-sum.ts), so the two can never disagree.
 *
 * 2. trec_eval's measures, named as trec_eval prints them, with its conventions
 *    (usnistgov/trec_eval form_res_rels.c, m_*.c):
 *    - the run is re-sorted by score descending, ties by docid descending (strcmp(b, a));
 *    - a query with no qrels lines (e.g. a task with an empty gold set) is not evaluated;
 *    - a qrels query missing from the run: with `complete` (-c) it is evaluated as an empty
 *      ranking (all zeros) and, as trec_eval's -c does, the `all` line's num_rel then counts
 *      every qrels judgement with rel > 0 whatever the relevance level; without -c trec_eval 10
 *      (HEAD) stops with exit code 4 ("result qid ... not found"), 9.x skipped the query. We
 *      skip it (averages over the queries in both) and list it in `missingFromRun`, so a
 *      caller can refuse or warn as it sees fit;
 *    - relevant = rel >= relevanceLevel (default 1) for recall, P, map, recip_rank;
 *      ndcg_cut uses the rel value itself as gain (rel > 0), discount log2(rank + 1);
 *    - P_k divides by k even when fewer documents were retrieved.
 */

import { ndcgAtK, recallAtK } from '../scoring/metrics.ts';
import { pyMean } from '../python/sum.ts';

export function dedupeInOrder(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/** Benchmark recall@k over the order-deduplicated list, as score.py reads `retrieved`. */
export function benchmarkRecallAt(retrieved: readonly string[], gold: readonly string[], k: number): number {
  return recallAtK(dedupeInOrder(retrieved), gold, k);
}

/** Benchmark ndcg@10: binary gain, ranks from 1, discount 1 / log2(rank + 1). */
export function benchmarkNdcgAt10(retrieved: readonly string[], gold: readonly string[]): number {
  return ndcgAtK(retrieved, gold, 10);
}

export interface BenchmarkRetrievalScores {
  'recall@5': number;
  'recall@20': number;
  'ndcg@10': number;
}

/**
 * Means over tasks of the benchmark's diagnostics. The caller passes only the tasks that
 * count (types other than unanswerable / false_premise). No tasks gives zeros.
 */
export function benchmarkRetrievalScores(
  tasks: ReadonlyArray<{ retrieved: readonly string[]; gold: readonly string[] }>,
): BenchmarkRetrievalScores {
  return {
    'recall@5': pyMean(tasks.map((t) => benchmarkRecallAt(t.retrieved, t.gold, 5))),
    'recall@20': pyMean(tasks.map((t) => benchmarkRecallAt(t.retrieved, t.gold, 20))),
    'ndcg@10': pyMean(tasks.map((t) => benchmarkNdcgAt10(t.retrieved, t.gold))),
  };
}

// ---------------------------------------------------------------------------------------------
// trec_eval

/** The measures we compute, in the order trec_eval prints them. */
export const TREC_MEASURES = [
  'num_ret',
  'num_rel',
  'num_rel_ret',
  'map',
  'recip_rank',
  'P_5',
  'P_10',
  'P_20',
  'recall_5',
  'recall_10',
  'recall_20',
  'recall_100',
  'ndcg_cut_5',
  'ndcg_cut_10',
  'ndcg_cut_20',
] as const;
export type TrecMeasure = (typeof TREC_MEASURES)[number];
export type TrecValues = Record<TrecMeasure, number>;

/** Counts are summed in trec_eval's summary; everything else is averaged. */
const COUNT_MEASURES: ReadonlySet<TrecMeasure> = new Set(['num_ret', 'num_rel', 'num_rel_ret']);

/** ir_measures spellings for the UI (docs/ux-anchors.md 4(a)). */
export const IR_MEASURES_NAMES: Record<TrecMeasure, string> = {
  num_ret: 'NumRet',
  num_rel: 'NumRel',
  num_rel_ret: 'NumRelRet',
  map: 'AP',
  recip_rank: 'RR',
  P_5: 'P@5',
  P_10: 'P@10',
  P_20: 'P@20',
  recall_5: 'R@5',
  recall_10: 'R@10',
  recall_20: 'R@20',
  recall_100: 'R@100',
  ndcg_cut_5: 'nDCG@5',
  ndcg_cut_10: 'nDCG@10',
  ndcg_cut_20: 'nDCG@20',
};

/** Code-point order, which is strcmp's order on the UTF-8 bytes. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** trec_eval's ranking of a query's run lines: score descending, then docid descending. */
export function trecEvalOrder<T extends { docid: string; score: number }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) =>
    a.score > b.score ? -1 : a.score < b.score ? 1 : compareCodePoints(b.docid, a.docid),
  );
}

export function trecEvalQuery(
  entries: ReadonlyArray<{ docid: string; score: number }>,
  judged: ReadonlyMap<string, number>,
  relevanceLevel = 1,
): TrecValues {
  const ranked = trecEvalOrder(entries);
  const seen = new Set<string>();
  for (const e of ranked) {
    if (seen.has(e.docid)) throw new Error(`duplicate docid ${JSON.stringify(e.docid)} in one query's run`);
    seen.add(e.docid);
  }
  const gains: number[] = [];
  let numRel = 0;
  for (const rel of judged.values()) {
    if (rel >= relevanceLevel) numRel++;
    if (rel > 0) gains.push(rel);
  }
  gains.sort((a, b) => b - a);
  const rels = ranked.map((e) => judged.get(e.docid) ?? -1);

  const relInTop = (k: number): number => {
    let n = 0;
    for (let i = 0; i < Math.min(k, rels.length); i++) if (rels[i]! >= relevanceLevel) n++;
    return n;
  };
  const ndcgCut = (k: number): number => {
    let dcg = 0;
    for (let i = 0; i < Math.min(k, rels.length); i++) if (rels[i]! > 0) dcg += rels[i]! / Math.log2(i + 2);
    let idcg = 0;
    for (let i = 0; i < Math.min(k, gains.length); i++) idcg += gains[i]! / Math.log2(i + 2);
    return idcg > 0 ? dcg / idcg : 0;
  };
  let relSoFar = 0;
  let sumPrec = 0;
  let recipRank = 0;
  rels.forEach((rel, i) => {
    if (rel >= relevanceLevel) {
      relSoFar++;
      sumPrec += relSoFar / (i + 1);
      if (recipRank === 0) recipRank = 1 / (i + 1);
    }
  });
  const recall = (k: number): number => (numRel > 0 ? relInTop(k) / numRel : 0);
  return {
    num_ret: ranked.length,
    num_rel: numRel,
    num_rel_ret: relSoFar,
    map: numRel > 0 ? sumPrec / numRel : 0,
    recip_rank: recipRank,
    P_5: relInTop(5) / 5,
    P_10: relInTop(10) / 10,
    P_20: relInTop(20) / 20,
    recall_5: recall(5),
    recall_10: recall(10),
    recall_20: recall(20),
    recall_100: recall(100),
    ndcg_cut_5: ndcgCut(5),
    ndcg_cut_10: ndcgCut(10),
    ndcg_cut_20: ndcgCut(20),
  };
}

export interface TrecEvalOptions {
  /** trec_eval -c: average over every qrels query, missing ones scoring 0. */
  complete?: boolean;
  /** trec_eval -l: minimum rel that counts as relevant. Default 1. */
  relevanceLevel?: number;
}

export interface TrecEvalResult {
  /** Evaluated queries, in qid order (code points). */
  perQuery: Map<string, TrecValues>;
  /** Means (counts: sums) over the evaluated queries. */
  all: TrecValues;
  numQ: number;
  /** qrels queries absent from the run (code-point order): zeros with -c, left out without it. */
  missingFromRun: string[];
}

export function trecEval(
  run: ReadonlyMap<string, ReadonlyArray<{ docid: string; score: number }>>,
  qrels: ReadonlyMap<string, ReadonlyMap<string, number>>,
  options: TrecEvalOptions = {},
): TrecEvalResult {
  const level = options.relevanceLevel ?? 1;
  const allQids = [...qrels.keys()].sort(compareCodePoints);
  const missingFromRun = allQids.filter((q) => !run.has(q));
  const qids = options.complete ? allQids : allQids.filter((q) => run.has(q));
  const perQuery = new Map<string, TrecValues>();
  for (const qid of qids) perQuery.set(qid, trecEvalQuery(run.get(qid) ?? [], qrels.get(qid)!, level));
  const all = Object.fromEntries(TREC_MEASURES.map((m) => [m, 0])) as TrecValues;
  for (const values of perQuery.values()) for (const m of TREC_MEASURES) all[m] += values[m];
  if (qids.length > 0) for (const m of TREC_MEASURES) if (!COUNT_MEASURES.has(m)) all[m] /= qids.length;
  if (options.complete) {
    // m_num_rel.c te_calc_avg_num_rel: with -c, num_rel of `all` counts rel > 0 over every qrels line
    let numRel = 0;
    for (const judged of qrels.values()) for (const rel of judged.values()) if (rel > 0) numRel++;
    all.num_rel = numRel;
  }
  return { perQuery, all, numQ: qids.length, missingFromRun };
}

/**
 * printf("%6.4f") of a non-negative double: round half to even on exact ties, which only
 * happen when x * 32 is an odd integer (x = m / 32); toFixed() rounds those up.
 */
export function formatFixed4(x: number): string {
  const scaled32 = x * 32;
  if (Number.isInteger(scaled32) && scaled32 % 2 !== 0) {
    const lower = Math.floor(x * 10000);
    const n = lower % 2 === 0 ? lower : lower + 1;
    return (n / 10000).toFixed(4);
  }
  return x.toFixed(4);
}

/** trec_eval's text output: `name<padded to 22>\t<qid|all>\t<value>`, optional per-query lines. */
export function formatTrecEval(result: TrecEvalResult, runTag: string, options: { perQuery?: boolean } = {}): string {
  const lines: string[] = [];
  const line = (name: string, qid: string, value: string): void => {
    lines.push(`${name.padEnd(22)}\t${qid}\t${value}`);
  };
  const emit = (qid: string, values: TrecValues): void => {
    for (const m of TREC_MEASURES) line(m, qid, COUNT_MEASURES.has(m) ? String(values[m]) : formatFixed4(values[m]));
  };
  if (options.perQuery) for (const [qid, values] of result.perQuery) emit(qid, values);
  line('runid', 'all', runTag);
  line('num_q', 'all', String(result.numQ));
  emit('all', result.all);
  return `${lines.join('\n')}\n`;
}
