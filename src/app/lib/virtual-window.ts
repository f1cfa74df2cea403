/**
 * Which rows of a long list to render: all of them up to `renderAll`, else the rows the viewport
 * shows plus `overscan` on either side (rows have a fixed height). `last` is exclusive.
 */
export interface VirtualWindow {
  virtual: boolean;
  first: number;
  last: number;
}

export function virtualWindow(opts: {
  total: number;
  scrollTop: number;
  viewport: number;
  rowHeight: number;
  renderAll: number;
  overscan: number;
}): VirtualWindow {
  const { total, scrollTop, viewport, rowHeight, renderAll, overscan } = opts;
  if (total <= renderAll) return { virtual: false, first: 0, last: total };
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(total, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  return { virtual: true, first: Math.min(first, last), last };
}

/** The scrollTop that keeps row `index` (and the one after it) in view, or undefined when it is. */
export function scrollToShow(
  index: number,
  rowHeight: number,
  scrollTop: number,
  clientHeight: number,
): number | undefined {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight * 2 > scrollTop + clientHeight) return top + rowHeight * 2 - clientHeight;
  return undefined;
}
