import { describe, expect, it } from 'vitest';
import { queryTerms, tokenize } from '../../../../src/core/retrieval/tokenize.ts';

describe('tokenize (Python re.findall(r"[a-z0-9]{2,}", text.lower()))', () => {
  it('lowercases, splits on anything but [a-z0-9], drops one-character tokens', () => {
    expect(tokenize("Hello, World! a b2 x I_am don't 2019-07-23")).toEqual([
      'hello',
      'world',
      'b2',
      'am',
      'don',
      '2019',
      '07',
      '23',
    ]);
  });
  it('keeps duplicates and order on the document side', () => {
    expect(tokenize('the cat THE Cat')).toEqual(['the', 'cat', 'the', 'cat']);
  });
  it('treats non-ASCII letters and digits as separators', () => {
    expect(tokenize('café naïve straße ４２ x٣y')).toEqual(['caf', 'na', 've', 'stra']);
  });
  it('follows Python lower() for the two non-ASCII chars that lowercase to ASCII', () => {
    // 'İ'.lower() == 'i\u0307' in Python and JS: contributes 'i', then the combining dot splits.
    expect(tokenize('XİY İstanbul')).toEqual(['xi', 'stanbul']);
    // KELVIN SIGN lowercases to 'k'.
    expect(tokenize('5\u212A ok\u212A')).toEqual(['5k', 'okk']);
  });
  it('returns nothing for empty or separator-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' a . b ')).toEqual([]);
  });
  it('deduplicates query terms in first-occurrence order', () => {
    expect(queryTerms('The cat and THE dog, the Cat')).toEqual(['the', 'cat', 'and', 'dog']);
  });
});
