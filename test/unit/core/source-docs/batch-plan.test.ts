import { describe, expect, it } from 'vitest';
import { planRowGroupReads, type DocPlace } from '../../../../src/core/source-docs/batch-plan.ts';
import type { ShardEntry } from '../../../../src/core/source-docs/hub.ts';

const shard = (n: number): ShardEntry => ({
  path: `data/train-${String(n).padStart(5, '0')}.parquet`,
  size: 1e6,
  oid: `o${n}`,
});

describe('planRowGroupReads', () => {
  it('reads each row group once, over the rows from its first wanted id to its last', () => {
    const places = new Map<string, DocPlace>([
      ['EFTA00000009', { shard: shard(1), rowGroup: 3, row: 40 }],
      ['EFTA00000002', { shard: shard(0), rowGroup: 0, row: 7 }],
      ['EFTA00000008', { shard: shard(1), rowGroup: 3, row: 12 }],
      ['EFTA00000003', { shard: shard(0), rowGroup: 0, row: 2 }],
      ['EFTA00000005', { shard: shard(0), rowGroup: 1, row: 0 }],
      ['EFTA00000010', { shard: shard(1), rowGroup: 3, row: 25 }],
    ]);
    const plan = planRowGroupReads(places);
    expect(plan.map((g) => [g.shard.path, g.rowGroup, g.from, g.to, g.ids])).toEqual([
      [shard(0).path, 0, 2, 8, ['EFTA00000003', 'EFTA00000002']],
      [shard(0).path, 1, 0, 1, ['EFTA00000005']],
      [shard(1).path, 3, 12, 41, ['EFTA00000008', 'EFTA00000010', 'EFTA00000009']],
    ]);
    // Every id is in exactly one read.
    expect(plan.flatMap((g) => g.ids).sort()).toEqual([...places.keys()].sort());
  });

  it('plans nothing for no places', () => {
    expect(planRowGroupReads(new Map())).toEqual([]);
  });
});
