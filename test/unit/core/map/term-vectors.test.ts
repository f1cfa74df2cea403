import { describe, expect, it } from 'vitest';
import { MAX_TERMS, nearestNeighbours, termVectors, type SparseRow } from '../../../../src/core/map/term-vectors.ts';
import { regionLabels } from '../../../../src/core/map/regions.ts';
import { mulberry32 } from '../../../../src/core/random.ts';

const dotOf = (a: SparseRow, b: SparseRow) => {
  let s = 0;
  a.columns.forEach((c, i) => {
    const j = b.columns.indexOf(c);
    if (j >= 0) s += a.weights[i]! * b.weights[j]!;
  });
  return s;
};

describe('term vectors and their neighbours', () => {
  const random = mulberry32(7);
  const vocabulary = Array.from(
    { length: 400 },
    (_, i) => `word${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`,
  );
  // Long texts, as document openings are: many more terms than a row keeps.
  const texts = Array.from({ length: 300 }, () =>
    Array.from({ length: 120 }, () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]).join(' '),
  );
  const { rows } = termVectors(texts);

  it(`keeps a long text's ${MAX_TERMS} heaviest terms, as a unit vector`, () => {
    const full = termVectors(texts, Infinity).rows;
    rows.forEach((r, i) => {
      expect(r.columns.length).toBe(Math.min(MAX_TERMS, full[i]!.columns.length));
      expect(Math.hypot(...r.weights)).toBeCloseTo(1, 12);
      // No dropped term outweighs a kept one.
      const kept = new Set(r.columns);
      const weightOf = (c: number) => full[i]!.weights[full[i]!.columns.indexOf(c)]!;
      const lightestKept = Math.min(...[...kept].map(weightOf));
      for (const c of full[i]!.columns) if (!kept.has(c)) expect(weightOf(c)).toBeLessThanOrEqual(lightestKept);
    });
  });

  it('finds the exact nearest rows by cosine, ties to the lower index, as a brute-force search does', () => {
    const k = 15;
    const { indices, distances } = nearestNeighbours(rows, k);
    rows.forEach((r, self) => {
      const expected = rows
        .map((o, j) => ({ j, d: dotOf(r, o) }))
        .filter((e) => e.j !== self && e.d > 0)
        .sort((a, b) => b.d - a.d || a.j - b.j)
        .slice(0, k - 1);
      expect(indices[self]).toEqual([self, ...expected.map((e) => e.j)]);
      distances[self]!.slice(1).forEach((d, n) => expect(d).toBeCloseTo(Math.max(0, 1 - expected[n]!.d), 12));
    });
  });
});

describe('region labels', () => {
  it('gives two regions whose top words are the same labels of their own', () => {
    const both = 'message message message message example example example example';
    const texts = [
      `${both} sent`,
      `${both} sent`,
      `${both} subject`,
      `${both} subject`,
      'court motion',
      'court motion',
    ];
    const labels = regionLabels(texts, [0, 0, 1, 1, 2, 2], 3);
    expect(new Set(labels).size).toBe(3);
    expect(labels[0]).toBe('example, message');
    // The second keeps its best word and takes the next that tells it apart: still its own words.
    expect(labels[1]).toBe('example, subject');
    expect(labels[2]).toBe('court, motion');
  });
});
