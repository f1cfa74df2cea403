import type { CorpusDoc, EntityIndex } from '../release/types.ts';

/**
 * Entity alias index (docs/benchmark-spec.md 1.7): capitalised word runs on one line, header
 * words / months / weekdays stripped from the ends, kept when the normalised name occurs in at
 * least 3 non-garbage docs.
 */
export const MIN_ENTITY_DOCS = 3;

const STOP = new Set(
  (
    'from to sent subject cc bcc date re fw fwd dear regards thanks thank best kind sincerely attachment attachments ' +
    'the a an and or of for in on at by with mr mrs ms dr hon page confidential privileged importance high low ' +
    'january february march april may june july august september october november december ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday ' +
    'mon tue wed thu fri sat sun am pm q a mr. yes no please hi hello note notes total amount wire transfer ' +
    'invoice flight log manifest calendar deposition exhibit case court county state united states'
  ).split(' '),
);

const RUN = /[A-Z][a-z]+(?:[-'][A-Z][a-z]+)*(?:[ \t]+[A-Z][a-z]+(?:[-'][A-Z][a-z]+)*)+/g;

/** Candidate names of one text, cased as they appear. */
export function extractNames(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split('\n')) {
    for (const m of line.matchAll(RUN)) {
      const words = m[0].split(/[ \t]+/);
      while (words.length > 0 && STOP.has(words[0]!.toLowerCase())) words.shift();
      while (words.length > 0 && STOP.has(words[words.length - 1]!.toLowerCase())) words.pop();
      if (words.length >= 2 && words.length <= 4) names.push(words.join(' '));
    }
  }
  return names;
}

export function buildEntityIndex(docs: readonly CorpusDoc[], minDocs = MIN_ENTITY_DOCS): EntityIndex {
  const byName = new Map<string, { aliases: Set<string>; docs: Set<string> }>();
  for (const doc of docs) {
    if (doc.quality === 'garbage') continue;
    for (const name of extractNames(doc.text)) {
      const key = name.toLowerCase();
      let entry = byName.get(key);
      if (!entry) byName.set(key, (entry = { aliases: new Set(), docs: new Set() }));
      entry.aliases.add(name);
      entry.docs.add(doc.doc_id);
    }
  }
  const index: EntityIndex = {};
  for (const key of [...byName.keys()].sort()) {
    const entry = byName.get(key)!;
    if (entry.docs.size < minDocs) continue;
    index[key] = { aliases: [...entry.aliases].sort(), doc_ids: [...entry.docs].sort() };
  }
  return index;
}
