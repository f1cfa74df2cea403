import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_OPTIONS, trainStaticEmbeddings } from '../../../../src/core/embedding-model/train.ts';

const corpus: string[] = [];
for (let i = 0; i < 40; i++) {
  corpus.push(`the cat drinks warm milk at home ${i % 3 === 0 ? 'today' : 'again'}`);
  corpus.push(`the dog drinks cold milk at home ${i % 2 === 0 ? 'today' : 'again'}`);
  corpus.push(`the truck needs diesel fuel on the motorway ${i % 5 === 0 ? 'today' : 'again'}`);
  corpus.push(`the car needs petrol fuel on the motorway ${i % 4 === 0 ? 'today' : 'again'}`);
}
const options = { ...DEFAULT_TRAIN_OPTIONS, dim: 4, window: 3, oversample: 4 };

function cosine(table: Float32Array, dim: number, a: number, b: number): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let d = 0; d < dim; d++) {
    ab += table[a * dim + d]! * table[b * dim + d]!;
    aa += table[a * dim + d]! ** 2;
    bb += table[b * dim + d]! ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

describe('trainStaticEmbeddings', () => {
  const model = trainStaticEmbeddings(corpus, options);
  const id = (w: string): number => model.vocab.indexOf(w);

  it('gives words from the same contexts closer vectors', () => {
    expect(cosine(model.table, 4, id('cat'), id('dog'))).toBeGreaterThan(cosine(model.table, 4, id('cat'), id('car')));
    expect(cosine(model.table, 4, id('truck'), id('car'))).toBeGreaterThan(
      cosine(model.table, 4, id('truck'), id('milk')),
    );
  });

  it('gives the special tokens zero rows and is deterministic', () => {
    expect(Array.from(model.table.subarray(0, 5 * 4)).every((v) => v === 0)).toBe(true);
    expect(model.table).toHaveLength(model.vocab.length * 4);
    expect(Array.from(trainStaticEmbeddings(corpus, options).table)).toEqual(Array.from(model.table));
  });
});
