/** Filling the explorer's tables in duckdb-wasm (Node) from a loaded release. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../../../src/core/explorer/sql.ts';
import { EXPLORER_TABLES } from '../../../../src/core/explorer/tables.ts';
import type { Task } from '../../../../src/core/release/types.ts';
import { candidate, doc, handTables, keyed, nodeSql, questionOf, SETUP_TIMEOUT, task } from './explorer-db.ts';

async function counts(sql: Sql): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of EXPLORER_TABLES)
    out[name] = (await sql.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${name}`))[0]!.n;
  return out;
}

describe('the explorer tables', () => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await nodeSql();
  }, SETUP_TIMEOUT);

  it('exist, empty, for a release with nothing but questions (empty Arrow tables become CREATE TABLE)', async () => {
    await handTables({ splits: { full: { questions: [questionOf(task({ task_id: 'q1' }))] } } });
    expect(await counts(sql)).toEqual({ ...Object.fromEntries(EXPLORER_TABLES.map((t) => [t, 0])), tasks: 1 });
    // Columns keep their types, so queries over them still bind.
    expect(await sql.all('SELECT n_gold + 1 AS x, has_key AND TRUE AS y FROM tasks')).toEqual([{ x: null, y: false }]);
  });

  it('hold questions without an answer key as keyless rows', async () => {
    await handTables({
      splits: {
        full: { questions: [questionOf(task({ task_id: 'q1', type: 'timeline', question: 'When?' }))] },
        dev: keyed([
          task({ task_id: 'k1', answer: 'yes', gold_docs: ['D1', 'D2'], items: [{ item: 'x', doc_ids: ['D1'] }] }),
        ]),
      },
    });
    const rows = await sql.all(
      'SELECT task_id, split, type, question, answer, has_key, n_gold, n_items, gold_docs_json, provenance_json FROM tasks ORDER BY split',
    );
    expect(rows).toEqual([
      {
        task_id: 'k1',
        split: 'dev',
        type: 'single_hop',
        question: 'Question of k1?',
        answer: 'yes',
        has_key: true,
        n_gold: 2,
        n_items: 1,
        gold_docs_json: '["D1","D2"]',
        provenance_json: '{"generator_model":"test","pipeline_version":"test"}',
      },
      {
        task_id: 'q1',
        split: 'full',
        type: 'timeline',
        question: 'When?',
        answer: null,
        has_key: false,
        n_gold: null,
        n_items: null,
        gold_docs_json: null,
        provenance_json: null,
      },
    ]);
    expect(await sql.all('SELECT task_id, split, doc_id FROM gold ORDER BY doc_id')).toEqual([
      { task_id: 'k1', split: 'dev', doc_id: 'D1' },
      { task_id: 'k1', split: 'dev', doc_id: 'D2' },
    ]);
  });

  it("give each task its source documents' worst quality", async () => {
    const sources = (ids: string[]): Task => task({ task_id: ids.join('+') || 'none', source_doc_ids: ids });
    await handTables({
      splits: {
        full: keyed([
          sources(['C1', 'D1', 'G1']),
          sources(['C1', 'D1']),
          sources(['C1', 'C2']),
          sources(['C1', 'MISSING']),
          sources([]),
        ]),
      },
      docs: [doc('C1'), doc('C2'), doc('D1', 'degraded'), doc('G1', 'garbage')],
    });
    expect(await sql.all('SELECT task_id, source_quality FROM tasks ORDER BY row_no')).toEqual([
      { task_id: 'C1+D1+G1', source_quality: 'garbage' },
      { task_id: 'C1+D1', source_quality: 'degraded' },
      { task_id: 'C1+C2', source_quality: 'clean' },
      { task_id: 'C1+MISSING', source_quality: 'clean' },
      { task_id: 'none', source_quality: null },
    ]);
  });

  it('take the pooled tasks of a build folder when it has no split files, and parse rejection reasons', async () => {
    await handTables({
      layout: 'build',
      pooled: [task({ task_id: 'p1', gold_docs: ['D1'] })],
      candidates: [candidate({ task_id: 'p1' }), candidate({ task_id: 'r1' }), candidate({ task_id: 'r2' })],
      rejected: [
        { task_id: 'r1', type: 'single_hop', reason: 'adjudication:ambiguous' },
        { task_id: 'r2', type: 'single_hop', reason: 'error:timeout' },
      ],
      rejectionDetails: [
        {
          task_id: 'r1',
          stage: 'adjudication',
          reason: 'adjudication:ambiguous',
          saw: 'two answers',
          why: 'both fit',
        },
        { task_id: 'x', stage: 'pool', reason: 'pool:unstable_pool', saw: 'pool', why: 'unstable' },
      ],
    });
    expect(await sql.all('SELECT task_id, split, has_key, n_gold FROM tasks')).toEqual([
      { task_id: 'p1', split: 'full', has_key: true, n_gold: 1 },
    ]);
    expect(await sql.all('SELECT task_id, stage, category, saw, why FROM rejected ORDER BY task_id')).toEqual([
      { task_id: 'r1', stage: 'adjudication', category: 'ambiguous', saw: 'two answers', why: 'both fit' },
      { task_id: 'r2', stage: 'error', category: null, saw: null, why: null },
    ]);
    expect(await sql.all('SELECT task_id, saw, why FROM pool_details')).toEqual([
      { task_id: 'x', saw: 'pool', why: 'unstable' },
    ]);
  });

  it('replace the previous release entirely', async () => {
    await handTables({ splits: { full: keyed([task({ task_id: 'a' }), task({ task_id: 'b' })]) } });
    await handTables({ splits: { dev: keyed([task({ task_id: 'z' })]) } });
    expect(await sql.all('SELECT task_id, split FROM tasks')).toEqual([{ task_id: 'z', split: 'dev' }]);
  });
});
