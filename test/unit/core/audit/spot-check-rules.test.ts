import { describe, expect, it } from 'vitest';
import { afterAnswer, spotKeyAction } from '../../../../src/core/audit/spot-check/keys.ts';
import {
  labelsJsonl,
  mergeImport,
  parseLabelsJsonl,
  putLabel,
  type SpotLabel,
} from '../../../../src/core/audit/spot-check/labels.ts';
import {
  applicable,
  baseLabel,
  firstOpen,
  isComplete,
  prompt,
  stepQuestion,
  type SpotTaskShape,
} from '../../../../src/core/audit/spot-check/questions.ts';
import { spotLabel } from './spot-label.ts';
import { MAX_PAIR_REVIEWERS, spotCheckStats } from '../../../../src/core/audit/spot-check/stats.ts';

const judged: SpotTaskShape = {
  task_id: 't1',
  type: 'single_hop',
  items: null,
  judge: { submission: 'bm25', verdict: 'credit' },
};
const refusal: SpotTaskShape = { task_id: 't2', type: 'unanswerable', items: null, judge: null };
const list: SpotTaskShape = { task_id: 't3', type: 'aggregation', items: [{}], judge: null };

function label(task_id: string, reviewer: string, l: Partial<SpotLabel['labels']>, at?: string): SpotLabel {
  return spotLabel(task_id, reviewer, l, at ? { labelled_at: at } : {});
}

describe('spot-check questions', () => {
  it('asks what applies to the task, worded for its type', () => {
    expect(applicable(refusal, 'docs_support')).toBe(false);
    expect(applicable(refusal, 'judge_agrees')).toBe(false);
    expect(applicable(judged, 'judge_agrees')).toBe(true);
    expect(prompt(refusal, 'answer_right')).toBe('Is it really unanswerable from the corpus?');
    expect(prompt({ ...refusal, type: 'false_premise' }, 'answer_right')).toMatch(/premise really false/);
    expect(prompt(list, 'answer_right')).toBe('Are the gold items right?');
    expect(prompt(judged, 'answer_right')).toBe('Is the gold answer right?');
    expect(prompt(judged, 'judge_agrees')).toBe("Do you agree with the judge's verdict (credit)?");
    expect(prompt(refusal, 'judge_agrees')).toBe('Judge verdict: no cached verdict for this task (n/a)');
    expect(prompt(refusal, 'docs_support')).toBe('Gold documents: none for this type (n/a)');
  });

  it('starts a label with n/a where a question does not apply', () => {
    const l = baseLabel(
      refusal,
      { releaseId: 'r', datasetVersion: 'v', split: 'dev', reviewer: 'ann', seed: 3, size: 9 },
      'now',
    );
    expect(l).toMatchObject({ split: 'dev', reviewer: 'ann', sample: { seed: 3, size: 9 }, labelled_at: 'now' });
    expect(l.labels).toEqual({ standalone: null, answer_right: null, docs_support: 'na', judge_agrees: 'na' });
    expect(isComplete(l)).toBe(false);
    expect(isComplete({ ...l, labels: { ...l.labels, standalone: 'yes', answer_right: 'unsure' } })).toBe(true);
    expect(
      baseLabel(judged, { releaseId: 'r', datasetVersion: 'v', split: 'full', reviewer: 'a', seed: 1, size: 1 }, 'x')
        .judge,
    ).toEqual({
      submission: 'bm25',
      verdict: 'credit',
    });
  });

  it('moves between the questions that apply', () => {
    expect(firstOpen(judged, undefined)).toBe(0);
    expect(firstOpen(judged, label('t1', 'a', { standalone: 'yes', answer_right: 'no' }))).toBe(2);
    expect(firstOpen(refusal, label('t2', 'a', { standalone: 'yes', answer_right: 'no' }))).toBe(0);
    expect(stepQuestion(refusal, 1, 1)).toBeUndefined();
    expect(stepQuestion(judged, 1, 1)).toBe(2);
    expect(stepQuestion(judged, 0, -1)).toBeUndefined();
  });
});

describe('spot-check keys', () => {
  it('maps keys to actions, leaving modified keys to the browser', () => {
    expect(spotKeyAction({ key: 'y' })).toEqual({ kind: 'answer', answer: 'yes' });
    expect(spotKeyAction({ key: 'u' })).toEqual({ kind: 'answer', answer: 'unsure' });
    expect(spotKeyAction({ key: 'n', ctrlKey: true })).toBeUndefined();
    expect(spotKeyAction({ key: 'ArrowUp' })).toEqual({ kind: 'question', dir: -1 });
    expect(spotKeyAction({ key: 'j' })).toEqual({ kind: 'task', dir: 1 });
    expect(spotKeyAction({ key: 'ArrowLeft' })).toEqual({ kind: 'task', dir: -1 });
    expect(spotKeyAction({ key: 'e' })).toEqual({ kind: 'note' });
    expect(spotKeyAction({ key: 'x' })).toBeUndefined();
  });

  it('goes to the next question, after the last to the next task, and stays on the last task', () => {
    expect(afterAnswer(judged, { index: 0, question: 0 }, 'yes', 3)).toEqual({
      place: { index: 0, question: 1 },
      nextTask: false,
    });
    // a refusal's second question is its last
    expect(afterAnswer(refusal, { index: 1, question: 1 }, 'no', 3)).toEqual({
      place: { index: 2, question: 0 },
      nextTask: true,
    });
    expect(afterAnswer(refusal, { index: 2, question: 1 }, 'no', 3)).toEqual({
      place: { index: 2, question: 1 },
      nextTask: false,
    });
    // an answer to a question that does not apply is refused
    expect(afterAnswer(refusal, { index: 0, question: 2 }, 'yes', 3)).toBeUndefined();
  });
});

describe('spot-check merging', () => {
  it("keeps the reviewer's own later answer against an import claiming a time in the future", () => {
    const mine = label('t1', 'ann', { standalone: 'yes' }, '2026-07-06T10:00:00.000Z');
    const attack = parseLabelsJsonl(
      labelsJsonl([label('t1', 'ann', { standalone: 'no' }, '9999-12-31T23:59:59.999Z')]),
    ).labels;
    const m = mergeImport([mine], attack, 'ann');
    expect(m.labels).toEqual([mine]);
    expect(m.changed).toEqual([]);
    expect(m.conflicts).toEqual([{ task_id: 't1', reviewer: 'ann', outcome: 'kept' }]);
    // and the reviewer's next answer replaces their own label whatever the stored clock says
    const future = { ...mine, labelled_at: '9999-12-31T23:59:59.999Z' };
    const next = label('t1', 'ann', { standalone: 'no' }, '2026-07-07T00:00:00.000Z');
    expect(putLabel([future], next)).toEqual([next]);
  });

  it("lets a later import replace another reviewer's label whatever its clock, later lines first", () => {
    const bob = label('t1', 'bob', { standalone: 'yes' }, '9999-12-31T00:00:00.000Z');
    const a = label('t1', 'bob', { standalone: 'no' }, '2000-01-01T00:00:00.000Z');
    const b = label('t1', 'bob', { standalone: 'unsure' }, '1999-01-01T00:00:00.000Z');
    const m = mergeImport([bob], [a, b], 'ann');
    expect(m.labels).toEqual([b]);
    expect(m.added).toBe(0);
    expect(m.conflicts).toEqual([{ task_id: 't1', reviewer: 'bob', outcome: 'replaced' }]);
    const fresh = mergeImport([], [a], 'ann');
    expect(fresh).toMatchObject({ added: 1, conflicts: [], changed: [a] });
  });
});

describe('spot-check statistics at scale', () => {
  it('3,000 reviewers on one task: agreement is counted without pairing them, kappas bounded', () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      label('t1', `r${String(i).padStart(4, '0')}`, { standalone: i % 3 ? 'yes' : 'no' }),
    );
    const s = spotCheckStats(many);
    expect(s.reviewerCount).toBe(3000);
    expect(s.reviewers.length).toBeLessThanOrEqual(20);
    expect(s.pairReviewersLeftOut).toBe(3000 - MAX_PAIR_REVIEWERS);
    // pairs among MAX_PAIR_REVIEWERS reviewers, standalone the only question answered
    expect(s.reviewerKappa).toHaveLength((MAX_PAIR_REVIEWERS * (MAX_PAIR_REVIEWERS - 1)) / 2);
    const a = s.agreement[0]!;
    // 1,000 "no" and 2,000 "yes": C(1000,2) + C(2000,2) of C(3000,2) pairs agree
    expect(a).toEqual({
      question: 'standalone',
      tasks: 1,
      split: 1,
      pairs: (3000 * 2999) / 2,
      agreeingPairs: (1000 * 999) / 2 + (2000 * 1999) / 2,
    });
    // one task, majority yes: no error
    expect(s.questions[0]).toMatchObject({ answered: 1, errors: 0 });
  });
});
