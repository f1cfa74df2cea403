import { describe, expect, it } from 'vitest';
import { deferred } from '../../support/deferred.ts';
import type {
  FacetCount,
  TaskFacet,
  TaskFilter,
  TaskListRow,
  TaskOrder,
  TaskPage,
} from '../../../src/core/explorer/task-vocabulary.ts';
import { TaskListState, type TaskListSource } from '../../../src/app/state/task-list.svelte.ts';

const FACETS: TaskFacet[] = ['type'];
const order: TaskOrder = { by: 'row_no', desc: false };

function row(i: number): TaskListRow {
  return {
    task_id: `t${i}`,
    split: 'full',
    row_no: i,
    type: 'single_hop',
    question: `Q${i}?`,
    answer: null,
    has_key: i % 2 === 0,
    n_gold: 1,
    n_items: null,
    pool_size: null,
    salience: null,
    target_entity: null,
    source_quality: null,
  };
}

function facets(values: string[]): Record<TaskFacet, FacetCount[]> {
  const none = { value: 'x', count: 0 };
  return {
    type: values.map((value) => ({ value, count: 1 })),
    split: [none],
    n_gold: [],
    pool_size: [],
    target_entity: [],
    salience: [],
    source_quality: [],
  };
}

/** A source whose every answer the test gives by hand, in the order it chooses. */
class HandSource implements TaskListSource {
  pageAsks: Array<{ filter: TaskFilter; answer: ReturnType<typeof deferred<TaskPage>> }> = [];
  rowAsks: Array<{ offset: number; answer: ReturnType<typeof deferred<{ rows: TaskListRow[]; total: number }>> }> = [];
  taskPage(filter: TaskFilter): Promise<TaskPage> {
    const answer = deferred<TaskPage>();
    this.pageAsks.push({ filter, answer });
    return answer.promise;
  }
  taskRows(_f: TaskFilter, _o: TaskOrder, offset: number): Promise<{ rows: TaskListRow[]; total: number }> {
    const answer = deferred<{ rows: TaskListRow[]; total: number }>();
    this.rowAsks.push({ offset, answer });
    return answer.promise;
  }
}

const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => row(from + i));

describe('TaskListState', () => {
  it('shows the first page with its total and facets, and remembers the facet values', async () => {
    const source = new HandSource();
    const list = new TaskListState(source, FACETS, 10);
    const shown = list.ask({ filter: {}, order, release: 1 });
    source.pageAsks[0]!.answer.resolve({ rows: rows(0, 10), total: 25, facets: facets(['single_hop', 'timeline']) });
    expect(await shown).toBe(true);
    expect(list.total).toBe(25);
    expect(list.rowAt(3)?.task_id).toBe('t3');
    expect(list.rowAt(12)).toBeUndefined();
    expect(list.known.type).toEqual(['single_hop', 'timeline']);
    expect(list.hasAnswers).toBe(true);
  });

  it('drops the answer of a question no longer asked, whichever arrives first', async () => {
    const source = new HandSource();
    const list = new TaskListState(source, FACETS, 10);
    const old = list.ask({ filter: { type: ['timeline'] }, order, release: 1 });
    const latest = list.ask({ filter: { type: ['single_hop'] }, order, release: 1 });
    source.pageAsks[1]!.answer.resolve({ rows: rows(0, 2), total: 2, facets: facets(['single_hop']) });
    expect(await latest).toBe(true);
    source.pageAsks[0]!.answer.resolve({ rows: rows(50, 7), total: 7, facets: facets(['timeline']) });
    expect(await old).toBe(false);
    expect(list.total).toBe(2);
    expect(list.rowAt(0)?.task_id).toBe('t0');
    expect(list.known.type).toEqual(['single_hop']);
  });

  it('keeps facet values across questions of one release, forgets them for the next release', async () => {
    const source = new HandSource();
    const list = new TaskListState(source, FACETS, 10);
    const answer = (i: number, values: string[]) =>
      source.pageAsks[i]!.answer.resolve({ rows: [], total: 0, facets: facets(values) });
    let shown = list.ask({ filter: {}, order, release: 1 });
    answer(0, ['a']);
    await shown;
    shown = list.ask({ filter: { text: 'nothing' }, order, release: 1 });
    answer(1, ['b']);
    await shown;
    expect(list.known.type).toEqual(['a', 'b']);
    shown = list.ask({ filter: {}, order, release: 2 });
    answer(2, ['c']);
    await shown;
    expect(list.known.type).toEqual(['c']);
  });

  it('fetches each page the window needs once, and drops pages of an old question', async () => {
    const source = new HandSource();
    const list = new TaskListState(source, FACETS, 10);
    let shown = list.ask({ filter: {}, order, release: 1 });
    source.pageAsks[0]!.answer.resolve({ rows: rows(0, 10), total: 35, facets: facets([]) });
    await shown;
    list.need(5, 25);
    list.need(8, 22);
    expect(source.rowAsks.map((a) => a.offset)).toEqual([10, 20]);
    source.rowAsks[0]!.answer.resolve({ rows: rows(10, 10), total: 35 });
    await source.rowAsks[0]!.answer.promise;
    await Promise.resolve();
    expect(list.rowAt(15)?.task_id).toBe('t15');
    expect(list.holdsPlace(15, true)).toBe(true);
    expect(list.holdsPlace(25, true)).toBe(false);
    expect(list.holdsPlace(0, false)).toBe(false);
    shown = list.ask({ filter: { type: ['x'] }, order, release: 1 });
    source.rowAsks[1]!.answer.resolve({ rows: rows(20, 10), total: 35 });
    await source.rowAsks[1]!.answer.promise;
    await Promise.resolve();
    expect(list.rowAt(25)).toBeUndefined();
    source.pageAsks[1]!.answer.resolve({ rows: rows(0, 3), total: 3, facets: facets([]) });
    await shown;
    expect(list.holdsPlace(2, false)).toBe(true);
  });

  it('keeps the rows of the same question asked of a fuller load until its answer, not those of another', async () => {
    const source = new HandSource();
    const list = new TaskListState(source, FACETS, 10);
    let shown = list.ask({ filter: { type: ['timeline'] }, order, release: 1 });
    source.pageAsks[0]!.answer.resolve({ rows: rows(0, 10), total: 10, facets: facets([]) });
    await shown;
    shown = list.ask({ filter: { type: ['timeline'] }, order, release: 2 });
    expect(list.rowAt(1)?.task_id).toBe('t1');
    source.pageAsks[1]!.answer.resolve({ rows: rows(100, 10), total: 10, facets: facets([]) });
    await shown;
    expect(list.rowAt(1)?.task_id).toBe('t101');
    void list.ask({ filter: { type: ['single_hop'] }, order, release: 2 });
    expect(list.rowAt(1)).toBeUndefined();
  });

  it('says why a question failed, and forgets the failure once a later one is answered', async () => {
    const source = new HandSource();
    const list = new TaskListState(source, FACETS, 10);
    const failed = list.ask({ filter: {}, order, release: 1 });
    source.pageAsks[0]!.answer.reject(new Error('the worker is gone'));
    expect(await failed).toBe(false);
    expect(list.error).toBe('the worker is gone');
    const next = list.ask({ filter: {}, order, release: 1 });
    source.pageAsks[1]!.answer.resolve({ rows: [], total: 0, facets: facets([]) });
    await next;
    expect(list.error).toBeUndefined();
  });

  it('says the list is slow only while its first page takes longer than the limit', async () => {
    const source = new HandSource();
    const list = new TaskListState(source, FACETS, 10, 0);
    const shown = list.ask({ filter: {}, order, release: 1 });
    await expect.poll(() => list.slow).toBe(true);
    source.pageAsks[0]!.answer.resolve({ rows: [], total: 0, facets: facets([]) });
    await shown;
    expect(list.slow).toBe(false);
  });
});
