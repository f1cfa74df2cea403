/** The judge-free metrics of score.py: retrieval recall@k / nDCG@k and ALCE-style citation P/R. */
import type { Task } from '../release/types.ts';
import { pySum, pyTrueDiv } from '../python/sum.ts';

/** |set(retrieved[:k]) ∩ set(gold)| / len(gold); 0 for an empty gold list. */
export function recallAtK(retrieved: readonly string[], gold: readonly string[], k: number): number {
  if (gold.length === 0) return 0;
  const top = new Set(retrieved.slice(0, k));
  let hits = 0;
  for (const g of new Set(gold)) if (top.has(g)) hits++;
  return hits / gold.length;
}

/** Binary-gain nDCG over the order-deduplicated list. */
export function ndcgAtK(retrieved: readonly string[], gold: readonly string[], k: number): number {
  if (gold.length === 0) return 0;
  const goldSet = new Set(gold);
  const deduped = [...new Set(retrieved)].slice(0, k);
  const gains: number[] = [];
  for (let i = 0; i < deduped.length; i++) if (goldSet.has(deduped[i]!)) gains.push(1 / Math.log2(i + 2));
  const idealGains: number[] = [];
  const n = Math.min(gold.length, k);
  for (let i = 0; i < n; i++) idealGains.push(1 / Math.log2(i + 2));
  const dcg = pySum(gains);
  const ideal = pySum(idealGains);
  return ideal ? pyTrueDiv(dcg, ideal) : 0;
}

/** gold_docs ∪ every item's doc_ids. */
export function citationGold(task: Task): Set<string> {
  const gold = new Set(task.gold_docs ?? []);
  for (const item of task.items ?? []) for (const d of item.doc_ids ?? []) gold.add(d);
  return gold;
}

/** precision = |set(citations) ∩ gold| / len(citations) (duplicates count); recall = hits / |gold|. */
export function citationPrecisionRecall(
  citations: readonly string[],
  gold: ReadonlySet<string>,
): { precision: number; recall: number } {
  let hits = 0;
  for (const c of new Set(citations)) if (gold.has(c)) hits++;
  return {
    precision: citations.length ? hits / citations.length : 0,
    recall: gold.size ? hits / gold.size : 0,
  };
}
