import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditService } from '../../../../src/core/audit/service.ts';
import type { SourceBatchRead } from '../../../../src/core/audit/source-provider.ts';
import type { SourceSpec } from '../../../../src/core/release/source-spec.ts';
import { parsePredictions } from '../../../../src/core/scoring/predictions.ts';
import { parseTasksJsonl } from '../../../../src/core/scoring/scoring-inputs.ts';
import { keyBuiltPredictions } from '../../../support/key-built.ts';
import { projectRoot } from '../../../support/shared.ts';
import { HAND_CORPUS, HAND_DOCS, HAND_TASKS, writeHandRelease } from '../../../fixtures/audit/hand-release.ts';

function filesSpec(root: string): SourceSpec {
  const files: Array<{ path: string; file: Blob }> = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(root, rel))) {
      const child = rel ? `${rel}/${name}` : name;
      if (statSync(path.join(root, child)).isDirectory()) walk(child);
      else files.push({ path: `hand/${child}`, file: new Blob([readFileSync(path.join(root, child))]) });
    }
  };
  walk('');
  return { kind: 'files', label: 'hand', files };
}

describe('the audit worker engine', () => {
  it('opens a release, runs the audits once per split and lists their rows', async () => {
    const service = new AuditService({ here: 'http://localhost/' });
    const info = await service.open(filesSpec(await writeHandRelease()));
    expect(info).toMatchObject({
      releaseId: 'hand',
      datasetVersion: 'v-hand',
      docsSource: 'docs.jsonl',
      hasProfile: true,
    });
    expect(info.submissions.map((s) => s.slug)).toEqual(['sys-a', 'sys-b']);
    const progress: number[] = [];
    const o = await service.overview('full', (d) => progress.push(d));
    expect(o.byType.map((t) => t.line)).toEqual([
      'single_hop 66.7% (2/3)',
      'timeline 100.0% (1/1)',
      'aggregation 50.0% (1/2 items)',
    ]);
    expect(progress.at(-1)).toBe(4);
    const rows = await service.grounding('full');
    const failing = rows.find((r) => r.task_id === HAND_TASKS[2]!.task_id)!;
    expect(failing.claims[0]!.best).toMatchObject({
      doc_id: HAND_DOCS.D3,
      match: 'none',
      tokensFound: 2,
      tokensTotal: 4,
    });
    expect(failing.claims[0]!.best!.passageText).toBe('Blue Heron');
    const cut = await service.cutoffs('full');
    expect(cut[0]!.docs[0]).toMatchObject({ doc_id: HAND_DOCS.D2, start: 2812, passageText: 'HON. NOEMI ZELLER-MOSS' });
    expect((await service.poolBiasRows('full', 'sys-a')).map((r) => r.correctWithoutGold)).toEqual([true, false]);
    const absence = await service.absenceTasks('full');
    expect(absence).toHaveLength(1);
    expect(absence[0]!.names).toEqual([]);
  });

  it('draws the same spot-check sample for the same seed, each task with a judged answer when cached', async () => {
    const service = new AuditService({ here: 'http://localhost/' });
    await service.open(filesSpec(await writeHandRelease()));
    const a = await service.spotSample('full', 6, 3);
    expect(a.map((t) => t.task_id).sort()).toEqual(HAND_TASKS.map((t) => t.task_id).sort());
    expect(await service.spotSample('full', 6, 3)).toEqual(a);
    // every task has a cached verdict for at least one submission
    expect(a.every((t) => t.judge !== null)).toBe(true);
    const first = a.find((t) => t.task_id === HAND_TASKS[0]!.task_id)!;
    expect(['sys-a', 'sys-b']).toContain(first.judge!.submission);
    expect(first.judge!.verdict).toBe(first.judge!.submission === 'sys-a' ? 'credit' : 'no_credit');
  });

  it('reads what the release lacks through a remote batch reader, says what failed, and reads the rest after a stop', async () => {
    const service = new AuditService({ here: 'http://localhost/' });
    await service.open(filesSpec(await writeHandRelease(false)));
    expect((await service.overview('full')).documents).toMatchObject({ wanted: 4, read: 0 });
    expect((await service.unread('full')).sort()).toEqual(
      [HAND_DOCS.D1, HAND_DOCS.D2, HAND_DOCS.D3, HAND_DOCS.D4].sort(),
    );
    const texts = new Map(HAND_CORPUS.map((d) => [d.doc_id, d.text]));
    const batch =
      (stopAfter: number): SourceBatchRead =>
      async (ids) => {
        const read = ids.filter((id) => id !== HAND_DOCS.D4).slice(0, stopAfter);
        return {
          ok: true,
          texts: new Map(read.map((id) => [id, texts.get(id)!])),
          missing: [],
          failed: new Map(ids.includes(HAND_DOCS.D4) ? [[HAND_DOCS.D4, 'HTTP 500']] : []),
          cost: { requests: 1, bytes: 1 },
          stopped: read.length < ids.length - 1,
        };
      };
    const stopped = await service.overview('full', undefined, { label: 'remote', readMany: batch(1) });
    expect(stopped.documents).toMatchObject({ wanted: 4, read: 1 });
    expect(stopped.remoteFailures).toMatchObject({ stopped: true, count: 1 });
    const rest = await service.unread('full');
    expect(rest).toHaveLength(3);

    const o = await service.overview('full', undefined, { label: 'remote', readMany: batch(9) });
    expect(o.documents).toMatchObject({ wanted: 4, read: 3, source: 'no corpus text in this release, then remote' });
    expect(o.remoteFailures).toEqual({ count: 1, first: `${HAND_DOCS.D4}: HTTP 500`, gaveUp: false, stopped: false });
    // the lists follow the latest run: the timeline task, whose one document failed, is not decided
    const rows = await service.grounding('full');
    expect(rows.map((r) => r.status)).toEqual(['grounded', 'grounded', 'not_grounded', 'unread', 'not_grounded']);
  });

  it('counts a source it cannot reach once, as given up', async () => {
    const service = new AuditService({ here: 'http://localhost/' });
    await service.open(filesSpec(await writeHandRelease(false)));
    const o = await service.overview('full', undefined, {
      label: 'remote',
      readMany: async () => ({ ok: false, kind: 'network', error: 'could not reach 127.0.0.1:9' }),
    });
    expect(o.documents.read).toBe(0);
    expect(o.remoteFailures).toMatchObject({ count: 4, gaveUp: true, stopped: false });
    expect(o.remoteFailures!.first).toMatch(/could not reach 127\.0\.0\.1:9/);
  });
});

describe('key-reading signals in the audit worker engine (the sample)', () => {
  const sample = path.join(projectRoot, 'static-data/sample');
  const tasks = parseTasksJsonl(readFileSync(path.join(sample, 'full/tasks.jsonl'), 'utf8'), 'tasks.jsonl');
  const bm25Text = readFileSync(path.join(sample, 'submissions/bm25-top-doc-sample/predictions.jsonl'), 'utf8');

  it('flags a predictions file built from the key on every signal beside all three published systems; bm25 on none only the key explains', async () => {
    const service = new AuditService({ here: 'http://localhost/' });
    const root = sample.replace(/\/sample$/, '');
    const files: Array<{ path: string; file: Blob }> = [];
    const walk = (rel: string) => {
      for (const name of readdirSync(path.join(root, rel))) {
        const child = `${rel}/${name}`;
        if (statSync(path.join(root, child)).isDirectory()) walk(child);
        else files.push({ path: child, file: new Blob([readFileSync(path.join(root, child))]) });
      }
    };
    walk('sample');
    const info = await service.open({ kind: 'files', label: 'sample', files });
    const published = info.submissions.filter((s) => s.split === 'full').map((s) => s.slug);
    expect(published).toHaveLength(3);

    const bm25 = parsePredictions(bm25Text, tasks, { mode: 'score' });
    const file = new Blob([keyBuiltPredictions(tasks, bm25)]);
    const key = await service.keySignals('full', { name: 'from-the-key.jsonl', file });
    expect(key.signals.map((s) => s.raised)).toEqual([true, true, true, true]);
    expect(key.published.sort()).toEqual([...published].sort());
    expect(key.unreadLines).toBe(0);
    // every task a figure lists comes with its question, for the links
    for (const s of key.signals)
      for (const id of s.submission.task_ids)
        expect(key.tasks[id]?.question).toBe(tasks.find((t) => t.task_id === id)!.question);

    const plain = await service.keySignals('full', { slug: 'bm25-top-doc-sample' });
    // Nothing only the key explains: no gold cited outside its own retrieved list, no citation set equal to a gold set.
    const plainBy = new Map(plain.signals.map((s) => [s.id, s]));
    for (const id of ['gold_cited_not_retrieved', 'citations_equal_gold_set'] as const) {
      expect(plainBy.get(id)!.raised, id).toBe(false);
      expect(plainBy.get(id)!.submission.task_ids, id).toEqual([]);
    }
    // Its extractive reader copies exact answers from the sample's synthetic documents and its only
    // rivals are the two controls, which get nothing: those two signals are raised, as signals to review.
    expect(plain.raised).toBe(2);
    expect(plain.published).not.toContain('bm25-top-doc-sample');
    await expect(service.keySignals('full', { slug: 'nobody' })).rejects.toThrow(/not a published system/);
    await expect(service.keySignals('full', { name: 'empty.jsonl', file: new Blob(['']) })).rejects.toThrow(
      /no prediction answers a task/,
    );
  });
});
