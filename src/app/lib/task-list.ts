import {
  TASK_FACETS,
  TASK_SORTS,
  type TaskFilter,
  type TaskOrder,
  type TaskSort,
} from '../../core/explorer/task-vocabulary.ts';
import { lastPlace, moveSelection } from '../state/list-place.ts';
import { release } from '../state/release.svelte.ts';
import { url } from '../state/url.svelte.ts';

/** The split the Tasks list shows when the URL names none: full (dev is a subset of it), else the first. */
export function defaultSplit(): string | undefined {
  const splits = [...new Set((release.summary?.counts ?? []).map((c) => c.split))];
  return splits.includes('full') ? 'full' : splits[0];
}

/** The list's split: the URL's, else the default. One split at a time, so no task is listed twice. */
export function splitFromUrl(): string | undefined {
  return url.get('split') ?? defaultSplit();
}

/** The Tasks list's filter as the URL holds it (one parameter per facet, repeated for OR). */
export function taskFilterFromUrl(): TaskFilter {
  const filter: TaskFilter = {};
  for (const facet of TASK_FACETS) {
    if (facet === 'split') continue;
    const values = url.getAll(facet);
    if (values.length) filter[facet] = values;
  }
  const split = splitFromUrl();
  if (split) filter.split = [split];
  const text = url.get('q');
  if (text) filter.text = text;
  const selected = mapSelectionFromUrl();
  if (selected) filter.idPrefixes = selected;
  return filter;
}

/** A map selection in the URL: `sel=` the 8-character id prefixes of its tasks, joined by dots. */
export const SELECTION_PARAM = 'sel';
export const SELECTION_PREFIX = 8;

export function mapSelectionFromUrl(): string[] | undefined {
  const sel = url.get(SELECTION_PARAM);
  return sel ? sel.split('.').filter(Boolean) : undefined;
}

export function selectionParam(taskIds: readonly string[]): string | undefined {
  return taskIds.length ? [...new Set(taskIds.map((id) => id.slice(0, SELECTION_PREFIX)))].join('.') : undefined;
}

export function taskOrderFromUrl(): TaskOrder {
  const sort = url.get('sort') ?? '';
  return {
    by: (TASK_SORTS as readonly string[]).includes(sort) ? (sort as TaskSort) : 'row_no',
    desc: url.get('desc') === '1',
  };
}

export function taskHref(taskId: string, split: string): string {
  return `?view=task&task=${encodeURIComponent(taskId)}&split=${encodeURIComponent(split)}`;
}

/** Opens a task, keeping the list's filter and order in the URL so that j/k walk the same list. */
export function openTask(taskId: string, split: string, replace = false): void {
  url.update({ view: 'task', task: taskId, split, doc: undefined, from: undefined }, replace);
}

/** The task page a document is opened from (`from` and `split` in the document's URL), if any. */
function taskShown(): { from: string; split: string } | undefined {
  const task = url.get('task');
  const split = url.get('split');
  return url.get('view') === 'task' && task && split ? { from: task, split } : undefined;
}

/** A document page's address; from a task page it names that task, so the page leads back to it. */
export function docHref(docId: string, highlight?: string): string {
  const from = taskShown();
  return `?view=doc&doc=${encodeURIComponent(docId)}${highlight ? `&hl=${encodeURIComponent(highlight)}` : ''}${
    from ? `&from=${encodeURIComponent(from.from)}&split=${encodeURIComponent(from.split)}` : ''
  }`;
}

/** The history entry of the task page the last document was opened from. */
let openedFrom: { index: number; from: string; split: string } | undefined;

export function openDoc(docId: string, highlight?: string): void {
  const from = taskShown();
  openedFrom = from && { index: url.index, ...from };
  url.update({
    view: 'doc',
    doc: docId,
    hl: highlight,
    from: from?.from,
    split: from ? from.split : url.get('split'),
    task: undefined,
    candidate: undefined,
    entity: undefined,
  });
}

/** Back to the task a document page was opened from: its own history entry when just behind, else anew. */
export function backToTask(taskId: string, split: string): void {
  if (openedFrom && openedFrom.from === taskId && url.index === openedFrom.index + 1) history.back();
  else openTask(taskId, split);
}

/**
 * Back to the list a task was opened from: the history entry itself when it is the one just
 * behind (scroll and selection come back with it), else that list's URL, else the plain list.
 * `position` (0-based) is the task now shown, which becomes the list's selected row.
 */
export function backToList(position?: number): void {
  const place = lastPlace();
  if (place && position !== undefined) moveSelection(position);
  if (place && url.index === place.index + 1) history.back();
  else if (place) url.go(place.search);
  else url.update({ view: undefined, task: undefined });
}
