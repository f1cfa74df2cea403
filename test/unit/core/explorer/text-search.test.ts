/**
 * The explorer's free-text search survives what a release may hold (audit finding 4.4): the same
 * key twice (a duplicated task id) and a 10 MB question.
 */
import { describe, expect, it } from 'vitest';
import { TextSearch } from '../../../../src/core/explorer/text-search.ts';

describe('TextSearch', () => {
  it('indexes a key given twice once, finding the words of both rows', async () => {
    const search = await TextSearch.build([
      { key: 'full:a', question: 'where did the ferry dock', answer: '', items: '' },
      { key: 'full:b', question: 'who signed the lease', answer: '', items: '' },
      { key: 'full:a', question: 'which harbour master', answer: '', items: '' },
    ]);
    expect(await search.keys('ferry')).toEqual(['full:a']);
    expect(await search.keys('harbour')).toEqual(['full:a']);
    expect(await search.keys('lease')).toEqual(['full:b']);
  });

  it('builds with a 10 MB question (one unbroken word) and still finds its first words and the other rows', async () => {
    const huge = `zeppelin manifest ${'x'.repeat(10_000_000)}`;
    const search = await TextSearch.build([
      { key: 'full:huge', question: huge, answer: '', items: '' },
      { key: 'full:small', question: 'a quiet question about boats', answer: '', items: '' },
    ]);
    expect(await search.keys('zeppelin')).toEqual(['full:huge']);
    expect(await search.keys('boats')).toEqual(['full:small']);
  });
});
