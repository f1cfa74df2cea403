import type { TaskFacet } from './task-vocabulary.ts';
import { compareText } from './task-records.ts';

/** TRY_CAST(value AS INTEGER): digits with an optional sign and surrounding spaces, else NULL. */
function tryInt(value: string): number | null {
  return /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : null;
}

/** Buckets in their natural order: a number per value (NULLS LAST), then the value. */
export const FACET_RANK: Partial<Record<TaskFacet, (value: string) => number | null>> = {
  n_gold: (v) => (v === 'no key' ? 99 : v === '10+' ? 10 : tryInt(v)),
  pool_size: (v) => ({ '<20': 0, '20-29': 1, '30-49': 2, '50+': 3 })[v] ?? 9,
  salience: tryInt,
};

/**
 * The natural order of a facet of numbers or ranges (n_gold, pool_size, salience), or undefined
 * for the facets listed by count. A list that shows zeros keeps its values in this order.
 */
export function naturalFacetOrder(facet: TaskFacet): ((a: string, b: string) => number) | undefined {
  const rank = FACET_RANK[facet];
  if (!rank) return undefined;
  return (a, b) => {
    const x = rank(a);
    const y = rank(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return x - y;
    }
    return compareText(a, b);
  };
}
