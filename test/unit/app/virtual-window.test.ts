import { describe, expect, it } from 'vitest';
import { scrollToShow, virtualWindow } from '../../../src/app/lib/virtual-window.ts';

describe('virtualWindow', () => {
  const base = { rowHeight: 10, renderAll: 50, overscan: 2, viewport: 100 };

  it('renders every row of a short list', () => {
    expect(virtualWindow({ ...base, total: 50, scrollTop: 300 })).toEqual({ virtual: false, first: 0, last: 50 });
  });

  it('renders the rows in view and the overscan of a long one', () => {
    expect(virtualWindow({ ...base, total: 1000, scrollTop: 0 })).toEqual({ virtual: true, first: 0, last: 12 });
    expect(virtualWindow({ ...base, total: 1000, scrollTop: 205 })).toEqual({ virtual: true, first: 18, last: 33 });
    expect(virtualWindow({ ...base, total: 1000, scrollTop: 9990 })).toEqual({
      virtual: true,
      first: 997,
      last: 1000,
    });
  });
});

describe('scrollToShow', () => {
  it('scrolls up to a row above the view, down to keep a row and the next in view, else not at all', () => {
    expect(scrollToShow(2, 10, 50, 100)).toBe(20);
    expect(scrollToShow(20, 10, 50, 100)).toBe(120);
    expect(scrollToShow(8, 10, 50, 100)).toBeUndefined();
  });
});
