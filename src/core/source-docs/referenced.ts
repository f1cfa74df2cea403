/**
 * Every doc id a release refers to, by where it appears: the ids a locator file must cover.
 */
import type { LoadedRelease } from '../release/loaded.ts';
import { SOURCE_DOC_ID_RE } from './locator.ts';

export const REFERENCE_KINDS = [
  'gold',
  'items',
  'source',
  'candidate',
  'absence',
  'pool',
  'citations',
  'retrieved',
] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

export interface ReferencedIds {
  byKind: Record<ReferenceKind, Set<string>>;
  /** The union, sorted. */
  all: string[];
}

/** Prediction lines are parsed leniently: a broken line adds nothing (validation reports it elsewhere). */
function predictionIds(text: string, into: { citations: Set<string>; retrieved: Set<string> }): void {
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof row !== 'object' || row === null) continue;
    const { citations, retrieved } = row as { citations?: unknown; retrieved?: unknown };
    if (Array.isArray(citations)) for (const c of citations) if (typeof c === 'string') into.citations.add(c);
    if (Array.isArray(retrieved)) for (const r of retrieved) if (typeof r === 'string') into.retrieved.add(r);
  }
}

export function referencedDocIds(release: LoadedRelease): ReferencedIds {
  const byKind = Object.fromEntries(REFERENCE_KINDS.map((k) => [k, new Set<string>()])) as Record<
    ReferenceKind,
    Set<string>
  >;
  const add = (kind: ReferenceKind, ids: unknown) => {
    if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'string') byKind[kind].add(id);
  };
  const tasks = [
    ...Object.values(release.splits).flatMap((s) => s?.tasks ?? []),
    ...(release.pooled ?? []),
    ...(release.candidates ?? []),
  ];
  for (const t of tasks) {
    if ('gold_docs' in t) add('gold', t.gold_docs);
    for (const item of t.items ?? []) add('items', item.doc_ids);
    add('source', t.source_doc_ids);
    add('candidate', t.provenance.candidate_doc_ids);
    add('absence', t.provenance.absence_doc_ids);
  }
  for (const p of release.pool ?? []) byKind.pool.add(p.doc_id);
  const predictions = { citations: byKind.citations, retrieved: byKind.retrieved };
  for (const s of release.submissions) if (s.predictionsText) predictionIds(s.predictionsText, predictions);
  const all = new Set<string>();
  for (const set of Object.values(byKind)) for (const id of set) if (SOURCE_DOC_ID_RE.test(id)) all.add(id);
  return { byKind, all: [...all].sort() };
}
