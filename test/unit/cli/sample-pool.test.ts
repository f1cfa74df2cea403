/**
 * The sample's pools come from the benchmark's three retrievers: for every pooled task, the docs
 * pool.jsonl credits to bm25 / dense / hybrid are exactly the top 20 that the shipped indexes and
 * model give through the real search stack (`run --method`, the search worker's code).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FolderSource } from '../../../src/adapters/node/folder-source.ts';
import { nodeEmbedderFor } from '../../../src/cli/index-build/node-embedder.ts';
import type { PoolEntry, Task } from '../../../src/core/release/types.ts';
import { SearchSession } from '../../../src/core/search/index.ts';
import { SEARCH_METHODS } from '../../../src/core/search/types.ts';

const sampleDir = path.resolve(import.meta.dirname, '../../../static-data/sample');
const jsonl = <T>(p: string): T[] =>
  readFileSync(path.join(sampleDir, p), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

const pooled = jsonl<Task>('build/pooled.jsonl').filter((t) => t.provenance.pool_size !== undefined);
const credited = new Map<string, Map<string, Set<string>>>();
for (const e of jsonl<PoolEntry>('build/pool.jsonl')) {
  const byMethod = credited.get(e.task_id) ?? new Map<string, Set<string>>();
  credited.set(e.task_id, byMethod);
  for (const m of e.from) byMethod.set(m, (byMethod.get(m) ?? new Set()).add(e.doc_id));
}

let session: SearchSession;
beforeAll(async () => {
  session = await SearchSession.open(new FolderSource(sampleDir), {
    embedderFor: nodeEmbedderFor({ base: 'http://127.0.0.1:9/unused', key: undefined }),
  });
}, 60_000);

describe('sample pooling', () => {
  it('pools answerable tasks', () => {
    expect(pooled.length).toBeGreaterThanOrEqual(125);
  });

  for (const method of SEARCH_METHODS) {
    it(`credits ${method} with exactly its top 20 for every pooled task`, async () => {
      for (const t of pooled) {
        const top = await session.rank(method, t.question, 20);
        const got = credited.get(t.task_id)?.get(method) ?? new Set();
        expect([...got].sort(), `${t.task_id} ${method}`).toEqual(top.map((d) => d.doc_id).sort());
      }
    }, 120_000);
  }
});
