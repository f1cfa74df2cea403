/**
 * The data worker's service in Node (DuckDB-WASM's Node bundle, releases over HTTP): a refused
 * load leaves the shown release exactly as it was (issue 10, 4.1), and a release URL that never
 * answers neither locks loading nor queues later loads (issue 10, 4.5).
 */
import { cpSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExplorerData, type LoadEvents, type ReleaseSummary } from '../../../../src/core/explorer/service.ts';
import type { SqlDatabase } from '../../../../src/core/explorer/sql.ts';
import { startStaticServer } from '../../../e2e/support.ts';
import { listenLocal } from '../../../support/local-server.ts';
import { startNodeDuckDb } from '../../../support/node-duckdb.ts';

const root = path.resolve(import.meta.dirname, '../../../..');
const sampleDir = path.join(root, 'static-data/sample');

let database: Promise<SqlDatabase>;
const servers: Array<{ close: () => Promise<void> }> = [];

beforeAll(() => {
  database = startNodeDuckDb();
});
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function serve(folder: string): Promise<string> {
  const server = await startStaticServer(folder);
  servers.push(server);
  return server.url;
}

function copyOf(folder: string): string {
  const to = path.join(mkdtempSync(path.join(os.tmpdir(), 'ebx-service-')), 'release');
  cpSync(folder, to, { recursive: true });
  return to;
}

/** A server that accepts every request and never answers it. */
async function hungServer(): Promise<string> {
  const server = await listenLocal(() => undefined);
  servers.push(server);
  return `${server.origin}/release/`;
}

function service(fetchTimeoutMs?: number) {
  return createExplorerData(() => database, 'http://localhost/', { fetchTimeoutMs });
}

/** Loads a release the way the page does: first files, then the rest once completeLoad() is called. */
async function loadShown(api: ReturnType<typeof service>, base: string): Promise<ReleaseSummary> {
  let completed!: (s: ReleaseSummary) => void;
  let refused!: (e: Error) => void;
  const done = new Promise<ReleaseSummary>((resolve, reject) => {
    completed = resolve;
    refused = (e) => reject(e);
  });
  const events: LoadEvents = { completed, refused: (message) => refused(new Error(message)) };
  const outcome = await api.load({ kind: 'url', base }, events);
  if (!outcome.ok) throw new Error(outcome.error);
  if (outcome.summary.complete) return outcome.summary;
  void api.completeLoad();
  return done;
}

/** What the explorer shows of a release, through every kind of query. */
async function snapshot(api: ReturnType<typeof service>) {
  const order = { by: 'row_no' as const, desc: false };
  const page = await api.taskPage({}, order, 0, 20);
  const detail = await api.taskDetail(page.rows.find((r) => (r.n_gold ?? 0) > 0)!.task_id);
  const gold = detail!.gold_docs![0]!;
  const word = page.rows[0]!.question.split(' ').find((w) => w.length > 5)!;
  return {
    summary: api.summary(),
    page,
    detail,
    text: await api.docText(gold),
    docDetail: await api.docDetail(gold),
    search: await api.taskRows({ text: word }, order, 0, 50),
    funnel: await api.funnel(),
    rejections: await api.rejections({ text: word }, 0, 20),
    stats: await api.stats(),
    entities: await api.entities(false),
  };
}

describe('a refused load leaves the shown release exactly as it was', () => {
  it(
    'a truncated docs.parquet, then a changed byte in a file read last (pool.jsonl)',
    { timeout: 180_000 },
    async () => {
      const api = service();
      const sample = await loadShown(api, await serve(sampleDir));
      expect(sample.complete).toBe(true);
      const before = await snapshot(api);
      expect(before.text?.length).toBeGreaterThan(0);
      expect(before.search.total).toBeGreaterThan(0);
      expect(before.stats.docs).toBeGreaterThan(0);

      const truncated = copyOf(sampleDir);
      // The other release must differ, so that any table it replaced would show.
      const tasks = path.join(truncated, 'full/tasks.jsonl');
      writeFileSync(tasks, readFileSync(tasks, 'utf8').split('\n').slice(0, 10).join('\n') + '\n');
      const descriptor = JSON.parse(readFileSync(path.join(truncated, 'release.json'), 'utf8')) as {
        sha256: Record<string, string>;
      };
      delete descriptor.sha256['full/tasks.jsonl'];
      delete descriptor.sha256['docs.parquet'];
      writeFileSync(path.join(truncated, 'release.json'), JSON.stringify(descriptor));
      truncateSync(path.join(truncated, 'docs.parquet'), 500_000);
      const refused = await api.load({ kind: 'url', base: await serve(truncated) });
      expect(refused.ok).toBe(false);
      expect(!refused.ok && refused.error).toMatch(/docs\.parquet/);
      expect(await snapshot(api)).toEqual(before);

      const changed = copyOf(sampleDir);
      const pool = path.join(changed, 'build/pool.jsonl');
      writeFileSync(pool, readFileSync(pool, 'utf8').replace('"supports"', '"partial"'));
      const refusedLate = await api.load({ kind: 'url', base: await serve(changed) });
      expect(refusedLate.ok).toBe(false);
      expect(!refusedLate.ok && refusedLate.error).toMatch(/build\/pool\.jsonl/);
      expect(!refusedLate.ok && refusedLate.file).toBe('build/pool.jsonl');
      expect(await snapshot(api)).toEqual(before);

      // A good release still replaces it.
      const mini = await api.load({ kind: 'url', base: await serve(path.join(root, 'test/fixtures/mini-release')) });
      expect(mini.ok).toBe(true);
      expect(api.summary()?.descriptor.id).not.toBe(sample.descriptor.id);
    },
  );
});

describe('a release URL that never answers', () => {
  it('fails with a clear message after the timeout', { timeout: 60_000 }, async () => {
    const hung = await hungServer();
    // the server never answers: only the 0.5 s timeout can end this load, and the message says so
    const outcome = await service(500).load({ kind: 'url', base: hung });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toContain(`${hung}release.json: no answer from the server in 0.5 s`);
  });

  it('a new load cancels it at once instead of queueing behind it', { timeout: 120_000 }, async () => {
    const api = service(); // the default 20 s timeout
    const hung = api.load({ kind: 'url', base: await hungServer() });
    let hungEnded = false;
    void hung.then(() => (hungEnded = true));
    const sample = await api.load({ kind: 'url', base: await serve(sampleDir) });
    expect(sample.ok).toBe(true);
    // ended by the new load (cancelled), not by its own 20 s timeout after the new one queued behind it
    expect(hungEnded).toBe(true);
    expect(await hung).toEqual({ ok: false, error: 'Cancelled: another release started loading.', cancelled: true });
    expect((await api.taskPage({}, { by: 'row_no', desc: false }, 0, 5)).total).toBeGreaterThan(0);
  });

  it('a hung load in flight leaves the shown release answering', { timeout: 120_000 }, async () => {
    const api = service();
    await loadShown(api, await serve(sampleDir));
    const hung = api.load({ kind: 'url', base: await hungServer() });
    const page = await api.taskPage({}, { by: 'row_no', desc: false }, 0, 5);
    expect(page.total).toBeGreaterThan(0);
    expect((await api.funnel()).length).toBeGreaterThan(0);
    const next = await api.load({ kind: 'url', base: await serve(path.join(root, 'test/fixtures/mini-release')) });
    expect(next.ok).toBe(true);
    expect(await hung).toMatchObject({ ok: false, cancelled: true });
  });
});
