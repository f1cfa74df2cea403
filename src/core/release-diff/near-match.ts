/**
 * Near matches between removed and added questions (for a person to review, never counted as the
 * same task): word-set similarity (Jaccard) at or above a threshold, best match first. Candidate
 * pairs come from an index of rarer words, so two releases of ~1,000 tasks compare quickly.
 */
import type { Question } from '../release/types.ts';

export const NEAR_MATCH_THRESHOLD = 0.6;
export const NEAR_MATCH_LIMIT = 200;

export interface NearMatch {
  removed_id: string;
  added_id: string;
  similarity: number;
  before: string;
  after: string;
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 0 : both / union;
}

export function nearMatches(
  removed: readonly Question[],
  added: readonly Question[],
  threshold = NEAR_MATCH_THRESHOLD,
  limit = NEAR_MATCH_LIMIT,
): NearMatch[] {
  const addedWords = added.map((q) => words(q.question));
  const index = new Map<string, number[]>();
  addedWords.forEach((ws, i) => {
    for (const w of ws) index.set(w, [...(index.get(w) ?? []), i]);
  });
  const out: NearMatch[] = [];
  for (const q of removed) {
    const ws = words(q.question);
    const seen = new Set<number>();
    for (const w of ws) for (const i of index.get(w) ?? []) seen.add(i);
    let best: { i: number; s: number } | undefined;
    for (const i of seen) {
      const s = jaccard(ws, addedWords[i]!);
      if (s >= threshold && (!best || s > best.s)) best = { i, s };
    }
    if (best)
      out.push({
        removed_id: q.task_id,
        added_id: added[best.i]!.task_id,
        similarity: Math.round(best.s * 1000) / 1000,
        before: q.question,
        after: added[best.i]!.question,
      });
  }
  return out.sort((x, y) => y.similarity - x.similarity).slice(0, limit);
}
