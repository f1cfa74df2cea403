import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pyMean, pySum, pyTrueDiv } from '../../../../src/core/python/sum.ts';
import type { PyNumber } from '../../../../src/core/python/sum.ts';

type Tagged = { i: string } | { f: string };
interface SumCase {
  name: string;
  items: Tagged[];
  sum: Tagged;
  mean: Tagged | null;
}

const fixture = JSON.parse(
  readFileSync(new URL('../../../fixtures/python-sum/cases.json', import.meta.url), 'utf8'),
) as { python: string; cases: SumCase[] };

function untag(v: Tagged): PyNumber {
  if ('i' in v) return BigInt(v.i);
  if (v.f === 'nan') return NaN;
  if (v.f === 'inf') return Infinity;
  if (v.f === '-inf') return -Infinity;
  return Number(v.f);
}

/** Object.is keeps -0.0 apart from 0.0 and NaN equal to NaN; a bigint only equals a bigint. */
function same(a: PyNumber, b: PyNumber): boolean {
  return typeof a === typeof b && Object.is(a, b);
}

describe(`pySum and pyMean equal CPython ${fixture.python}'s sum() and sum()/len() (test/fixtures/python-sum)`, () => {
  it.each(fixture.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const items = c.items.map(untag);
    const got = pySum(items);
    const want = untag(c.sum);
    expect(same(got, want), `sum: got ${String(got)} (${typeof got}), want ${String(want)} (${typeof want})`).toBe(
      true,
    );
    if (c.mean) expect(Object.is(pyMean(items), untag(c.mean))).toBe(true);
  });

  it('differs from naive left-to-right addition where Python 3.12 does (0.1 ten times is 1.0)', () => {
    let naive = 0;
    for (let i = 0; i < 10; i++) naive += 0.1;
    expect(naive).toBe(0.9999999999999999);
    expect(pySum(Array(10).fill(0.1) as number[])).toBe(1);
  });

  it('keeps an all-int sum an int, exactly, past 2^53', () => {
    expect(pySum([2n ** 53n + 1n, 2n ** 53n + 3n])).toBe(2n ** 54n + 4n);
  });

  it('divides ints as Python does: one rounding of the exact quotient', () => {
    expect(pyTrueDiv(36028797019007405n, 1038n)).toBe(34709823717733.53);
    expect(pyTrueDiv(2n ** 60n + 1n, 3n)).toBe(3.843071682022823e17);
    expect(pyTrueDiv(-7n, 2n)).toBe(-3.5);
    expect(() => pyTrueDiv(1n, 0n)).toThrow(/ZeroDivisionError/);
  });

  it('returns 0 for the mean of nothing (score.py guards empty lists)', () => {
    expect(pyMean([])).toBe(0);
  });
});
