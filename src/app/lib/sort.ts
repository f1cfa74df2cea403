/** A column sort as the URL holds it: `sort=<column>` and `desc=1`; no column means the default order. */
export interface SortState<C extends string> {
  by: C | undefined;
  desc: boolean;
}

/**
 * What a click on a column header does: a new column sorts ascending, the active ascending
 * column turns descending, the active descending column clears the sort.
 */
export function nextSort<C extends string>(current: SortState<C>, column: C): SortState<C> {
  if (current.by !== column) return { by: column, desc: false };
  if (!current.desc) return { by: column, desc: true };
  return { by: undefined, desc: false };
}

/** The URL parameters of a sort state (defaults left out). */
export function sortParams<C extends string>(state: SortState<C>): { sort?: string; desc?: string } {
  return { sort: state.by, desc: state.by && state.desc ? '1' : undefined };
}

export type AriaSort = 'ascending' | 'descending' | 'none';

export function ariaSort<C extends string>(state: SortState<C>, column: C): AriaSort {
  return state.by === column ? (state.desc ? 'descending' : 'ascending') : 'none';
}
