/** Rankings written out: a TREC run (qid = task_id) and predictions-shaped `retrieved` lists. */
import { writeJsonl } from '../release/jsonl.ts';
import { formatRun, type RankedDoc } from '../retrieval/index.ts';
import type { SearchMethod } from './types.ts';

/** The benchmark caps `retrieved` at 20 (docs/benchmark-spec.md 1.5). */
export const MAX_RETRIEVED = 20;

export function runTag(method: SearchMethod): string {
  return `ebx-${method}`;
}

/** `qid Q0 docid rank score tag`, tasks in the given order, ranks from 1. */
export function trecRunText(
  order: readonly string[],
  rankings: ReadonlyMap<string, readonly RankedDoc[]>,
  tag: string,
): string {
  return formatRun(
    order.map((id) => [id, rankings.get(id) ?? []] as [string, readonly RankedDoc[]]),
    tag,
  );
}

/**
 * predictions.jsonl lines holding only the rankings: answer "" and no citations, so the file
 * validates and its retrieval diagnostics can be scored; the answers score 0.
 */
export function predictionsText(order: readonly string[], rankings: ReadonlyMap<string, readonly RankedDoc[]>): string {
  return writeJsonl(
    order.map((task_id) => ({
      task_id,
      answer: '',
      citations: [],
      retrieved: (rankings.get(task_id) ?? []).slice(0, MAX_RETRIEVED).map((d) => d.doc_id),
    })),
  );
}
