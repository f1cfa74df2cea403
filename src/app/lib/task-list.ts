import {
  TASK_FACETS,
  TASK_SORTS,
  type TaskFilter,
  type TaskOrder,
  type TaskSort,
} from '../../core/explorer/queries.ts';
import { url } from '../state/url.svelte.ts';

/** The Tasks list's filter as the URL holds it (one parameter per facet, repeated for OR). */
export function taskFilterFromUrl(): TaskFilter {
  const filter: TaskFilter = {};
  for (const facet of TASK_FACETS) {
    const values = url.getAll(facet);
    if (values.length) filter[facet] = values;
  }
  const text = url.get('q');
  if (text) filter.text = text;
  return filter;
}

export function taskOrderFromUrl(): TaskOrder {
  const sort = url.get('sort') ?? '';
  return {
    by: (TASK_SORTS as readonly string[]).includes(sort) ? (sort as TaskSort) : 'row_no',
    desc: url.get('desc') === '1',
  };
}

/** Opens a task, keeping the list's filter and order in the URL so that j/k walk the same list. */
export function openTask(taskId: string, split: string, replace = false): void {
  url.update({ view: 'task', task: taskId, split, doc: undefined }, replace);
}

export function openDoc(docId: string, highlight?: string): void {
  url.update({ view: 'doc', doc: docId, hl: highlight, task: undefined, candidate: undefined, entity: undefined });
}
