/**
 * Where the user was in a list when they opened one of its rows: the list's query string, its
 * history entry, the selected row and the scroll positions. Back and Esc return there.
 */
export interface ListPlace {
  /** The list's query string, without `?` (the key places are found by). */
  search: string;
  /** The list's history entry (url.index) when the row was opened. */
  index: number;
  selected: number;
  scrollY: number;
  /** Scroll offset of the list's own scroller (long, virtualised lists). */
  scrollTop: number;
}

const places = new Map<string, ListPlace>();
let last: ListPlace | undefined;

export function rememberPlace(place: ListPlace): void {
  places.set(place.search, place);
  last = place;
}

export function placeOf(search: string): ListPlace | undefined {
  return places.get(search);
}

/** The list the last opened row came from. */
export function lastPlace(): ListPlace | undefined {
  return last;
}

/** The row now open (after j/k on the detail page) becomes the list's selected row. */
export function moveSelection(selected: number): void {
  if (last) last.selected = selected;
}
