/** The Document page's SQL against duckdb-wasm in Node. */
import { beforeAll, describe, expect, it } from 'vitest';
import { docDetail, docTaskCounts } from '../../../../src/core/explorer/doc-queries.ts';
import type { Sql } from '../../../../src/core/explorer/sql.ts';
import { doc, handTables, keyed, SETUP_TIMEOUT, task } from './explorer-db.ts';

describe('one document: its row, entities and the tasks that use it', () => {
  let sql: Sql;

  beforeAll(async () => {
    sql = await handTables({
      splits: {
        full: keyed([
          task({ task_id: 'a', question: 'A?', gold_docs: ['D1'], source_doc_ids: ['D1'] }),
          task({ task_id: 'b', type: 'timeline', question: 'B?', gold_docs: ['D2'], source_doc_ids: ['D1'] }),
          task({ task_id: 'c', question: 'C?', gold_docs: ['D1'] }),
        ]),
        dev: keyed([task({ task_id: 'c', question: 'C?', gold_docs: ['D1'] })]),
      },
      docs: [doc('D1', 'degraded'), doc('D2')],
      pool: [
        { task_id: 'b', doc_id: 'D1', judgement: 'partial', from: ['bm25'] },
        { task_id: 'a', doc_id: 'D2', judgement: 'irrelevant', from: ['dense'] },
      ],
      targets: { 'ada quill': { aliases: ['Ada Quill'], doc_ids: ['D1'] } },
      entities: {
        'ada quill': { aliases: ['Ada Quill'], doc_ids: ['D1', 'D2'] },
        'harbour board': { aliases: ['Harbour Board'], doc_ids: ['D1'] },
        'zed co': { aliases: ['Zed Co'], doc_ids: ['D1'] },
      },
    });
  }, SETUP_TIMEOUT);

  it('gives the row, targets first then names, and the uses: gold, then source, then pool, by split and row', async () => {
    const detail = await docDetail(sql, 'D1');
    expect(detail.row).toEqual({
      doc_id: 'D1',
      row_no: 0,
      quality: 'degraded',
      file_name: 'D1.txt',
      file_type: 'txt',
      online_url: '',
      n_chars: 'Text of D1.'.length,
    });
    expect(detail.entities).toEqual([
      { name: 'ada quill', kind: 'target' },
      { name: 'harbour board', kind: 'entity' },
      { name: 'zed co', kind: 'entity' },
    ]);
    expect(detail.uses).toEqual([
      { task_id: 'c', split: 'dev', type: 'single_hop', question: 'C?', role: 'gold' },
      { task_id: 'a', split: 'full', type: 'single_hop', question: 'A?', role: 'gold' },
      { task_id: 'c', split: 'full', type: 'single_hop', question: 'C?', role: 'gold' },
      { task_id: 'a', split: 'full', type: 'single_hop', question: 'A?', role: 'source' },
      { task_id: 'b', split: 'full', type: 'timeline', question: 'B?', role: 'source' },
      { task_id: 'b', split: 'full', type: 'timeline', question: 'B?', role: 'pool:partial' },
    ]);
  });

  it('says nothing it does not know about an unknown document', async () => {
    expect(await docDetail(sql, 'NOPE')).toEqual({ row: undefined, entities: [], uses: [] });
  });

  it("counts per document the split's tasks that hold it in their gold set and in their pool", async () => {
    expect(await docTaskCounts(sql, 'full')).toEqual([
      { doc_id: 'D1', gold: 2, pool: 1 },
      { doc_id: 'D2', gold: 1, pool: 1 },
    ]);
    // Task c is the dev split's only task; the pool's tasks are all of the full split.
    expect(await docTaskCounts(sql, 'dev')).toEqual([{ doc_id: 'D1', gold: 1, pool: 0 }]);
  });
});
