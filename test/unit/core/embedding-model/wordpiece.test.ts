import { describe, expect, it } from 'vitest';
import { createPrng } from '../../../../src/core/embedding-model/prng.ts';
import { buildVocab, countWords } from '../../../../src/core/embedding-model/vocab.ts';
import {
  SPECIAL_TOKENS,
  WordPieceEncoder,
  bertNormalize,
  bertPreTokenize,
} from '../../../../src/core/embedding-model/wordpiece.ts';

describe('BERT normalisation and pre-tokenisation', () => {
  it('lowercases, strips accents, maps whitespace to spaces and drops control characters', () => {
    expect(bertNormalize('Héllo\tWÖRLD\u0007!')).toBe('hello world!');
  });

  it('splits words from single punctuation marks', () => {
    expect(bertPreTokenize('maddox-vey, inc.  07/27')).toEqual([
      'maddox',
      '-',
      'vey',
      ',',
      'inc',
      '.',
      '07',
      '/',
      '27',
    ]);
  });
});

describe('WordPieceEncoder', () => {
  const vocab = [...SPECIAL_TOKENS, 'un', '##aff', '##able', 'a', '##b', 'b'];
  const encoder = new WordPieceEncoder(vocab);

  it('splits greedily by longest match with ## continuations', () => {
    expect(encoder.encode('Unaffable')).toEqual([5, 6, 7]);
    expect(encoder.encode('abb b')).toEqual([8, 9, 9, 10]);
  });

  it('maps an unsplittable word to [UNK] and keeps literal special tokens', () => {
    expect(encoder.encode('xyz [SEP] a')).toEqual([1, 3, 8]);
  });
});

describe('buildVocab', () => {
  it('puts specials, characters, ##characters, then words by frequency (ties by text)', () => {
    const counts = countWords(['the cat saw the dog', 'the dog ran', 'a cat']);
    const vocab = buildVocab(counts, { maxSize: 100, minCharCount: 1, minWordCount: 2 });
    expect(vocab.slice(0, 5)).toEqual(SPECIAL_TOKENS);
    expect(vocab.slice(-3)).toEqual(['the', 'cat', 'dog']);
    expect(vocab).toContain('##w');
    expect(vocab).not.toContain('ran');
    expect(buildVocab(counts, { maxSize: 8, minCharCount: 1, minWordCount: 1 })).toHaveLength(8);
  });
});

describe('createPrng', () => {
  it('repeats for a seed and differs between seeds', () => {
    const a = createPrng(42);
    const b = createPrng(42);
    const xs = [a.next(), a.gaussian(), a.next()];
    expect([b.next(), b.gaussian(), b.next()]).toEqual(xs);
    expect(createPrng(43).next()).not.toBe(xs[0]);
    expect(xs[0]).toBeGreaterThanOrEqual(0);
    expect(xs[0]).toBeLessThan(1);
  });
});
