import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.ts';
import type { AuditReport } from '../../../src/core/audit/report.ts';
import { emptyLabels, labelsJsonl, SPOT_FORMAT, type SpotLabel } from '../../../src/core/audit/spot-check/labels.ts';
import { HAND_CORPUS, HAND_DOCS, HAND_TASKS, writeHandRelease } from '../../fixtures/audit/hand-release.ts';
import { startMockHub, tally, type MockHub } from '../../support/mock-hub.ts';
import { corpuslessSample, makeSourceShards, readSampleDocs } from '../../support/source-shards.ts';
import { cardLines, sampleTasks } from '../../support/card-rule.ts';
import { hasShared, sharedNote, v10Dir as releaseDir } from '../../support/shared.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ebx-audit-out-'));

async function audit(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await cli(['audit', ...args]);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as AuditReport;

describe('audit on a hand-built release whose figures are known', () => {
  let folder: string;
  let report: AuditReport;
  let out: string;
  beforeAll(async () => {
    folder = await writeHandRelease();
    const r = await audit(folder, '--out', path.join(tmp, 'hand.json'));
    expect(r.code).toBe(0);
    out = r.out;
    report = readReport(path.join(tmp, 'hand.json'));
  }, 60_000);

  it('prints the grounding share per type as the card does', () => {
    expect(out).toContain('documents: 4 of 4 gold and item documents read (docs.jsonl)');
    expect(out).toContain('  single_hop 66.7% (2/3)');
    expect(out).toContain('  timeline 100.0% (1/1)');
    expect(out).toContain('  aggregation 50.0% (1/2 items)');
    expect(report.grounding.tasks).toEqual({ checked: 5, grounded: 3, not_grounded: 2, unread: 0, no_gold: 1 });
    expect(report.grounding.failures.map((f) => f.task_id)).toEqual([HAND_TASKS[2]!.task_id, HAND_TASKS[4]!.task_id]);
    expect(report.grounding.failures[0]!.claims[0]).toMatchObject({ best_doc: HAND_DOCS.D3, best_overlap: 0.5 });
  });

  it('counts the evidence past the 2,500-character excerpt', () => {
    expect(report.cutoff).toMatchObject({ excerptChars: 2500, tasksFlagged: 1, tasksAllPast: 1, pastPairs: 1 });
    // 200 x "Docket entry. " (14 characters) then "Assigned to ": the name starts at 2,812
    expect(report.cutoff.flagged[0]).toEqual({
      task_id: HAND_TASKS[1]!.task_id,
      type: 'single_hop',
      none_inside: true,
      docs: [{ doc_id: HAND_DOCS.D2, item: null, start: 2812, chars: 2835 }],
    });
    expect(out).toContain('1 tasks with evidence past the cut-off in a gold document');
  });

  it('gives the pool bias of each submission, with the judge cache the release ships', () => {
    const [a, b] = report.pool_bias;
    expect(a).toMatchObject({
      slug: 'sys-a',
      tasks: 5,
      outsidePairs: 2,
      tasksWithOutside: 2,
      outsideDocs: 1,
      tasksGateAllOutside: 1,
      judge: { covered: 5, notCached: 0, judgeErrors: 0, correctGateZero: 1, correctWithoutGold: 1 },
    });
    expect(a!.rows.filter((r) => r.correct_without_gold).map((r) => [r.task_id, r.outside])).toEqual([
      [HAND_TASKS[0]!.task_id, [HAND_DOCS.X1]],
    ]);
    expect(b).toMatchObject({ slug: 'sys-b', outsidePairs: 0, judge: { correctGateZero: 0 } });
    expect(out).toContain('sys-a: 2 cited documents outside the gold set on 2 of 5 tasks (1 distinct)');
  });

  it('adds spot-check figures from a labels file, leaving out other releases', async () => {
    const label = (task: number, reviewer: string, answer: 'yes' | 'no', release = 'hand'): SpotLabel => ({
      format: SPOT_FORMAT,
      release_id: release,
      dataset_version: 'v-hand',
      split: 'full',
      task_id: HAND_TASKS[task]!.task_id,
      type: HAND_TASKS[task]!.type,
      reviewer,
      sample: { seed: 1, size: 5 },
      labels: { ...emptyLabels(), answer_right: answer },
      judge: null,
      note: '',
      labelled_at: '2026-01-01T00:00:00Z',
    });
    const file = path.join(tmp, 'labels.jsonl');
    writeFileSync(
      file,
      labelsJsonl([
        label(0, 'ann', 'yes'),
        label(1, 'ann', 'no'),
        label(0, 'bob', 'yes'),
        label(1, 'bob', 'no'),
        label(2, 'zed', 'no', 'other'),
      ]),
    );
    const r = await audit(folder, '--labels', file, '--out', path.join(tmp, 'labels.json'));
    expect(r.code).toBe(0);
    const s = readReport(path.join(tmp, 'labels.json')).spot_check!;
    expect(s.questions.find((q) => q.question === 'answer_right')).toMatchObject({ answered: 2, errors: 1, rate: 0.5 });
    expect(s.reviewerKappa).toEqual([{ a: 'ann', b: 'bob', question: 'answer_right', n: 2, kappa: 1 }]);
    // one verdict per task (two reviewers of two tasks are two tasks, not four)
    expect(r.out).toMatch(/answer_right: error rate 50\.0% \(1\/2\) \[9\.5%, 90\.5%\]/);
    expect(r.out).toContain('agreement answer_right: 100.0% of 2 reviewer pairs agree; 0 of 2 tasks split');
    expect(r.out).toContain('1 label(s) in');
  }, 60_000);
});

describe('audit of a release without corpus text, documents read from a mock Hugging Face Hub', () => {
  let hub: MockHub;
  beforeAll(async () => {
    const docs = HAND_CORPUS.map((d) => ({ doc_id: d.doc_id, text: d.text, ...d.meta }));
    const shards = makeSourceShards(docs, { shards: 2, rowGroupSize: 2 });
    hub = await startMockHub({ files: shards.files, mediaRanges: shards.mediaRanges });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('finds the same figures as from the corpus file, and says where the text came from', async () => {
    const folder = await writeHandRelease(false);
    const without = await audit(folder);
    expect(without.code).toBe(0);
    expect(without.out).toContain('documents: 0 of 4 gold and item documents read (no corpus text in this release)');
    expect(without.out).toContain('  single_hop n/a (0/0)  [3 not read]');

    const r = await audit(folder, '--source-docs', '--hf-endpoint', hub.endpoint, '--no-cache');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /documents: 4 of 4 gold and item documents read \(no corpus text in this release, then the Hugging Face source aurora2424\/Epstein-Files at main \(127\.0\.0\.1:\d+\)\)/,
    );
    expect(r.out).toContain('  single_hop 66.7% (2/3)');
    expect(r.out).toContain('  timeline 100.0% (1/1)');
    expect(r.out).toContain('1 tasks with evidence past the cut-off in a gold document');
    expect(r.out).toMatch(/source documents: \d+ requests, [\d.]+ MB; cache none\n/);
    expect(tally(hub.log).mediaBytes).toBe(0);
  }, 120_000);

  it('stops asking a source it cannot reach, and still exits 0', async () => {
    const folder = await writeHandRelease(false);
    const r = await audit(folder, '--source-docs', '--hf-endpoint', 'http://127.0.0.1:9', '--no-cache');
    expect(r.code).toBe(0);
    expect(r.out).toContain('documents: 0 of 4 gold and item documents read');
    expect(r.out).toMatch(/4 could not be read \(first: HAND\d{8}: could not reach 127\.0\.0\.1:9/);
    expect((await audit(folder, '--hf-endpoint', hub.endpoint)).code).toBe(2);
  }, 120_000);
});

describe('audit --source hf of the corpus-less sample over a mock Hub', () => {
  let hub: MockHub;
  let texts: Map<string, string>;
  beforeAll(async () => {
    const docs = await readSampleDocs();
    texts = new Map(docs.map((d) => [d.doc_id, d.text]));
    const shards = makeSourceShards(docs);
    hub = await startMockHub({ files: shards.files, mediaRanges: shards.mediaRanges });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('counts exactly what the card’s rule, computed independently, counts on the text read; a second run reads from the cache', async () => {
    const folder = corpuslessSample();
    const cache = mkdtempSync(path.join(os.tmpdir(), 'ebx-audit-cache-'));
    const r = await audit(folder, '--source', 'hf', '--hf-endpoint', hub.endpoint, '--cache', cache);
    expect(r.code).toBe(0);
    const expected = cardLines(sampleTasks(), texts);
    expect(r.out).toContain(`  ${expected.single_hop}`);
    expect(r.out).toContain(`  ${expected.timeline}`);
    expect(r.out).toMatch(/documents: (\d+) of \1 gold and item documents read/);
    expect(tally(hub.log).mediaBytes).toBe(0);
    // The texts are kept: the same audit again asks the source nothing.
    const from = hub.log.length;
    const again = await audit(folder, '--source', 'hf', '--hf-endpoint', hub.endpoint, '--cache', cache);
    expect(again.out).toContain(`  ${expected.single_hop}`);
    expect(again.out).toMatch(/source documents: 0 requests/);
    expect(hub.log.length).toBe(from);
    expect((await audit(folder, '--source', 'web')).code).toBe(2);
  }, 120_000);
});

describe('audit exit codes', () => {
  it('exits 2 on wrong usage', async () => {
    expect((await audit()).code).toBe(2);
    expect((await audit('/nonexistent-folder')).code).toBe(2);
    expect((await audit('static-data/sample', '--split', 'test')).code).toBe(2);
    expect((await audit('static-data/sample', '--submissions')).code).toBe(2);
  }, 60_000);

  it('exits 1 with a clear message on unreadable inputs', async () => {
    const missing = await audit('static-data/sample', '--labels', '/nonexistent/labels.jsonl');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('audit: cannot read labels file /nonexistent/labels.jsonl: ENOENT');
    const bad = path.join(tmp, 'bad.jsonl');
    writeFileSync(bad, '{"format": "epstein-bench-spotcheck/1"}\n');
    const invalid = await audit('static-data/sample', '--labels', bad);
    expect(invalid.code).toBe(1);
    expect(invalid.err).toContain('bad.jsonl line 1: expected release_id to be a non-empty string');
    const notRelease = await audit(tmp);
    expect(notRelease.code).toBe(1);
    expect(notRelease.err).toMatch(/no release/);
  }, 60_000);
});

describe('audit on the sample release', () => {
  it('prints the grounding share per type, the cut-off count and the pool bias of the three submissions', async () => {
    const r = await audit('static-data/sample', '--out', path.join(tmp, 'sample.json'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('documents: 317 of 317 gold and item documents read (docs.parquet)');
    for (const line of [
      'single_hop 100.0% (90/90)',
      'aggregation 100.0% (78/78 items)',
      'dossier 100.0% (30/30 items)',
      'timeline 20.0% (2/10)',
      '6 tasks with evidence past the cut-off in a gold document (15 of 360 document-claim pairs)',
      'bm25-top-doc-sample: 15 cited documents outside the gold set on 15 of 125 tasks (15 distinct); gate citing only non-gold documents on 15 tasks',
      'judged correct with cited score 0: 4, of which citing outside the gold set: 4',
      'closed-book-sample-control: 0 cited documents outside the gold set on 0 of 125 tasks',
      'always-refuse-sample-control: 0 cited documents outside the gold set on 0 of 125 tasks',
    ])
      expect(r.out).toContain(line);
    expect(r.out.split('\n').filter((l) => /^ {2}(single_hop|timeline|aggregation|dossier) /.test(l))).toEqual([
      '  single_hop 100.0% (90/90)  [83 verbatim]',
      '  timeline 20.0% (2/10)  [0 verbatim]',
      '  aggregation 100.0% (78/78 items)  [0 verbatim]',
      '  dossier 100.0% (30/30 items)  [0 verbatim]',
    ]);
    const report = readReport(path.join(tmp, 'sample.json'));
    expect(report.pool_bias.map((b) => b.slug)).toEqual([
      'bm25-top-doc-sample',
      'closed-book-sample-control',
      'always-refuse-sample-control',
    ]);
    expect(report.rules.grounding).toContain('at least 60%');
  }, 60_000);
});

describe.skipIf(!hasShared)(`audit on v1.0 (${sharedNote})`, () => {
  it('runs over zero documents and says so; pool bias needs no text', async () => {
    const r = await audit(releaseDir, '--out', path.join(tmp, 'v10.json'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('documents: 0 of 4580 gold and item documents read (no corpus text in this release)');
    const report = readReport(path.join(tmp, 'v10.json'));
    expect(report.grounding.tasks).toMatchObject({ checked: 0, unread: 968 });
    expect(report.grounding.per_type.find((t) => t.type === 'single_hop')).toMatchObject({ checked: 0, unread: 823 });
    // the counts a short Python script over tasks.jsonl and predictions.jsonl gives (gold = gold_docs and item doc_ids)
    expect(report.pool_bias[0]).toMatchObject({
      slug: 'bm25-reference',
      tasks: 968,
      outsidePairs: 764,
      tasksWithOutside: 435,
      outsideDocs: 694,
      tasksGateAllOutside: 233,
      judge: null,
    });
    expect(r.out).toContain(
      'bm25-reference: 764 cited documents outside the gold set on 435 of 968 tasks (694 distinct); gate citing only non-gold documents on 233 tasks',
    );
    expect(r.out.split('\n').filter((l) => /^ {2}\w+ n\/a/.test(l))).toEqual([
      '  single_hop n/a (0/0)  [823 not read]  (the card: single_hop 99.0% (815/823))',
      '  timeline n/a (0/0)  [27 not read]  (the card: timeline 96.3% (26/27))',
      '  aggregation n/a (0/0 items)  [306 not read]',
      '  dossier n/a (0/0 items)  [22 not read]',
    ]);
  }, 60_000);

  it('audits a submission against its own split, and says which', async () => {
    const r = await audit(releaseDir, '--split', 'dev');
    expect(r.code).toBe(0);
    expect(r.out).toContain('split dev');
    expect(r.out).toContain(
      'bm25-reference (split full): 764 cited documents outside the gold set on 435 of 968 tasks',
    );
  }, 60_000);
});
