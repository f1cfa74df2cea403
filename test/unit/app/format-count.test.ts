import { describe, expect, it } from 'vitest';
import { formatCount } from '../../../src/app/lib/format-count.ts';

describe('formatCount', () => {
  it("writes integers as toLocaleString('en') does", () => {
    const values = [
      0, -0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 12345, 123456, 1234567, 83810, -1, -1000, -1234567,
    ];
    for (let p = 0; p <= 15; p++) values.push(10 ** p, 10 ** p - 1, -(10 ** p));
    values.push(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
    for (const n of values) expect(formatCount(n), String(n)).toBe(n.toLocaleString('en'));
  });

  it('hands other numbers to Intl', () => {
    for (const n of [0.5, 1234.5678, -0.001, 1e21, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(formatCount(n)).toBe(n.toLocaleString('en'));
  });
});
