/**
 * The data worker's API (createExplorerData) in Node over duckdb-wasm: loading the sample from
 * picked files (first files, then the rest into DuckDB), then the questions that go beyond one query module (free text through the Orama
 * hits table, document text and chunks read by range from the parquet files, a refused load).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import { createExplorerData } from '../../../../src/core/explorer/service.ts';
import type { SourceSpec } from '../../../../src/core/release/source-spec.ts';
import { startNodeDuckDb } from '../../../support/node-duckdb.ts';
import { readSampleFiles, sampleDir, type SampleFiles, SETUP_TIMEOUT } from './explorer-db.ts';

/** A folder as the page hands picked files to the worker. */
function pickedFolder(dir: string, change?: (file: string, bytes: Uint8Array) => Uint8Array): SourceSpec {
  return {
    kind: 'files',
    label: path.basename(dir),
    files: new FolderSource(dir).list().map((file) => {
      const bytes = new Uint8Array(readFileSync(path.join(dir, file)));
      return {
        path: `sample/${file}`,
        file: new Blob([(change ? change(file, bytes) : bytes) as Uint8Array<ArrayBuffer>]),
      };
    }),
  };
}

const byRow = { by: 'row_no', desc: false } as const;

describe('the explorer service on the sample release', () => {
  let files: SampleFiles;
  let explorer: ReturnType<typeof createExplorerData>;

  beforeAll(async () => {
    files = await readSampleFiles();
    explorer = createExplorerData(() => startNodeDuckDb(), 'http://localhost/');
    let completed!: () => void;
    let refused!: (message: string) => void;
    const done = new Promise<void>((resolve, reject) => {
      completed = resolve;
      refused = (message) => reject(new Error(message));
    });
    const outcome = await explorer.load(pickedFolder(sampleDir), { completed, refused });
    if (!outcome.ok) throw new Error(`the sample did not load: ${outcome.error}`);
    if (!outcome.summary.complete) {
      void explorer.completeLoad();
      await done;
    }
  }, SETUP_TIMEOUT);

  it('summarises the load: counts per split and type, answer keys, submissions', () => {
    const summary = explorer.summary()!;
    expect(summary.descriptor.id).toBe('sample');
    expect(summary.hasKey).toEqual({ full: true, dev: true });
    expect(summary.counts.reduce((n, c) => n + c.count, 0)).toBe(files.full.length + files.dev.length);
    expect(summary.submissions.length).toBeGreaterThan(0);
    expect(summary.files.find((f) => f.path === 'docs.parquet')?.status).toBe('deferred');
  });

  it('finds tasks by free text through the search index, and by a pasted task id', async () => {
    const target = files.full[3]!;
    const word = target.question.split(/\W+/).filter((w) => w.length > 6)[0]!;
    const page = await explorer.taskPage({ text: word }, byRow, 0, 500);
    const expected = [...files.full, ...files.dev].filter((t) =>
      [t.question, t.answer ?? '', ...(t.items ?? []).map((i) => i.item)].some((s) =>
        s.toLowerCase().includes(word.toLowerCase()),
      ),
    );
    expect(page.rows.map((r) => r.task_id)).toContain(target.task_id);
    expect(page.total).toBeGreaterThanOrEqual(new Set(expected.map((t) => t.task_id)).size);
    expect(page.total).toBe(page.rows.length);
    const byId = await explorer.taskRows({ text: target.task_id }, byRow, 0, 10);
    expect(byId.rows.map((r) => r.task_id)).toEqual([target.task_id]);
    expect(await explorer.taskIds({ text: target.task_id }, byRow)).toEqual([target.task_id]);
    const neighbours = await explorer.taskNeighbours({ text: word }, byRow, target.task_id, 'full');
    expect(neighbours.total).toBe(page.total);
  });

  it('reads a document text from docs.parquet by row, and its chunks from chunks.parquet', async () => {
    const docId = files.full[0]!.gold_docs[0]!;
    const text = await explorer.docText(docId);
    expect(text).toMatch(/\S/);
    const chunks = await explorer.chunks(docId);
    expect(chunks!.length).toBeGreaterThan(0);
    expect(chunks!.every((c) => c.doc_id === docId)).toBe(true);
    expect(text).toContain(chunks![0]!.text.slice(0, 40));
    expect(await explorer.docText('NOPE')).toBeUndefined();
    expect(await explorer.chunks('NOPE')).toEqual([]);
    expect((await explorer.docDetail(docId)).row?.doc_id).toBe(docId);
  });

  it('answers the build-log, entity and card questions', async () => {
    const rejected = files.rejected[0]!;
    const candidateWord = files.candidates
      .find((c) => c.task_id === rejected.task_id)!
      .question.split(/\W+/)
      .filter((w) => w.length > 6)[0]!;
    const hits = await explorer.rejections({ text: candidateWord }, 0, 500);
    expect(hits.rows.map((r) => r.task_id)).toContain(rejected.task_id);
    expect((await explorer.rejections({}, 0, 1)).total).toBe(files.rejected.length + files.dropped.length);
    expect((await explorer.candidate(rejected.task_id))?.outcome?.reason).toBe(rejected.reason);
    expect((await explorer.funnel()).length).toBeGreaterThan(0);
    expect((await explorer.entities(false)).length).toBeGreaterThanOrEqual(Object.keys(files.targets).length);
    expect((await explorer.stats()).candidates).toBe(files.candidates.length);
    expect((await explorer.taskDetail(files.dev[0]!.task_id, 'dev'))?.split).toBe('dev');
    expect((await explorer.docs([files.docs[0]!.doc_id])).map((d) => d.doc_id)).toEqual([files.docs[0]!.doc_id]);
    expect((await explorer.entityTasks(Object.keys(files.targets)[0]!)).entity?.kind).toBe('target');
  });

  it('refuses a release whose pinned file changed, naming the file, and keeps the loaded one', async () => {
    const outcome = await explorer.load(
      pickedFolder(sampleDir, (file, bytes) =>
        file === 'full/questions.jsonl' ? bytes.map((b, i) => (i === 10 ? b ^ 1 : b)) : bytes,
      ),
    );
    expect(outcome).toMatchObject({ ok: false, file: 'full/questions.jsonl' });
    expect(explorer.summary()?.descriptor.id).toBe('sample');
    expect((await explorer.taskRows({}, byRow, 0, 1)).total).toBe(files.full.length + files.dev.length);
  });
});
