import { describe, expect, it } from 'vitest';
import { selectTopK } from '../../../../src/core/retrieval/top-k.ts';

describe('selectTopK', () => {
  const scores = [0.5, 0.9, 0.5, 0.1, 0.9];

  it('orders by score descending, then id ascending', () => {
    expect(selectTopK([4, 3, 2, 1, 0], 5, scores, 3)).toEqual([1, 4, 0]);
    expect(selectTopK([4, 3, 2, 1, 0], 5, scores, 10)).toEqual([1, 4, 0, 2, 3]);
  });

  it('only looks at the first `count` candidates', () => {
    expect(selectTopK([3, 2, 1], 2, scores, 5)).toEqual([2, 3]);
  });

  it('returns nothing for k <= 0 or NaN', () => {
    expect(selectTopK([0, 1], 2, scores, 0)).toEqual([]);
    expect(selectTopK([0, 1], 2, scores, Number.NaN)).toEqual([]);
  });
});
