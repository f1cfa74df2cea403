import { describe, expect, it } from 'vitest';
import {
  chainProviders,
  mapProvider,
  parquetDocsProvider,
  perDocProvider,
} from '../../../../src/core/audit/doc-text.ts';
import { loadAuditInputs } from '../../../../src/core/audit/inputs.ts';
import { auditReport, runAudit, summaryLines } from '../../../../src/core/audit/report.ts';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import { HAND_CORPUS, HAND_DOCS, writeHandRelease } from '../../../fixtures/audit/hand-release.ts';
import path from 'node:path';
import { readFileSync } from 'node:fs';

describe('document text providers', () => {
  it('asks the next provider only for what the first could not read', async () => {
    const asked: string[] = [];
    const first = mapProvider('loaded', new Map([['A', 'text a']]));
    const second = perDocProvider('remote', async (id) => {
      asked.push(id);
      if (id === 'ERR') throw new Error('network');
      return id === 'B' ? 'text b' : undefined;
    });
    const progress: number[] = [];
    const got = await chainProviders([first, second]).read(['A', 'B', 'C', 'ERR'], (d) => progress.push(d));
    expect(Object.fromEntries(got)).toEqual({ A: 'text a', B: 'text b' });
    expect(asked.sort()).toEqual(['B', 'C', 'ERR']);
    expect(progress.at(-1)).toBe(4);
  });

  it("reads only the wanted rows' text from a docs.parquet", async () => {
    const bytes = readFileSync(path.resolve(import.meta.dirname, '../../../../static-data/sample/docs.parquet'));
    let read = 0;
    const file = {
      byteLength: bytes.byteLength,
      slice: (s: number, e?: number) => {
        read += (e ?? bytes.byteLength) - s;
        return bytes.buffer.slice(bytes.byteOffset + s, bytes.byteOffset + (e ?? bytes.byteLength));
      },
    };
    const { parquetReadObjects } = await import('hyparquet');
    const all = (await parquetReadObjects({
      file: { byteLength: bytes.byteLength, slice: file.slice },
      columns: ['doc_id', 'text'],
    })) as Array<{ doc_id: string; text: string }>;
    read = 0;
    const want = [all[5]!.doc_id, all[2900]!.doc_id, 'SMPL99999999'];
    const got = await parquetDocsProvider('docs.parquet', file).read(want);
    expect([...got.keys()].sort()).toEqual([all[5]!.doc_id, all[2900]!.doc_id].sort());
    expect(got.get(all[2900]!.doc_id)).toBe(all[2900]!.text);
    // the footer, the doc_id column and the text of the two row groups holding them
    expect(read).toBeLessThan(bytes.byteLength / 2);
  });
});

describe('the audit run over a loaded release', () => {
  it('reads the release, audits it and writes the summary', async () => {
    const folder = await writeHandRelease();
    const inputs = await loadAuditInputs(new FolderSource(folder));
    expect(inputs).toMatchObject({ releaseId: 'hand', datasetVersion: 'v-hand', invalid: [] });
    expect(inputs.shippedCache.size).toBe(12);
    const run = await runAudit({
      release: { id: 'hand', title: 't', dataset_version: 'v-hand' },
      split: 'full',
      tasks: inputs.tasks,
      docs: inputs.releaseDocs,
      profile: inputs.profile!,
      submissions: inputs.submissions.map((s) => ({ slug: s.slug, predictionsText: s.predictionsText! })),
      lookup: async (k) => inputs.shippedCache.get(k),
    });
    expect(run.documents).toEqual({ source: 'docs.jsonl', wanted: 4, read: 4 });
    const lines = summaryLines(auditReport({ id: 'hand', title: 't', dataset_version: 'v-hand' }, run));
    expect(lines).toContain('  single_hop 66.7% (2/3)  [2 verbatim]');
    expect(lines).toContain('  aggregation 50.0% (1/2 items)  [0 verbatim]');
  });

  it('audits the same tasks over zero documents when no text can be had', async () => {
    const folder = await writeHandRelease();
    const inputs = await loadAuditInputs(new FolderSource(folder));
    const run = await runAudit({
      release: { id: 'hand', title: 't', dataset_version: 'v-hand' },
      split: 'full',
      tasks: inputs.tasks,
      docs: mapProvider('nothing', new Map()),
    });
    expect(run.documents.read).toBe(0);
    expect(run.byType.map((t) => [t.type, t.checked, t.unread])).toEqual([
      ['single_hop', 0, 3],
      ['timeline', 0, 1],
      ['aggregation', 0, 2],
    ]);
    expect(run.cutoff.tasksFlagged).toBe(0);
    // with only one document readable, what it grounds is decided and the rest is not
    const partial = await runAudit({
      release: { id: 'hand', title: 't', dataset_version: 'v-hand' },
      split: 'full',
      tasks: inputs.tasks,
      docs: mapProvider('one', new Map([[HAND_DOCS.D1, HAND_CORPUS[0]!.text]])),
    });
    expect(partial.byType.map((t) => [t.type, t.grounded, t.checked, t.unread])).toEqual([
      ['single_hop', 1, 1, 2],
      ['timeline', 0, 0, 1],
      ['aggregation', 1, 1, 1],
    ]);
  });
});
