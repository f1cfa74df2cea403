/**
 * The absence audit of unanswerable and false_premise tasks: what to search the corpus for (the
 * question, and the premise's target entity) and what to highlight in the hits (the target's
 * name and its known aliases), so a reader can judge whether the corpus supports the premise.
 */
import type { Task } from '../release/types.ts';

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
