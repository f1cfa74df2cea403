import { describe, expect, it } from 'vitest';
import { chunkDoc } from '../../../../src/core/sample/chunking.ts';
import { extractNames } from '../../../../src/core/sample/entity-index.ts';
import { bm25PoolRetriever } from '../../../../src/core/sample/pool-retriever.ts';
import { Prng } from '../../../../src/core/sample/prng.ts';
import { screenQuality } from '../../../../src/core/sample/quality.ts';
import { tokenF1 } from '../../../../src/core/sample/token-f1.ts';

describe('prng', () => {
  it('is deterministic per seed and label, and makes UUID4-shaped ids', () => {
    const a = Prng.derive(7, 'x');
    const b = Prng.derive(7, 'x');
    const c = Prng.derive(7, 'y');
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    expect(a.uuid4()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('quality screen', () => {
  const prose = 'We will meet at the hotel on Friday to go through the plans for the house and the garden. '.repeat(4);
  it('follows the thresholds of the benchmark', () => {
    expect(screenQuality('short text').quality).toBe('garbage');
    expect(screenQuality('\u00e9\u00e8\u00ea\u2500'.repeat(80)).quality).toBe('garbage');
    const clean = screenQuality(prose);
    expect(clean).toMatchObject({ quality: 'clean', borderline: false });
    expect(clean.g).toBe(0);
    expect(screenQuality('Xq zzv Kkorw pplt Rrnq wvvx '.repeat(12)).quality).toBe('degraded');
  });
  it('sends borderline docs to the readability rule', () => {
    const names = 'Okonkwo-Reyes Wrenfield Vantreece Quillfeather Dunravel Brackwater Castellen ';
    const mixed = `${prose}${names.repeat(8)}`;
    const screen = screenQuality(mixed);
    expect(screen.borderline).toBe(true);
    expect(screen.readable).toBe(true);
    expect(screen.quality).toBe('clean');
    const mangled = `${prose.slice(0, 200)} ${'Okonkw0 tbe rnect1ng wl|l Vantr~ece '.repeat(8)}`;
    expect(screenQuality(mangled).quality).toBe('degraded');
  });
});

describe('chunking', () => {
  it('keeps short docs whole and windows long ones 512/462', () => {
    expect(chunkDoc({ doc_id: 'D', text: ' a  b\n' })).toEqual([{ chunk_id: 'D#0', doc_id: 'D', text: ' a  b\n' }]);
    const words = Array.from({ length: 1000 }, (_, i) => `w${i}`);
    const chunks = chunkDoc({ doc_id: 'D', text: words.join('\n') });
    expect(chunks.map((c) => c.chunk_id)).toEqual(['D#0', 'D#1', 'D#2']);
    expect(chunks[1]!.text.split(' ')[0]).toBe('w462');
    expect(chunks[1]!.text.split(' ')).toHaveLength(512);
    expect(chunks[2]!.text.split(' ')).toHaveLength(1000 - 924);
  });
});

describe('token-F1 and entity names', () => {
  it('computes multiset token-F1', () => {
    expect(tokenF1('the cat', 'the cat')).toBe(1);
    expect(tokenF1('', 'x')).toBe(0);
    expect(tokenF1('a a b', 'a b c')).toBeCloseTo(2 / 3);
  });
  it('extracts capitalised runs without header words', () => {
    expect(extractNames('From: Mara Okonkwo-Reyes <m@x.example>\nDear Tobias Wrenfield,')).toEqual([
      'Mara Okonkwo-Reyes',
      'Tobias Wrenfield',
    ]);
  });
});

describe('pool BM25 (the retrieval core)', () => {
  it('ranks docs by their best chunk', () => {
    const bm25 = bm25PoolRetriever([
      { chunk_id: 'A#0', doc_id: 'A', text: 'harbour wall repairs' },
      { chunk_id: 'B#0', doc_id: 'B', text: 'the aircraft left the harbour' },
      { chunk_id: 'B#1', doc_id: 'B', text: 'aircraft aircraft aircraft' },
    ]);
    expect(bm25.search('aircraft', 5)).toEqual(['B']);
    expect(bm25.search('harbour wall', 5)).toEqual(['A', 'B']);
  });
});
