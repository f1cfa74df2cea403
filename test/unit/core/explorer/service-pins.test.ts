/**
 * Issue 12 with issue 10's parquet pins: the first view and an embed read docs.parquet by ranges
 * and never whole; the file is hashed against its pin once the page says its view is on screen
 * (completeLoad), and a mismatch then refuses the release.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExplorerData, type LoadEvents } from '../../../../src/core/explorer/service.ts';
import { deferred } from '../../../support/deferred.ts';
import { sampleDir, SETUP_TIMEOUT } from './explorer-db.ts';

const BASE = 'http://release.test/sample/';
const DOCS = path.join(sampleDir, 'docs.parquet');
const docsLength = readFileSync(DOCS).byteLength;

interface Served {
  path: string;
  range?: string;
}

/**
 * The sample folder over HTTP (HEAD, ranges), noting every request; `change` alters a file's
 * bytes; `hold` keeps a file's answer back until the promise it gives settles.
 */
function sampleHost(
  change?: (file: string, bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>,
  hold?: (file: string) => Promise<void> | undefined,
) {
  const served: Served[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const file = url.pathname.replace('/sample/', '');
    const range = new Headers(init?.headers).get('range') ?? undefined;
    served.push({ path: file, range });
    await hold?.(file);
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(readFileSync(path.join(sampleDir, file)));
    } catch {
      return new Response('not found', { status: 404 });
    }
    if (change) bytes = change(file, bytes);
    if (init?.method === 'HEAD') return new Response(null, { headers: { 'content-length': String(bytes.byteLength) } });
    const m = range && /^bytes=(\d+)-(\d+)$/.exec(range);
    if (m) return new Response(bytes.slice(Number(m[1]), Number(m[2]) + 1), { status: 206 });
    return new Response(bytes);
  }) as typeof fetch;
  /** Reads of docs.parquet that cover the whole file (the hash). */
  const wholeDocsReads = () =>
    served.filter((s) => s.path === 'docs.parquet' && s.range === `bytes=0-${docsLength - 1}`).length;
  /** Range reads of docs.parquet other than its footer (the corpus rows' columns). */
  const rowReads = () =>
    served.filter((s) => s.path === 'docs.parquet' && s.range && !s.range.endsWith(`-${docsLength - 1}`)).length;
  /** An explorer that reads through this host and never starts DuckDB. */
  const explorer = () => createExplorerData(neverStartsDuckDb, 'http://localhost/', { fetchFn });
  return { fetchFn, served, wholeDocsReads, rowReads, explorer };
}

function neverStartsDuckDb(): Promise<never> {
  return Promise.reject(new Error('DuckDB must not start here'));
}

function refusal(): { events: LoadEvents; refused: Promise<{ message: string; file?: string }> } {
  let events!: LoadEvents;
  const refused = new Promise<{ message: string; file?: string }>((resolve) => {
    events = { refused: (message, file) => resolve({ message, file }) };
  });
  return { events, refused };
}

function firstTaskWithGold(): { task_id: string; gold_docs: string[] } {
  return readFileSync(path.join(sampleDir, 'full/tasks.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { task_id: string; gold_docs: string[] })
    .find((t) => t.gold_docs.length > 0)!;
}

/** How many range reads of docs.parquet (footer aside) reading one document's text takes. */
async function rowReadsForText(docId: string): Promise<number> {
  const host = sampleHost();
  const explorer = host.explorer();
  await explorer.load({ kind: 'url', base: BASE }, {}, { first: 'other' });
  const before = host.rowReads();
  expect(await explorer.docText(docId)).toMatch(/\S/);
  return host.rowReads() - before;
}

/** release.json as an older release has it: no block pins (embeds then hash docs.parquet whole). */
const withoutBlockPins = (file: string, bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> => {
  if (file !== 'release.json') return bytes;
  const descriptor = JSON.parse(new TextDecoder().decode(bytes)) as { blocks?: unknown };
  expect(descriptor.blocks).toBeDefined();
  delete descriptor.blocks;
  return new TextEncoder().encode(JSON.stringify(descriptor));
};

function descriptorBlocks(): { block_bytes: number; sha256: string[] } {
  const descriptor = JSON.parse(readFileSync(path.join(sampleDir, 'release.json'), 'utf8')) as {
    blocks: Record<string, { block_bytes: number; sha256: string[] }>;
  };
  return descriptor.blocks['docs.parquet']!;
}

const flipInDocs = (file: string, bytes: Uint8Array<ArrayBuffer>) =>
  file === 'docs.parquet' ? bytes.map((b, i) => (i === 300 ? b ^ 0xff : b)) : bytes;

describe('docs.parquet pins and the first views', () => {
  it(
    'the tasks table and a task page answer from range reads; the whole file is hashed only after completeLoad',
    async () => {
      const host = sampleHost();
      const explorer = host.explorer();
      const outcome = await explorer.load({ kind: 'url', base: BASE });
      expect(outcome.ok).toBe(true);
      const page = await explorer.taskPage({}, { by: 'row_no', desc: false }, 0, 50);
      expect(page.rows.length).toBeGreaterThan(0);
      const task = (await explorer.taskRows({ type: ['single_hop'] }, { by: 'row_no', desc: false }, 0, 1)).rows[0]!;
      const detail = await explorer.taskDetail(task.task_id, task.split);
      expect(detail?.gold_doc_rows.length).toBeGreaterThan(0);
      expect(await explorer.docText(detail!.gold_doc_rows[0]!.doc_id)).toMatch(/\S/);
      expect(host.served.some((s) => s.path === 'docs.parquet' && s.range)).toBe(true);
      expect(host.wholeDocsReads()).toBe(0);
    },
    SETUP_TIMEOUT,
  );

  it(
    'without block pins (an older release), an embed shows rows at once, then hashes docs.parquet and is refused when it differs from its pin',
    async () => {
      const host = sampleHost((file, bytes) => flipInDocs(file, withoutBlockPins(file, bytes)));
      const explorer = host.explorer();
      const { events, refused } = refusal();
      const outcome = await explorer.load({ kind: 'url', base: BASE, only: ['docs'] }, events, {
        rowsOnly: true,
        splits: ['full'],
      });
      expect(outcome.ok).toBe(true);
      const task = firstTaskWithGold();
      const detail = await explorer.taskDetail(task.task_id, 'full');
      expect(detail?.gold_doc_rows.map((d) => d.doc_id)).toEqual([...new Set(task.gold_docs)].sort());
      expect(host.wholeDocsReads()).toBe(0);
      // It settles once the check has run, refused or not; the refusal comes as a load event.
      await expect(explorer.completeLoad()).resolves.toBeUndefined();
      const { message, file } = await refused;
      expect(message).toMatch(/docs\.parquet: sha256 is [0-9a-f]{64} but the pin is 7f6a290e/);
      expect(file).toMatch(/docs\.parquet$/);
      expect(host.wholeDocsReads()).toBe(1);
      expect(explorer.summary()).toBeUndefined();
    },
    SETUP_TIMEOUT,
  );

  it(
    'without block pins, an embed of an unchanged release stays shown after the check, and reads from the hashed bytes',
    async () => {
      const host = sampleHost(withoutBlockPins);
      const explorer = host.explorer();
      const outcome = await explorer.load({ kind: 'url', base: BASE, only: ['docs'] }, {}, { rowsOnly: true });
      expect(outcome.ok).toBe(true);
      await explorer.completeLoad();
      expect(host.wholeDocsReads()).toBe(1);
      const docsRequests = () => host.served.filter((s) => s.path === 'docs.parquet').length;
      const before = docsRequests();
      const gold = firstTaskWithGold().gold_docs[0]!;
      expect((await explorer.docs([gold])).map((d) => d.doc_id)).toEqual([gold]);
      expect(await explorer.docText(gold)).toMatch(/\S/);
      expect(docsRequests()).toBe(before);
      expect(explorer.summary()?.descriptor.id).toBe('sample');
    },
    SETUP_TIMEOUT,
  );

  it(
    'with block pins, an embed checks only the blocks it reads: no whole-file download, and it stays shown',
    async () => {
      const host = sampleHost();
      const explorer = host.explorer();
      const outcome = await explorer.load(
        { kind: 'url', base: BASE, only: ['docs'] },
        {},
        { rowsOnly: true, splits: ['full'] },
      );
      expect(outcome.ok).toBe(true);
      const task = firstTaskWithGold();
      const detail = await explorer.taskDetail(task.task_id, 'full');
      expect(detail?.gold_doc_rows.map((d) => d.doc_id)).toEqual([...new Set(task.gold_docs)].sort());
      expect(await explorer.docText(task.gold_docs[0]!)).toMatch(/\S/);
      await explorer.completeLoad();
      expect(host.wholeDocsReads()).toBe(0);
      // Every docs.parquet read is whole blocks, and together far less than the file.
      const reads = host.served.filter((s) => s.path === 'docs.parquet' && s.range);
      const blockBytes = descriptorBlocks().block_bytes;
      let read = 0;
      for (const r of reads) {
        const [from, to] = /bytes=(\d+)-(\d+)/.exec(r.range!)!.slice(1).map(Number) as [number, number];
        expect(from % blockBytes).toBe(0);
        expect((to + 1) % blockBytes === 0 || to === docsLength - 1).toBe(true);
        read += to - from + 1;
      }
      expect(read).toBeLessThan(docsLength * 0.75);
      expect(explorer.summary()?.descriptor.id).toBe('sample');
    },
    SETUP_TIMEOUT,
  );

  it(
    'with block pins, a changed byte in a block an embed reads refuses it, naming the file and the block',
    async () => {
      // The footer's last bytes: every reader of the file reads them first.
      const flipFooter = (file: string, bytes: Uint8Array<ArrayBuffer>) =>
        file === 'docs.parquet' ? bytes.map((b, i) => (i === docsLength - 20 ? b ^ 0xff : b)) : bytes;
      const host = sampleHost(flipFooter);
      const explorer = host.explorer();
      const { events, refused } = refusal();
      const outcome = await explorer.load({ kind: 'url', base: BASE, only: ['docs'] }, events, {
        rowsOnly: true,
        splits: ['full'],
      });
      let message: string;
      if (outcome.ok) {
        await explorer.taskDetail(firstTaskWithGold().task_id, 'full').catch(() => undefined);
        await explorer.completeLoad();
        message = (await refused).message;
      } else message = outcome.error;
      const count = descriptorBlocks().sha256.length;
      expect(message).toMatch(
        new RegExp(
          `docs\\.parquet: block ${count} of ${count} \\(bytes \\d+–${docsLength}\\) has sha256 [0-9a-f]{64}, but release\\.json blocks pins`,
        ),
      );
      expect(host.wholeDocsReads()).toBe(0);
      expect(explorer.summary()).toBeUndefined();
    },
    SETUP_TIMEOUT,
  );

  it(
    'a task page first reads only its own documents; the source-quality columns wait until a list asks',
    async () => {
      const task = firstTaskWithGold();
      const textReads = await rowReadsForText(task.gold_docs[0]!);
      expect(textReads).toBeGreaterThan(0);
      // The pool (a large file to parse) is held back: the task's text must not wait for it.
      const pool = deferred<void>();
      const host = sampleHost(undefined, (file) => (file === 'build/pool.jsonl' ? pool.promise : undefined));
      const explorer = host.explorer();
      const rowReads = host.rowReads;
      const outcome = await explorer.load({ kind: 'url', base: BASE }, {}, { first: 'other' });
      expect(outcome.ok).toBe(true);
      expect(rowReads()).toBe(0);

      // The page's first answer: the task's own columns, without reading a row of the corpus.
      const brief = await explorer.taskBrief(task.task_id, 'full');
      expect(brief).toMatchObject({ task_id: task.task_id, gold_docs: task.gold_docs, partial: true, pool: [] });
      expect(rowReads()).toBe(0);
      const asked = explorer.taskDetail(task.task_id, 'full');
      await expect.poll(rowReads, { timeout: 60_000 }).toBeGreaterThanOrEqual(textReads);
      pool.resolve();
      const detail = await asked;
      expect(detail?.partial).toBeUndefined();
      expect(host.served.some((s) => s.path === 'build/pool.jsonl')).toBe(true);
      const afterDetail = rowReads();
      // The first gold document's text was read with the task: the page's ask makes no request.
      expect(await explorer.docText(task.gold_docs[0]!)).toMatch(/\S/);
      expect(rowReads()).toBe(afterDetail);
      expect(detail?.gold_doc_rows.map((d) => d.doc_id)).toContain(task.gold_docs[0]);

      // A list asks for the facets: every corpus row's quality is read then.
      const facets = await explorer.taskFacets({ split: ['full'] });
      expect(facets.source_quality.length).toBeGreaterThan(0);
      expect(rowReads()).toBeGreaterThan(afterDetail);
    },
    SETUP_TIMEOUT,
  );

  it(
    "a task page's load reads its first gold text before the page asks, and docs.parquet's footer once",
    async () => {
      const host = sampleHost();
      const explorer = host.explorer();
      const task = firstTaskWithGold();
      const textReads = await rowReadsForText(task.gold_docs[0]!);
      const outcome = await explorer.load(
        { kind: 'url', base: BASE },
        {},
        { first: { task: task.task_id, split: 'full' } },
      );
      expect(outcome.ok).toBe(true);
      await expect.poll(host.rowReads).toBe(textReads);
      expect(await explorer.docText(task.gold_docs[0]!)).toMatch(/\S/);
      expect(host.rowReads()).toBe(textReads);
      const footerReads = host.served.filter(
        (s) => s.path === 'docs.parquet' && s.range?.endsWith(`-${docsLength - 1}`) && !s.range.startsWith('bytes=0-'),
      );
      expect(footerReads).toHaveLength(1);
    },
    SETUP_TIMEOUT,
  );

  it(
    'the task list first (the default) reads the source-quality columns with the first files',
    async () => {
      const host = sampleHost();
      const explorer = host.explorer();
      const outcome = await explorer.load({ kind: 'url', base: BASE });
      expect(outcome.ok).toBe(true);
      await expect.poll(host.rowReads).toBeGreaterThan(0);
    },
    SETUP_TIMEOUT,
  );
});
