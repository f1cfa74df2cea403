/** The dataset card's recomputed figures against duckdb-wasm in Node. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../../../src/core/explorer/sql.ts';
import { releaseStats } from '../../../../src/core/explorer/stats.ts';
import { doc, handTables, keyed, type SampleFiles, sampleTables, SETUP_TIMEOUT, task } from './explorer-db.ts';

function countBy<T>(rows: readonly T[], key: (row: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of rows) out[key(row)] = (out[key(row)] ?? 0) + 1;
  return out;
}

describe('release statistics', () => {
  let files: SampleFiles;
  let sql: Sql;

  beforeAll(async () => {
    ({ sql, files } = await sampleTables());
  }, SETUP_TIMEOUT);

  it("recompute the sample's figures from its files", async () => {
    const stats = await releaseStats(sql);
    const adjudicated = files.rejected.filter((r) => r.reason.startsWith('adjudication:'));
    expect(stats).toMatchObject({
      candidates: files.candidates.length,
      rejected: files.rejected.length,
      rejectedByStage: countBy(files.rejected, (r) => r.reason.split(':')[0]!),
      adjudicationCategories: countBy(adjudicated, (r) => r.reason.slice('adjudication:'.length)),
      dropped: files.dropped.length,
      droppedByReason: countBy(files.dropped, (d) => d.reason),
      docs: files.docs.length,
      docsByQuality: countBy(files.docs, (d) => d.quality),
      has: { candidates: true, docs: true },
    });
    expect(stats.tasks.reduce((n, t) => n + t.count, 0)).toBe(files.full.length + files.dev.length);
    expect(stats.funnel.map((f) => f.type).sort()).toEqual([...new Set(files.candidates.map((c) => c.type))].sort());
  });

  it('say what a release without build logs lacks, with no funnel', async () => {
    await handTables({ splits: { full: keyed([task({ task_id: 'a' })]) }, docs: [doc('D1'), doc('D2', 'garbage')] });
    expect(await releaseStats(sql)).toEqual({
      tasks: [{ split: 'full', type: 'single_hop', count: 1 }],
      candidates: 0,
      rejected: 0,
      rejectedByStage: {},
      adjudicationCategories: {},
      dropped: 0,
      droppedByReason: {},
      docs: 2,
      docsByQuality: { clean: 1, garbage: 1 },
      funnel: [],
      has: { candidates: false, docs: true },
    });
  });
});
