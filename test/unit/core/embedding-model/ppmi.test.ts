import { describe, expect, it } from 'vitest';
import { countCooccurrences } from '../../../../src/core/embedding-model/cooccurrence.ts';
import { ppmi } from '../../../../src/core/embedding-model/ppmi.ts';
import { type CsrMatrix, csrFromDense } from '../../../../src/core/embedding-model/sparse.ts';

function toDense(m: CsrMatrix): number[][] {
  const out = Array.from({ length: m.rows }, () => new Array<number>(m.cols).fill(0));
  for (let i = 0; i < m.rows; i++)
    for (let k = m.rowStart[i]!; k < m.rowStart[i + 1]!; k++) out[i]![m.colIndex[k]!] = m.values[k]!;
  return out;
}

describe('countCooccurrences', () => {
  it('counts symmetric pairs weighted by 1/distance within the window', () => {
    const m = countCooccurrences([Uint32Array.from([0, 1, 2]), Uint32Array.from([1, 2])], 3, { window: 2 });
    expect(toDense(m)).toEqual([
      [0, 1, 0.5],
      [1, 0, 2],
      [0.5, 2, 0],
    ]);
  });

  it('drops ignored ids before windowing', () => {
    const m = countCooccurrences([Uint32Array.from([0, 3, 1])], 4, { window: 1, ignore: new Set([3]) });
    expect(toDense(m)[0]).toEqual([0, 1, 0, 0]);
    expect(toDense(m)[3]).toEqual([0, 0, 0, 0]);
  });
});

describe('ppmi', () => {
  it('keeps only positive PMI: [[1,3],[3,1]] -> log(1.5) off the diagonal', () => {
    const m = toDense(
      ppmi(
        csrFromDense([
          [1, 3],
          [3, 1],
        ]),
        1,
      ),
    );
    expect(m[0]![0]).toBe(0); // log(1*8/(4*4)) < 0
    expect(m[0]![1]).toBeCloseTo(Math.log(1.5), 12);
    expect(m[1]![0]).toBeCloseTo(Math.log(1.5), 12);
  });

  it('smooths the context distribution with alpha', () => {
    const counts = csrFromDense([
      [0, 6, 2],
      [6, 0, 1],
      [2, 1, 0],
    ]);
    const m = toDense(ppmi(counts, 0.75));
    const col = [8, 7, 3];
    const z = col.reduce((s, c) => s + c ** 0.75, 0);
    // row 0 sums to 8: PMI(0, 1) = log(6 / (8 * 7^0.75 / z))
    expect(m[0]![1]).toBeCloseTo(Math.log(6 / ((8 * 7 ** 0.75) / z)), 12);
    const pmi02 = Math.log(2 / ((8 * 3 ** 0.75) / z));
    expect(m[0]![2]).toBeCloseTo(Math.max(0, pmi02), 12);
  });
});
