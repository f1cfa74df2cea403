/**
 * The absence audit of unanswerable and false_premise tasks: what to search the corpus for (the
 * question, and the premise's target entity) and what to highlight in the hits (the target's
 * name and its known aliases), so a reader can judge whether the corpus supports the premise.
 */
import type { Task } from '../release/types.ts';
import { wordsPattern } from '../text/regexp.ts';

export const ABSENCE_TYPES = new Set(['unanswerable', 'false_premise']);

export interface AbsenceQuery {
  kind: 'question' | 'target';
  query: string;
}

/** The premise's target entity (false_premise provenance), or null. */
export function targetOf(task: Pick<Task, 'provenance'>): string | null {
  const target = task.provenance.target_entity;
  return typeof target === 'string' && target.trim() ? target.trim() : null;
}

export function absenceQueries(question: string, target: string | null): AbsenceQuery[] {
  const out: AbsenceQuery[] = [{ kind: 'question', query: question }];
  if (target) out.push({ kind: 'target', query: target });
  return out;
}

/**
 * Names in a question: runs of two or more capitalised words ("Marrowby Land Company",
 * "Noemi Zeller-Moss"), what an unanswerable task's absence hinges on.
 */
export function questionNames(question: string): string[] {
  const runs = question.match(/\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*)+/gu) ?? [];
  const seen = new Set<string>();
  return runs
    .map((r) => r.replace(/[.'’-]+$/u, ''))
    .filter((r) => {
      const k = r.toLowerCase();
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
}

/** What to mark in a hit: the target's name and aliases, longest first, each once (case-insensitively). */
export function targetNeedles(target: string | undefined, aliases: readonly string[] = []): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const n of [target ?? '', ...aliases].map((s) => s.trim()).filter(Boolean)) {
    const k = n.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(n);
  }
  return out.sort((a, b) => b.length - a.length);
}

/**
 * Mentions of any of the needles in a text: case-insensitive, any whitespace between words,
 * overlapping matches (a name and its alias) counted once.
 */
export function countMentions(text: string, needles: readonly string[]): number {
  const spans: Array<[number, number]> = [];
  for (const n of needles) {
    const words = n.split(/\s+/).filter(Boolean);
    if (!words.length) continue;
    for (const m of text.matchAll(wordsPattern(words, 'giu'))) spans.push([m.index, m.index + m[0].length]);
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let count = 0;
  let end = -1;
  for (const [s, e] of spans) {
    if (s >= end) count++;
    end = Math.max(end, e);
  }
  return count;
}
