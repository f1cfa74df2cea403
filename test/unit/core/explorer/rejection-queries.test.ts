/** The Rejections page's SQL (funnel, list, one candidate) against duckdb-wasm in Node. */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  candidateDetail,
  candidatePoints,
  funnel,
  FUNNEL_STAGES,
  REJECTION_FACETS,
  rejections,
  type FunnelStage,
  type RejectionFacet,
  type RejectionFilter,
  type RejectionRow,
} from '../../../../src/core/explorer/rejection-queries.ts';
import type { Sql } from '../../../../src/core/explorer/sql.ts';
import { candidate, cmp, handTables, type SampleFiles, sampleTables, SETUP_TIMEOUT } from './explorer-db.ts';

const STAGE_ORDER = ['standalone', 'answerability', 'necessity', 'adjudication', 'error'];
const stageRank = (stage: string) => (STAGE_ORDER.includes(stage) ? STAGE_ORDER.indexOf(stage) : 5);

/** Rejections and pool drops as the list shows them, from the files alone. */
function expectedRows(files: SampleFiles): RejectionRow[] {
  const byId = new Map(files.candidates.map((c) => [c.task_id, c]));
  const rejected = files.rejected.map((r) => {
    const [stage, category] = r.reason.startsWith('adjudication:')
      ? ['adjudication', r.reason.slice('adjudication:'.length)]
      : r.reason.startsWith('error:')
        ? ['error', 'error']
        : [r.reason, null];
    return { task_id: r.task_id, type: r.type, stage: stage!, category, reason: r.reason };
  });
  const dropped = files.dropped.map((d) => ({
    task_id: d.task_id,
    type: byId.get(d.task_id)?.type ?? 'unknown',
    stage: 'pooling',
    category: d.reason,
    reason: d.reason,
  }));
  return [...rejected, ...dropped]
    .map((r) => ({ ...r, question: byId.get(r.task_id)?.question ?? null }))
    .sort(
      (a, b) =>
        stageRank(a.stage) - stageRank(b.stage) ||
        (a.category === b.category
          ? 0
          : a.category === null
            ? 1
            : b.category === null
              ? -1
              : cmp(a.category, b.category)) ||
        cmp(a.task_id, b.task_id),
    );
}

function facetOf(row: RejectionRow, facet: RejectionFacet): string {
  return row[facet] ?? '—';
}

function expectedFacets(rows: RejectionRow[], filter: RejectionFilter) {
  const out = {} as Record<RejectionFacet, Array<{ value: string; count: number }>>;
  for (const facet of REJECTION_FACETS) {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const kept = REJECTION_FACETS.every(
        (f) => f === facet || !filter[f]?.length || filter[f]!.includes(facetOf(row, f)),
      );
      if (kept) counts.set(facetOf(row, facet), (counts.get(facetOf(row, facet)) ?? 0) + 1);
    }
    out[facet] = [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || cmp(a.value, b.value));
  }
  return out;
}

describe('rejection queries on the sample release', () => {
  let sql: Sql;
  let files: SampleFiles;
  let rows: RejectionRow[];

  beforeAll(async () => {
    ({ sql, files } = await sampleTables());
    rows = expectedRows(files);
  }, SETUP_TIMEOUT);

  it('counts the funnel per type: drafted, rejected per stage, dropped at pooling, shipped', async () => {
    const types = [...new Set(files.candidates.map((c) => c.type))];
    const typeOf = new Map(files.candidates.map((c) => [c.task_id, c.type]));
    const expected = types.map((type) => {
      const rejected = Object.fromEntries(FUNNEL_STAGES.map((s) => [s, 0])) as Record<FunnelStage, number>;
      for (const r of files.rejected.filter((x) => x.type === type)) {
        const stage = r.reason.split(':')[0] as FunnelStage;
        rejected[stage]++;
      }
      rejected.pooling = files.dropped.filter((d) => typeOf.get(d.task_id) === type).length;
      const candidates = files.candidates.filter((c) => c.type === type).length;
      const lost = Object.values(rejected).reduce((a, b) => a + b, 0);
      return { type, candidates, rejected, shipped: candidates - lost };
    });
    const rows = await funnel(sql);
    expect(rows).toEqual(expected);
    // The logs are complete, so what survives is what shipped (the dev split is drawn from full).
    const shipped = new Set([...files.full, ...files.dev].map((t) => t.task_id));
    expect(rows.reduce((n, r) => n + r.shipped, 0)).toBe(shipped.size);
  });

  it("gives every candidate, in the log's order, with the stage that stopped it or 'shipped'", async () => {
    const points = await candidatePoints(sql);
    expect(points.map((p) => p.task_id)).toEqual(files.candidates.map((c) => c.task_id));
    const stageOf = new Map(rows.map((r) => [r.task_id, r.stage]));
    expect(points.map((p) => p.stage)).toEqual(files.candidates.map((c) => stageOf.get(c.task_id) ?? 'shipped'));
    expect(points.find((p) => p.stage === 'shipped')?.question).toBe(
      files.candidates.find((c) => !stageOf.has(c.task_id))?.question,
    );
  });

  it('lists rejections and pool drops in stage order with their questions and facet counts', async () => {
    const page = await rejections(sql, {}, 0, 10_000);
    expect(page.total).toBe(files.rejected.length + files.dropped.length);
    expect(page.rows).toEqual(rows);
    expect(page.facets).toEqual(expectedFacets(rows, {}));
  });

  it('filters by stage, category and type, each facet counted under the others', async () => {
    for (const filter of [
      { stage: ['adjudication'] },
      { stage: ['pooling', 'necessity'], type: ['single_hop'] },
      { category: ['wrong', 'ambiguous'] },
      { category: ['—'] },
    ] satisfies RejectionFilter[]) {
      const expected = rows.filter((r) =>
        REJECTION_FACETS.every((f) => !filter[f]?.length || filter[f]!.includes(facetOf(r, f))),
      );
      const page = await rejections(sql, filter, 0, 10_000);
      expect(page.total, JSON.stringify(filter)).toBe(expected.length);
      expect(page.rows).toEqual(expected);
      expect(page.facets).toEqual(expectedFacets(rows, filter));
    }
  });

  it('pages, and restricts to given candidates (free-text hits); no hits match nothing', async () => {
    expect((await rejections(sql, {}, 10, 5)).rows).toEqual(rows.slice(10, 15));
    const ids = [rows[3]!.task_id, rows[40]!.task_id, 'not-a-candidate'];
    const page = await rejections(sql, {}, 0, 100, ids);
    expect(page.rows).toEqual([rows[3], rows[40]]);
    expect(page.total).toBe(2);
    expect((await rejections(sql, {}, 0, 100, [])).total).toBe(0);
  });

  it('shows one candidate and where it ended: a gauntlet stage, pooling, or nowhere (shipped)', async () => {
    const details = new Map(files.details.map((d) => [d.task_id, d]));
    const rejected = files.rejected.find((r) => r.reason.startsWith('adjudication:'))!;
    const c = files.candidates.find((x) => x.task_id === rejected.task_id)!;
    expect(await candidateDetail(sql, rejected.task_id)).toEqual({
      task_id: c.task_id,
      type: c.type,
      question: c.question,
      answer: c.answer,
      items: c.items,
      source_doc_ids: c.source_doc_ids,
      false_element: c.false_element ?? null,
      provenance: c.provenance,
      outcome: {
        stage: 'adjudication',
        category: rejected.reason.slice('adjudication:'.length),
        reason: rejected.reason,
        saw: details.get(c.task_id)!.saw,
        why: details.get(c.task_id)!.why,
      },
    });
    const drop = files.dropped[0]!;
    expect((await candidateDetail(sql, drop.task_id))?.outcome).toEqual({
      stage: 'pooling',
      category: drop.reason,
      reason: drop.reason,
      saw: details.get(drop.task_id)!.saw,
      why: details.get(drop.task_id)!.why,
    });
    const shipped = files.full[0]!;
    expect((await candidateDetail(sql, shipped.task_id))?.outcome).toBeNull();
    expect(await candidateDetail(sql, 'no-such-candidate')).toBeUndefined();
  });
});

describe('rejection queries on a hand-built build log', () => {
  let sql: Sql;

  beforeAll(async () => {
    sql = await handTables({
      candidates: [
        candidate({ task_id: 'c1', type: 'timeline' }),
        candidate({ task_id: 'c2', type: 'single_hop' }),
        candidate({ task_id: 'c3', type: 'timeline' }),
      ],
      // An error rejection, a rejection of a candidate missing from candidates.jsonl, a pool drop
      // of an unknown candidate.
      rejected: [
        { task_id: 'c1', type: 'timeline', reason: 'error:reader crashed' },
        { task_id: 'gone', type: 'dossier', reason: 'standalone' },
      ],
      poolDropped: [{ task_id: 'ghost', reason: 'unstable_pool' }],
    });
  }, SETUP_TIMEOUT);

  it('counts types of rejections without a candidate, and pool drops of unknown candidates as "unknown"', async () => {
    const zero = Object.fromEntries(FUNNEL_STAGES.map((s) => [s, 0])) as Record<FunnelStage, number>;
    expect(await funnel(sql)).toEqual([
      { type: 'timeline', candidates: 2, rejected: { ...zero, error: 1 }, shipped: 1 },
      { type: 'single_hop', candidates: 1, rejected: zero, shipped: 1 },
      { type: 'dossier', candidates: 0, rejected: { ...zero, standalone: 1 }, shipped: -1 },
    ]);
  });

  it('lists an error with category "error", a missing candidate with no question, an unknown drop as "unknown"', async () => {
    const page = await rejections(sql, {}, 0, 10);
    expect(page.rows).toEqual([
      { task_id: 'gone', type: 'dossier', stage: 'standalone', category: null, reason: 'standalone', question: null },
      {
        task_id: 'c1',
        type: 'timeline',
        stage: 'error',
        category: 'error',
        reason: 'error:reader crashed',
        question: 'Candidate c1?',
      },
      {
        task_id: 'ghost',
        type: 'unknown',
        stage: 'pooling',
        category: 'unstable_pool',
        reason: 'unstable_pool',
        question: null,
      },
    ]);
    expect(page.facets.category).toEqual([
      { value: 'error', count: 1 },
      { value: 'unstable_pool', count: 1 },
      { value: '—', count: 1 },
    ]);
    expect((await candidateDetail(sql, 'ghost'))?.outcome).toEqual({
      stage: 'pooling',
      category: 'unstable_pool',
      reason: 'unstable_pool',
      saw: null,
      why: null,
    });
  });
});
