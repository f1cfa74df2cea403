import { describe, expect, it } from 'vitest';
import { numbersFor, type SystemsMatrix } from '../../../../src/core/explorer/systems.ts';
import { systemsTable, type SystemFilter } from '../../../../src/core/explorer/systems-view.ts';
import type { ScoringPrediction } from '../../../../src/core/scoring/predictions.ts';
import { items, task } from '../scoring/fixtures.ts';

const pred = (citations: string[]): ScoringPrediction => ({
  task_id: 't',
  line: 1,
  answer: 'x',
  citations,
  retrieved: [],
});

describe('pool bias in the Systems view', () => {
  it('counts cited documents outside the citation gold, and those in the gate', () => {
    const t = task('t', 'aggregation', { gold_docs: ['G1'], items: items(['i', ['I1']]) });
    expect(numbersFor(t, pred(['I1', 'X1', 'X1', 'G1', 'X2']))).toMatchObject({ citedOutside: 2, gateOutside: 1 });
    expect(numbersFor(t, pred(['X1', 'X2', 'X3', 'X4']), 2)).toMatchObject({ citedOutside: 4, gateOutside: 2 });
    expect(numbersFor(task('u', 'unanswerable'), pred(['X1']))).toMatchObject({ citedOutside: 0, gateOutside: 0 });
  });

  it('filters the tasks a system cites outside the gold set, and those it got credit on with a cited score of 0', () => {
    const tasks = ['a', 'b', 'c', 'd'].map((id) => task(id, 'single_hop', { gold_docs: ['G'] }));
    const cell = (citations: string[]) => numbersFor(tasks[0]!, pred(citations));
    const matrix: SystemsMatrix = {
      split: 'full',
      systems: ['s1', 's2'].map((slug) => ({ slug, name: slug, split: 'full', predictions: 4, issues: 0 })),
      tasks: tasks.map((t) => ({ task_id: t.task_id, type: t.type, question: t.question, gold: 1 })),
      cells: [
        [cell(['X']), cell(['G'])], // a: s1 cites outside in the gate, judged correct, cited 0
        [cell(['G', 'G', 'G', 'X']), cell([])], // b: outside only past the gate
        [cell(['X']), cell(['X'])], // c: outside, judged wrong
        [cell(['G']), null], // d: nothing outside
      ],
      leftOut: [],
      parseMs: 0,
    };
    const verdicts = {
      s1: { a: [0, 1], b: [1, 1], c: [0, 0], d: [1, 1] } as Record<string, [number, number]>,
      s2: { a: [1, 1], b: [0, 0], c: [0, 0] } as Record<string, [number, number]>,
    };
    const ids = (filter: SystemFilter, v = verdicts) =>
      systemsTable(matrix, v, {
        types: [],
        filter,
        metric: 'recall@20',
        hidden: [],
        sort: 'task',
        desc: false,
        text: '',
        page: 0,
        pageSize: 50,
      }).rows.map((r) => r.task.task_id);
    expect(ids('cited-outside')).toEqual(['a', 'b', 'c']);
    expect(ids('credit-outside')).toEqual(['a']);
    // without the verdicts of s1 on a, nothing is known
    expect(ids('credit-outside', { s1: {}, s2: verdicts.s2 })).toEqual([]);
  });
});
