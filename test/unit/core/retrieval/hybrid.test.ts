import { describe, expect, it } from 'vitest';
import { HybridRetriever, rrfFuse } from '../../../../src/core/retrieval/hybrid.ts';
import type { RankedDoc, Retriever } from '../../../../src/core/retrieval/types.ts';

const list = (...ids: string[]): RankedDoc[] => ids.map((doc_id, i) => ({ doc_id, score: 10 - i }));

describe('RRF (k = 60, rank from 0)', () => {
  it('sums 1 / (60 + rank + 1) over the lists, including docs in only one list', () => {
    const fused = rrfFuse([list('a', 'b', 'c'), list('b', 'd')], 10);
    expect(fused).toEqual([
      { doc_id: 'b', score: 1 / 62 + 1 / 61 },
      { doc_id: 'a', score: 1 / 61 },
      { doc_id: 'd', score: 1 / 62 },
      { doc_id: 'c', score: 1 / 63 },
    ]);
  });

  it('keeps first-appearance order for ties and cuts at top k', () => {
    const fused = rrfFuse([list('x', 'y'), list('y', 'x')], 10);
    expect(fused.map((d) => d.doc_id)).toEqual(['x', 'y']);
    expect(fused[0]!.score).toBe(fused[1]!.score);
    expect(rrfFuse([list('p', 'q', 'r'), list('s')], 2).map((d) => d.doc_id)).toEqual(['p', 's']);
  });

  it('takes k as a parameter', () => {
    expect(rrfFuse([list('a')], 1, 0)).toEqual([{ doc_id: 'a', score: 1 }]);
  });

  it('asks each retriever for 2k documents', async () => {
    const asked: number[] = [];
    const fake = (ids: string[]): Retriever => ({
      search: (_q, k) => {
        asked.push(k);
        return list(...ids).slice(0, k);
      },
    });
    const hybrid = new HybridRetriever([fake(['a', 'b']), fake(['c', 'a'])]);
    expect((await hybrid.search('q', 2)).map((d) => d.doc_id)).toEqual(['a', 'c']);
    expect(asked).toEqual([4, 4]);
  });
});
