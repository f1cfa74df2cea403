import { describe, expect, it } from 'vitest';
import { labelsJsonl, mergeImport, parseLabelsJsonl } from '../../../../src/core/audit/spot-check/labels.ts';
import { allocate, stratifiedSample, type SampleTask } from '../../../../src/core/audit/spot-check/sample.ts';
import { cohenKappa, spotCheckStats, wilson } from '../../../../src/core/audit/spot-check/stats.ts';
import { spotLabel } from './spot-label.ts';
import type { TaskType } from '../../../../src/core/release/types.ts';

const pool = (counts: Array<[TaskType, number]>): SampleTask[] =>
  counts.flatMap(([type, n]) => Array.from({ length: n }, (_, i) => ({ task_id: `${type}-${i}`, type })));

describe('stratified sample', () => {
  it('allocates in proportion, at least one per type, remainders to the largest fractions', () => {
    const counts: Array<[TaskType, number]> = [
      ['single_hop', 823],
      ['aggregation', 111],
      ['timeline', 27],
      ['dossier', 7],
      ['unanswerable', 32],
      ['false_premise', 38],
    ];
    const a = allocate(counts, 100);
    expect([...a.values()].reduce((s, n) => s + n, 0)).toBe(100);
    // quotas 79.29, 10.69, 2.60, 0.67, 3.08, 3.66: floors 79+10+2+0+3+3 = 97, dossier raised to 1,
    // then the two largest remainders (aggregation .69, false_premise .66) get one more
    expect(Object.fromEntries(a)).toEqual({
      single_hop: 79,
      aggregation: 11,
      timeline: 2,
      dossier: 1,
      unanswerable: 3,
      false_premise: 4,
    });
    expect(Object.fromEntries(allocate(counts, 3))).toEqual({
      single_hop: 3,
      aggregation: 0,
      timeline: 0,
      dossier: 0,
      unanswerable: 0,
      false_premise: 0,
    });
  });

  it('never asks a type for more than it has, and caps the size at the pool', () => {
    const a = allocate(
      [
        ['single_hop', 2],
        ['dossier', 50],
      ],
      40,
    );
    expect(Object.fromEntries(a)).toEqual({ single_hop: 2, dossier: 38 });
    expect([...allocate([['timeline', 4]], 10).values()]).toEqual([4]);
  });

  it('is the same for the same seed and differs for another', () => {
    const tasks = pool([
      ['single_hop', 90],
      ['aggregation', 20],
      ['dossier', 5],
      ['timeline', 10],
      ['unanswerable', 10],
      ['false_premise', 15],
    ]);
    const a = stratifiedSample(tasks, 20, 20260705);
    expect(stratifiedSample(tasks, 20, 20260705)).toEqual(a);
    expect(stratifiedSample(tasks, 20, 1).map((t) => t.task_id)).not.toEqual(a.map((t) => t.task_id));
    expect(new Set(a.map((t) => t.task_id)).size).toBe(20);
    const perType = Object.fromEntries(
      allocate(
        [...new Map(tasks.map((t) => [t.type, 0]))].map(
          ([t]) => [t, tasks.filter((x) => x.type === t).length] as [TaskType, number],
        ),
        20,
      ),
    );
    for (const [type, n] of Object.entries(perType)) expect(a.filter((t) => t.type === type)).toHaveLength(n);
  });
});

describe('statistics', () => {
  it('gives the Wilson 95% interval (values from Python)', () => {
    expect(wilson(2, 10)![0]).toBeCloseTo(0.05668215145437522, 14);
    expect(wilson(2, 10)![1]).toBeCloseTo(0.5098375284633582, 14);
    expect(wilson(0, 5)).toEqual([0, expect.closeTo(0.43448246478317476, 14)]);
    expect(wilson(5, 5)![1]).toBe(1);
    expect(wilson(0, 0)).toBeNull();
  });

  it("gives Cohen's kappa (the textbook 20/5/10/15 table is 0.4), undefined for one category", () => {
    const pairs: Array<[string, string]> = [
      ...Array.from({ length: 20 }, (): [string, string] => ['yes', 'yes']),
      ...Array.from({ length: 5 }, (): [string, string] => ['yes', 'no']),
      ...Array.from({ length: 10 }, (): [string, string] => ['no', 'yes']),
      ...Array.from({ length: 15 }, (): [string, string] => ['no', 'no']),
    ];
    expect(cohenKappa(pairs)).toBeCloseTo(0.4, 12);
    expect(cohenKappa([['a', 'a'] as const, ['a', 'a'] as const])).toBeNull();
    expect(cohenKappa([])).toBeNull();
  });
});

const label = spotLabel;

describe('labels', () => {
  const set = [
    label(
      't1',
      'ann',
      { standalone: 'yes', answer_right: 'no', docs_support: 'yes', judge_agrees: 'yes' },
      {
        judge: { submission: 's', verdict: 'credit' },
        note: 'gold says 2011, the document says 2012',
      },
    ),
    label(
      't2',
      'ann',
      { standalone: 'no', answer_right: 'yes', docs_support: 'unsure', judge_agrees: 'no' },
      {
        judge: { submission: 's', verdict: 'credit' },
      },
    ),
    label(
      't3',
      'ann',
      { standalone: 'yes', answer_right: 'yes', docs_support: 'na', judge_agrees: 'yes' },
      {
        judge: { submission: 's', verdict: 'no_credit' },
      },
    ),
    label('t1', 'bob', { standalone: 'yes', answer_right: 'yes', docs_support: 'yes' }),
    label('t2', 'bob', { standalone: 'no', answer_right: 'yes', docs_support: 'no' }),
  ];

  it('round-trips through JSONL', () => {
    const text = labelsJsonl(set);
    expect(text.split('\n')).toHaveLength(set.length + 1);
    expect(text.split('\n')[0]).toMatch(
      /^\{"format":"epstein-bench-spotcheck\/1","release_id":"r","dataset_version":"v","split":"full","task_id":"t1"/,
    );
    expect(parseLabelsJsonl(text)).toEqual({ labels: set, issues: [] });
  });

  it('names the line and field of a bad label', () => {
    const lines = labelsJsonl(set.slice(0, 2)).split('\n');
    const bad = [lines[0], '{not json', lines[1]!.replace('"answer_right":"yes"', '"answer_right":"maybe"'), ''].join(
      '\n',
    );
    const { labels, issues } = parseLabelsJsonl(bad, 'x.jsonl');
    expect(labels).toHaveLength(1);
    expect(issues.map((i) => i.line)).toEqual([2, 3]);
    expect(issues[0]!.message).toMatch(/^x\.jsonl line 2: invalid JSON/);
    expect(issues[1]!.message).toBe(
      'x.jsonl line 3: expected labels.answer_right to be one of yes, no, unsure, na or null, found "maybe"',
    );
  });

  it("imports other reviewers' labels, a later import replacing theirs", () => {
    const newer = label('t1', 'bob', { standalone: 'no' }, { labelled_at: '2020-01-01T00:00:00.000Z' });
    const m = mergeImport(set, [newer, set[4]!], 'ann');
    expect(m.labels).toHaveLength(5);
    // bob's label is replaced by the import although it claims an older clock; the unchanged one is not reported
    expect(m.labels.find((l) => l.task_id === 't1' && l.reviewer === 'bob')!.labels.standalone).toBe('no');
    expect(m.changed).toEqual([newer]);
    expect(m.conflicts).toEqual([{ task_id: 't1', reviewer: 'bob', outcome: 'replaced' }]);
  });

  it('reports error rates per task with intervals, and agreement apart', () => {
    const s = spotCheckStats(set);
    expect(s).toMatchObject({ tasks: 3, labels: 5, reviewers: ['ann', 'bob'], reviewerCount: 2 });
    const q = Object.fromEntries(s.questions.map((x) => [x.question, x]));
    // one verdict per task: t1 ann yes + bob yes, t2 both no, t3 ann yes
    expect(q.standalone).toMatchObject({ answered: 3, errors: 1 });
    expect(q.standalone!.wilson).toEqual(wilson(1, 3));
    // t1: ann no, bob yes, a tie, counts as the error
    expect(q.answer_right).toMatchObject({ answered: 3, errors: 1 });
    expect(q.docs_support).toMatchObject({ answered: 2, errors: 1 }); // unsure and n/a left out
    expect(q.judge_agrees).toMatchObject({ answered: 3, errors: 1 });
    const a = Object.fromEntries(s.agreement.map((x) => [x.question, x]));
    expect(a.standalone).toEqual({ question: 'standalone', tasks: 2, split: 0, pairs: 2, agreeingPairs: 2 });
    expect(a.answer_right).toEqual({ question: 'answer_right', tasks: 2, split: 1, pairs: 2, agreeingPairs: 1 });
    // judge credit/credit/no_credit, reviewer credit/no_credit/no_credit
    expect(s.judgeKappa).toEqual({ n: 3, agree: 2, kappa: expect.closeTo(0.4, 12) });
    const standalone = s.reviewerKappa.find((k) => k.question === 'standalone')!;
    expect(standalone).toMatchObject({ a: 'ann', b: 'bob', n: 2, kappa: 1 });
    expect(s.reviewerKappa.find((k) => k.question === 'answer_right')).toMatchObject({ n: 2, kappa: 0 });
  });

  it('counts tasks, not label sets: two reviewers of the same three tasks give 0/3, not 0/6', () => {
    const both = ['t1', 't2', 't3'].flatMap((t) =>
      ['ann', 'bob'].map((r) => label(t, r, { standalone: 'yes', answer_right: 'yes' })),
    );
    const q = spotCheckStats(both).questions[0]!;
    expect(q).toMatchObject({ answered: 3, errors: 0 });
    expect(q.wilson).toEqual(wilson(0, 3));
  });
});
