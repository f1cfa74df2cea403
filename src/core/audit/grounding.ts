/**
 * The dataset card's grounding check made exact (rules.ts): per claim and document, whether the
 * claim occurs verbatim or by token overlap, where the best passage is, and which document
 * grounds it best.
 */
import type { SplitName, Task, TaskType } from '../release/types.ts';
import {
  codePointOffset,
  collapseLower,
  distinctTokens,
  normaliseWithOffsets,
  positionedTokens,
  type NormalisedText,
} from './normalise.ts';
import { OVERLAP_THRESHOLD } from './rules.ts';

export type MatchKind = 'verbatim' | 'overlap' | 'none';

export interface Passage {
  /** Offsets in code points (Python's str indices), end exclusive. */
  start: number;
  end: number;
  /** The same range in UTF-16 units, for slicing in JavaScript. */
  start16: number;
  end16: number;
}

export interface DocEvidence {
  doc_id: string;
  match: MatchKind;
  /** Distinct claim tokens found in the document, and the claim's distinct tokens. */
  tokensFound: number;
  tokensTotal: number;
  /** tokensFound / tokensTotal, or null for a claim without tokens. */
  overlap: number | null;
  /** Where the evidence is (verbatim: first occurrence; otherwise the shortest span of the found tokens). */
  passage: Passage | null;
  /** The document's length in code points. */
  chars: number;
}

/** A claim checked against a document already normalised (documents are shared by many claims). */
export interface PreparedDoc {
  doc_id: string;
  text: string;
  normalised: NormalisedText;
  tokens: ReturnType<typeof positionedTokens>;
  tokenSet: Set<string>;
  chars: number;
}

export function prepareDoc(doc_id: string, text: string): PreparedDoc {
  const tokens = positionedTokens(text);
  return {
    doc_id,
    text,
    normalised: normaliseWithOffsets(text),
    tokens,
    tokenSet: new Set(tokens.map((t) => t.token)),
    chars: codePointOffset(text, text.length),
  };
}

function passageOf(doc: PreparedDoc, start16: number, end16: number): Passage {
  return {
    start: codePointOffset(doc.text, start16),
    end: codePointOffset(doc.text, end16),
    start16,
    end16,
  };
}

/** The shortest span of the document holding every claim token it has; the earliest on ties. */
function shortestCover(doc: PreparedDoc, wanted: ReadonlySet<string>): { start16: number; end16: number } | null {
  const hits = doc.tokens.filter((t) => wanted.has(t.token));
  const need = new Set(hits.map((t) => t.token)).size;
  if (need === 0) return null;
  const counts = new Map<string, number>();
  let have = 0;
  let best: { start16: number; end16: number } | null = null;
  let left = 0;
  for (let right = 0; right < hits.length; right++) {
    const r = hits[right]!;
    const c = (counts.get(r.token) ?? 0) + 1;
    counts.set(r.token, c);
    if (c === 1) have++;
    while (have === need) {
      const l = hits[left]!;
      if (!best || r.end - l.start < best.end16 - best.start16) best = { start16: l.start, end16: r.end };
      const lc = counts.get(l.token)! - 1;
      counts.set(l.token, lc);
      if (lc === 0) have--;
      left++;
    }
  }
  return best;
}

export function checkClaim(claim: string, doc: PreparedDoc): DocEvidence {
  const needle = collapseLower(claim);
  const tokens = distinctTokens(claim);
  let found = 0;
  for (const t of tokens) if (doc.tokenSet.has(t)) found++;
  const overlap = tokens.size ? found / tokens.size : null;
  const base = { doc_id: doc.doc_id, tokensFound: found, tokensTotal: tokens.size, overlap, chars: doc.chars };
  if (needle.length > 0) {
    const at = doc.normalised.text.indexOf(needle);
    if (at >= 0) {
      const { origin } = doc.normalised;
      const lastOrigin = origin[at + needle.length - 1]!;
      const lastCode = doc.text.charCodeAt(lastOrigin);
      const end16 = lastOrigin + (lastCode >= 0xd800 && lastCode <= 0xdbff ? 2 : 1);
      return { ...base, match: 'verbatim', passage: passageOf(doc, origin[at]!, end16) };
    }
  }
  const cover = shortestCover(doc, tokens);
  const passage = cover ? passageOf(doc, cover.start16, cover.end16) : null;
  const grounded = needle.length > 0 && overlap !== null && overlap >= OVERLAP_THRESHOLD;
  return { ...base, match: grounded ? 'overlap' : 'none', passage };
}

export interface ClaimGrounding {
  /** The reference answer, or the item's text. */
  claim: string;
  /** Index of the item for list types; null for the answer. */
  item: number | null;
  /** The documents the rule looks in. */
  doc_ids: string[];
  /** Of those, the ones whose text was read. */
  docsRead: number;
  /** true / false when decided; null when no document that was read grounds it and some could not be read. */
  grounded: boolean | null;
  /** The best document: a verbatim match with the earliest passage, else the highest overlap. */
  best: DocEvidence | null;
  perDoc: DocEvidence[];
}

function better(a: DocEvidence, b: DocEvidence): boolean {
  const rank = (e: DocEvidence) => (e.match === 'verbatim' ? 2 : e.match === 'overlap' ? 1 : 0);
  if (rank(a) !== rank(b)) return rank(a) > rank(b);
  if (a.match !== 'verbatim' && (a.overlap ?? -1) !== (b.overlap ?? -1)) return (a.overlap ?? -1) > (b.overlap ?? -1);
  return (a.passage?.start ?? Infinity) < (b.passage?.start ?? Infinity);
}

export function groundClaim(
  claim: string,
  item: number | null,
  docIds: readonly string[],
  docs: ReadonlyMap<string, PreparedDoc>,
): ClaimGrounding {
  const perDoc: DocEvidence[] = [];
  for (const id of docIds) {
    const doc = docs.get(id);
    if (doc) perDoc.push(checkClaim(claim, doc));
  }
  let best: DocEvidence | null = null;
  for (const e of perDoc) if (!best || better(e, best)) best = e;
  const anyGrounds = perDoc.some((e) => e.match !== 'none');
  const allRead = perDoc.length === docIds.length && docIds.length > 0;
  return {
    claim,
    item,
    doc_ids: [...docIds],
    docsRead: perDoc.length,
    grounded: anyGrounds ? true : allRead ? false : null,
    best,
    perDoc,
  };
}

/** Types whose reference answer is one string; their claim is the answer. */
export const ANSWER_TYPES: ReadonlySet<TaskType> = new Set(['single_hop', 'timeline']);
/** Types with gold items; each item is a claim. */
export const ITEM_TYPES: ReadonlySet<TaskType> = new Set(['aggregation', 'dossier']);

export type TaskGroundingStatus = 'grounded' | 'not_grounded' | 'unread' | 'no_gold';

export interface TaskGrounding {
  split: SplitName;
  task_id: string;
  type: TaskType;
  question: string;
  claims: ClaimGrounding[];
  /** Answer types: the answer's grounding. Item types: grounded when every item is, unread when one is undecided. */
  status: TaskGroundingStatus;
}

/** The claims of a task and the documents each is checked against (none for the refusal types). */
export function claimsOf(task: Task): Array<{ claim: string; item: number | null; docIds: string[] }> {
  if (ANSWER_TYPES.has(task.type)) return [{ claim: task.answer ?? '', item: null, docIds: task.gold_docs }];
  if (ITEM_TYPES.has(task.type))
    return (task.items ?? []).map((it, i) => ({
      claim: it.item,
      item: i,
      docIds: it.doc_ids.length ? it.doc_ids : task.gold_docs,
    }));
  return [];
}

/** The documents whose text the grounding audit of these tasks needs, in first-use order. */
export function documentsNeeded(tasks: readonly Task[]): string[] {
  const ids = new Set<string>();
  for (const t of tasks) for (const c of claimsOf(t)) for (const d of c.docIds) ids.add(d);
  return [...ids];
}

export function groundTask(split: SplitName, task: Task, docs: ReadonlyMap<string, PreparedDoc>): TaskGrounding {
  const claims = claimsOf(task).map((c) => groundClaim(c.claim, c.item, c.docIds, docs));
  let status: TaskGroundingStatus;
  if (claims.length === 0 || claims.every((c) => c.doc_ids.length === 0)) status = 'no_gold';
  else if (claims.some((c) => c.grounded === null))
    status = claims.some((c) => c.grounded === false) ? 'not_grounded' : 'unread';
  else status = claims.every((c) => c.grounded) ? 'grounded' : 'not_grounded';
  return { split, task_id: task.task_id, type: task.type, question: task.question, claims, status };
}

export interface TypeGrounding {
  type: TaskType;
  /** What is counted: tasks for answer types, items for aggregation and dossier. */
  unit: 'tasks' | 'items';
  /** Claims decided (their documents read), and of those grounded, verbatim. */
  checked: number;
  grounded: number;
  verbatim: number;
  /** Claims not decided because documents could not be read. */
  unread: number;
  /** Claims with no documents to look in. */
  noDocs: number;
}

/** Per type in first-appearance order, counting tasks (answer types) or items (item types). */
/** The card's two figures first, then the item types: the same order on every release. */
const TYPE_ORDER: readonly TaskType[] = ['single_hop', 'timeline', 'aggregation', 'dossier'];

export function groundingByType(results: readonly TaskGrounding[]): TypeGrounding[] {
  const byType = new Map<TaskType, TypeGrounding>();
  for (const r of results) {
    if (!ANSWER_TYPES.has(r.type) && !ITEM_TYPES.has(r.type)) continue;
    let t = byType.get(r.type);
    if (!t) {
      t = {
        type: r.type,
        unit: ANSWER_TYPES.has(r.type) ? 'tasks' : 'items',
        checked: 0,
        grounded: 0,
        verbatim: 0,
        unread: 0,
        noDocs: 0,
      };
      byType.set(r.type, t);
    }
    for (const c of r.claims) {
      if (c.doc_ids.length === 0) t.noDocs++;
      else if (c.grounded === null) t.unread++;
      else {
        t.checked++;
        if (c.grounded) t.grounded++;
        if (c.best?.match === 'verbatim') t.verbatim++;
      }
    }
  }
  return [...byType.values()].sort((a, b) => TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type));
}
