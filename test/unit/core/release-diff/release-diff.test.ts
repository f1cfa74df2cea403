/**
 * Release diff: the builds of ../shared/epstein-bench-history/ against each other and today's
 * v1.0, counted independently here (plain JSON and sets over the questions files), and a
 * hand-made edit of the sample release whose every change is known.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import { diffReleases } from '../../../../src/core/release-diff/diff.ts';
import { filterPredictions, sharedTasks } from '../../../../src/core/release-diff/shared-tasks.ts';
import { diffSide } from '../../../../src/core/release-diff/side.ts';
import { writePinnedRelease } from '../../../support/pinned-release.ts';
import { hasShared, projectRoot, sharedDir, sharedNote, v10Dir } from '../../../support/shared.ts';

const historyDir = path.join(sharedDir, 'epstein-bench-history');
const hasHistory = hasShared && existsSync(historyDir);
const historyNote = hasHistory ? sharedNote : `SKIPPED: ${historyDir} absent`;

const builds: Record<string, string> = {
  e876cf49: path.join(historyDir, 'e876cf49/dataset/v1.0'),
  '89f21ff8': path.join(historyDir, '89f21ff8/dataset/v1.0'),
  e21acec3: path.join(historyDir, 'e21acec3/dataset/v1.0'),
  a84d9fdc: path.join(historyDir, 'a84d9fdc/dataset/v1.1'),
  current: v10Dir,
};

interface Q {
  task_id: string;
  question: string;
}

function questionsOf(folder: string, split: string): Q[] | undefined {
  const file = path.join(folder, split, 'questions.jsonl');
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Q);
}

/** The counts, by hand: set differences of ids, and removed/added pairs with equal question text. */
function independentCounts(a: Q[], b: Q[]) {
  const idsA = new Set(a.map((q) => q.task_id));
  const idsB = new Set(b.map((q) => q.task_id));
  const removed = a.filter((q) => !idsB.has(q.task_id));
  const added = b.filter((q) => !idsA.has(q.task_id));
  const textCount = (qs: Q[]) => {
    const m = new Map<string, number>();
    for (const q of qs) m.set(q.question, (m.get(q.question) ?? 0) + 1);
    return m;
  };
  const removedTexts = textCount(removed);
  const addedTexts = textCount(added);
  let reidentified = 0;
  for (const [text, n] of removedTexts) reidentified += Math.min(n, addedTexts.get(text) ?? 0);
  return {
    added: added.length,
    removed: removed.length,
    kept: b.filter((q) => idsA.has(q.task_id)).length,
    reidentified,
  };
}

const pairs: [string, string][] = [
  ['e876cf49', '89f21ff8'],
  ['89f21ff8', 'e21acec3'],
  ['e21acec3', 'current'],
  ['a84d9fdc', 'current'],
  ['e21acec3', 'a84d9fdc'],
  ['e876cf49', 'current'],
];

describe.skipIf(!hasHistory)(`release-diff over the published builds (${historyNote})`, () => {
  for (const [from, to] of pairs) {
    it(`${from} -> ${to}: counts per split equal an independent count`, async () => {
      const a = await diffSide(new FolderSource(builds[from]!));
      const b = await diffSide(new FolderSource(builds[to]!));
      const diff = diffReleases(a, b);
      for (const split of ['full', 'dev'] as const) {
        const qa = questionsOf(builds[from]!, split);
        const qb = questionsOf(builds[to]!, split);
        const s = diff.splits.find((x) => x.split === split)!;
        if (!qa || !qb) {
          // a side with only a pin: nothing listed, said so
          expect(s.comparable).toBe(false);
          expect(s.added.length + s.removed.length + s.kept.length).toBe(0);
          expect(s.notes.join(' ')).toMatch(/pins dev but has no questions file/);
          continue;
        }
        const expected = independentCounts(qa, qb);
        expect({
          added: s.added.length,
          removed: s.removed.length,
          kept: s.kept.length,
          reidentified: s.reidentified.length,
        }).toEqual(expected);
        expect(s.n_a).toBe(qa.length);
        expect(s.n_b).toBe(qb.length);
      }
      const sameLabel = a.version === b.version;
      expect(diff.same_label_warning !== undefined).toBe(sameLabel);
      if (sameLabel)
        expect(diff.same_label_warning).toMatch(/both releases are labelled "v1\.0" but their contents differ/i);
    });
  }

  it('knows the history as the README of the history folder tells it (e21acec3 -> today: 38 full and 6 dev tasks added, none removed)', async () => {
    const diff = diffReleases(
      await diffSide(new FolderSource(builds.e21acec3!)),
      await diffSide(new FolderSource(builds.current!)),
    );
    const full = diff.splits.find((s) => s.split === 'full')!;
    const dev = diff.splits.find((s) => s.split === 'dev')!;
    expect([full.added.length, full.removed.length, full.kept.length]).toEqual([38, 0, 1000]);
    expect([dev.added.length, dev.removed.length, dev.kept.length]).toEqual([6, 0, 44]);
    // both publish the dev answer key: all 44 kept dev tasks were compared
    expect(dev.key_compared).toBe(44);
    // the full answer key of e21acec3 was never published
    expect(full.key_compared).toBe(0);
    expect(full.notes.join(' ')).toMatch(/release A publishes no full answer key/);
  });

  it("reads the older answer keys that today's schema refuses (no provenance.salience), line by line", async () => {
    const side = await diffSide(new FolderSource(builds['89f21ff8']!));
    const lines = readFileSync(path.join(builds['89f21ff8']!, 'dev/tasks.jsonl'), 'utf8').trim().split('\n');
    expect(side.splits.dev!.key!.rows.length).toBe(lines.length);
    expect(side.splits.dev!.key!.issues.count).toBe(0);
  });

  it('v1.1 and the second v1.0 share their pins: same contents, different labels, no warning', async () => {
    const diff = diffReleases(
      await diffSide(new FolderSource(builds.e21acec3!)),
      await diffSide(new FolderSource(builds.a84d9fdc!)),
    );
    expect(diff.same_label_warning).toBeUndefined();
    expect(diff.splits.every((s) => s.same_questions)).toBe(true);
  });
});

interface TaskLine {
  task_id: string;
  type: string;
  question: string;
  answer: string | null;
  gold_docs: string[];
  [key: string]: unknown;
}

describe('release-diff on a hand-made edit of the sample release', () => {
  const original = readFileSync(path.join(projectRoot, 'static-data/sample/full/tasks.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as TaskLine);
  const singleHop = original.filter((t) => t.type === 'single_hop' && t.gold_docs.length > 0);
  const [answered, regolded, reworded, renamed, nearly, dropped] = singleHop;
  const edited: TaskLine[] = [];
  const newIds = { renamed: randomUUID(), nearly: randomUUID(), fresh: randomUUID() };
  for (const t of original) {
    if (t === answered) edited.push({ ...t, answer: `${t.answer} (corrected)` });
    else if (t === regolded) edited.push({ ...t, gold_docs: [...t.gold_docs.slice(1), 'ZZZZ99999999'] });
    else if (t === reworded) edited.push({ ...t, question: `${t.question} Answer briefly.` });
    else if (t === renamed) edited.push({ ...t, task_id: newIds.renamed });
    else if (t === nearly)
      edited.push({ ...t, task_id: newIds.nearly, question: t.question.replace(/\?$/, ', according to the records?') });
    else if (t === dropped) continue;
    else edited.push(t);
  }
  edited.push({ ...original[0]!, task_id: newIds.fresh, question: 'Which quarry shipped granite to Port Velden?' });
  const a = writePinnedRelease(original, 'v9');
  const b = writePinnedRelease(edited, 'v9');

  it('lists each change where it was made', async () => {
    const diff = diffReleases(await diffSide(new FolderSource(a)), await diffSide(new FolderSource(b)));
    const full = diff.splits[0]!;
    expect(new Set(full.removed)).toEqual(new Set([renamed!.task_id, nearly!.task_id, dropped!.task_id]));
    expect(new Set(full.added)).toEqual(new Set(Object.values(newIds)));
    expect(full.kept.length).toBe(original.length - 3);
    const changes = Object.fromEntries(full.changed.map((c) => [c.task_id, c.changes]));
    expect(changes).toEqual({
      [answered!.task_id]: ['answer'],
      [regolded!.task_id]: ['gold_docs'],
      [reworded!.task_id]: ['question'],
    });
    expect(full.unchanged.length).toBe(original.length - 6);
    expect(full.reidentified).toEqual([
      { removed_id: renamed!.task_id, added_id: newIds.renamed, question: renamed!.question, type_changed: false },
    ]);
    expect(full.near_matches.map((m) => [m.removed_id, m.added_id])).toEqual([[nearly!.task_id, newIds.nearly]]);
    expect(diff.same_label_warning).toMatch(/labelled "v9" but their contents differ/);
  });

  it('no warning when the same label holds the same contents', async () => {
    const diff = diffReleases(await diffSide(new FolderSource(a)), await diffSide(new FolderSource(a)));
    expect(diff.same_label_warning).toBeUndefined();
    expect(diff.splits[0]!.unchanged.length).toBe(original.length);
  });

  it('writes the shared answer key line for line and cuts predictions to it', async () => {
    const sa = await diffSide(new FolderSource(a));
    const sb = await diffSide(new FolderSource(b));
    const shared = sharedTasks(diffReleases(sa, sb), sa, sb, 'full');
    const bLines = readFileSync(path.join(b, 'full/tasks.jsonl'), 'utf8').split('\n');
    const written = shared.tasksJsonl!.trim().split('\n');
    expect(written.length).toBe(original.length - 6);
    expect(written.every((l) => bLines.includes(l))).toBe(true);
    expect(written.some((l) => l.includes(answered!.task_id))).toBe(false);
    const predictions =
      original.map((t) => JSON.stringify({ task_id: t.task_id, answer: null }) + '\n').join('') + 'not json\n';
    const cut = filterPredictions(predictions, new Set(shared.ids));
    expect([cut.kept, cut.dropped, cut.unreadable]).toEqual([original.length - 6, 6, [original.length + 1]]);
  });
});
