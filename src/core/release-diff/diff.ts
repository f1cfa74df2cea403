/**
 * What changed between two releases, split by split: tasks added, removed and kept; kept tasks
 * whose question, type, answer, items or gold set changed (the last three only where both sides
 * publish an answer key); re-identified tasks (a removed id and an added id with the same
 * question text); near matches among the rest, for a person to review. Pure: the sides are read
 * by side.ts.
 */
import { SPLITS, type GoldItem, type SplitName, type TaskType } from '../release/types.ts';
import type { KeyRow } from './answer-key.ts';
import type { DiffSide, SplitSide } from './side.ts';
import { nearMatches, type NearMatch } from './near-match.ts';

export type KeptChange = 'question' | 'type' | 'answer' | 'items' | 'gold_docs';

export interface ChangedTask {
  task_id: string;
  changes: KeptChange[];
  before: { type: TaskType; question: string };
  after: { type: TaskType; question: string };
}

export interface Reidentified {
  removed_id: string;
  added_id: string;
  question: string;
  /** The type differs on the two sides. */
  type_changed: boolean;
}

export interface SplitDiff {
  split: SplitName;
  /** Tasks on each side (0 when the split has a pin but no questions file). */
  n_a: number;
  n_b: number;
  pin_a?: string;
  pin_b?: string;
  /** Same questions file, byte for byte (by its sha256, or by equal pins). */
  same_questions: boolean;
  /** False when a side has the split's pin but not its questions: nothing is listed then. */
  comparable: boolean;
  added: string[];
  removed: string[];
  kept: string[];
  changed: ChangedTask[];
  /** Kept with the same question and type, and the same answer key where both sides have one. */
  unchanged: string[];
  /** Kept ids whose answer key was compared (both sides have a readable key row). */
  key_compared: number;
  reidentified: Reidentified[];
  near_matches: NearMatch[];
  /** Why part of the split could not be compared, e.g. a side with only a pin. */
  notes: string[];
}

export interface ReleaseDiff {
  a: { label: string; version?: string };
  b: { label: string; version?: string };
  /** Set when both sides carry the same version label and different contents. */
  same_label_warning?: string;
  splits: SplitDiff[];
}

function byId<T extends { task_id: string }>(rows: readonly T[]): Map<string, T> {
  return new Map(rows.map((r) => [r.task_id, r]));
}

function sameItems(a: GoldItem[] | null, b: GoldItem[] | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

function keyChanges(a: KeyRow, b: KeyRow): KeptChange[] {
  const out: KeptChange[] = [];
  if (a.answer !== b.answer) out.push('answer');
  if (!sameItems(a.items, b.items)) out.push('items');
  if (!sameSet(a.gold_docs, b.gold_docs)) out.push('gold_docs');
  return out;
}

/** Pairs removed and added ids with the same question text, one to one, in file order. */
function reidentify(removed: readonly string[], added: readonly string[], a: SplitSide, b: SplitSide): Reidentified[] {
  const qa = byId(a.questions);
  const qb = byId(b.questions);
  const addedByText = new Map<string, string[]>();
  for (const id of added) {
    const text = qb.get(id)!.question;
    addedByText.set(text, [...(addedByText.get(text) ?? []), id]);
  }
  const out: Reidentified[] = [];
  for (const id of removed) {
    const before = qa.get(id)!;
    const candidates = addedByText.get(before.question);
    const match = candidates?.shift();
    if (match === undefined) continue;
    out.push({
      removed_id: id,
      added_id: match,
      question: before.question,
      type_changed: qb.get(match)!.type !== before.type,
    });
  }
  return out;
}

function diffSplit(split: SplitName, a: SplitSide | undefined, b: SplitSide | undefined): SplitDiff {
  const empty: SplitSide = { questions: [] };
  const sa = a ?? empty;
  const sb = b ?? empty;
  const notes: string[] = [];
  let comparable = true;
  for (const [name, side] of [
    ['A', a],
    ['B', b],
  ] as const) {
    if (!side) notes.push(`release ${name} has no ${split} split`);
    else if (side.questions.length === 0 && side.pin) {
      comparable = false;
      notes.push(`release ${name} pins ${split} but has no questions file: its tasks cannot be listed`);
    }
  }
  const samePin = sa.pin !== undefined && sa.pin === sb.pin;
  if (!comparable) {
    return {
      split,
      n_a: sa.nTasks ?? sa.questions.length,
      n_b: sb.nTasks ?? sb.questions.length,
      ...(sa.pin ? { pin_a: sa.pin } : {}),
      ...(sb.pin ? { pin_b: sb.pin } : {}),
      same_questions: samePin,
      comparable,
      added: [],
      removed: [],
      kept: [],
      changed: [],
      unchanged: [],
      key_compared: 0,
      reidentified: [],
      near_matches: [],
      notes,
    };
  }
  const qa = byId(sa.questions);
  const qb = byId(sb.questions);
  const ka = byId(sa.key?.rows ?? []);
  const kb = byId(sb.key?.rows ?? []);
  const removed = sa.questions.filter((q) => !qb.has(q.task_id)).map((q) => q.task_id);
  const added = sb.questions.filter((q) => !qa.has(q.task_id)).map((q) => q.task_id);
  const kept = sb.questions.filter((q) => qa.has(q.task_id)).map((q) => q.task_id);
  const changed: ChangedTask[] = [];
  const unchanged: string[] = [];
  let keyCompared = 0;
  for (const id of kept) {
    const before = qa.get(id)!;
    const after = qb.get(id)!;
    const changes: KeptChange[] = [];
    if (before.question !== after.question) changes.push('question');
    if (before.type !== after.type) changes.push('type');
    const keyA = ka.get(id);
    const keyB = kb.get(id);
    if (keyA && keyB) {
      keyCompared++;
      changes.push(...keyChanges(keyA, keyB));
    }
    if (changes.length === 0) unchanged.push(id);
    else
      changed.push({
        task_id: id,
        changes,
        before: { type: before.type, question: before.question },
        after: { type: after.type, question: after.question },
      });
  }
  for (const [name, side] of [
    ['A', sa],
    ['B', sb],
  ] as const)
    if (!side.key) notes.push(`release ${name} publishes no ${split} answer key: answers and gold sets not compared`);
    else if (side.key.issues.count > 0)
      notes.push(
        `release ${name}'s ${split} answer key has ${side.key.issues.count} unreadable line(s): ${side.key.issues.items[0]!.message}`,
      );
  if (sa.key && sb.key && keyCompared < kept.length)
    notes.push(
      `answer keys compared on ${keyCompared} of ${kept.length} kept tasks (the others lack a readable key row)`,
    );
  const reidentified = reidentify(removed, added, sa, sb);
  const paired = new Set(reidentified.flatMap((r) => [r.removed_id, r.added_id]));
  const near = nearMatches(
    removed.filter((id) => !paired.has(id)).map((id) => qa.get(id)!),
    added.filter((id) => !paired.has(id)).map((id) => qb.get(id)!),
  );
  const diff: SplitDiff = {
    split,
    n_a: sa.questions.length,
    n_b: sb.questions.length,
    same_questions: samePin || (sa.questionsSha256 !== undefined && sa.questionsSha256 === sb.questionsSha256),
    comparable,
    added,
    removed,
    kept,
    changed,
    unchanged,
    key_compared: keyCompared,
    reidentified,
    near_matches: near,
    notes,
  };
  if (sa.pin) diff.pin_a = sa.pin;
  if (sb.pin) diff.pin_b = sb.pin;
  return diff;
}

function contentsDiffer(splits: readonly SplitDiff[]): boolean {
  return splits.some((s) => s.pin_a !== s.pin_b || (!s.same_questions && (s.n_a > 0 || s.n_b > 0)));
}

export function diffReleases(a: DiffSide, b: DiffSide): ReleaseDiff {
  const splits = SPLITS.filter((s) => a.splits[s] || b.splits[s]).map((s) => diffSplit(s, a.splits[s], b.splits[s]));
  const diff: ReleaseDiff = {
    a: { label: a.label, ...(a.version !== undefined ? { version: a.version } : {}) },
    b: { label: b.label, ...(b.version !== undefined ? { version: b.version } : {}) },
    splits,
  };
  if (a.version !== undefined && a.version === b.version && contentsDiffer(splits))
    diff.same_label_warning =
      `Both releases are labelled "${a.version}" but their contents differ: ` +
      'scores made against one are not comparable with scores made against the other.';
  return diff;
}
