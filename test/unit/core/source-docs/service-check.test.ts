/**
 * The source worker's check of a source (the Source settings panel's "Check this source"): the
 * report and its lines as the CLI prints them, the token sent to the Hub's origin only, a gated
 * dataset refused without it, and Stop.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemorySourceCache } from '../../../../src/core/source-docs/cache.ts';
import { createSourceDocsService, type SourceCheckProgress } from '../../../../src/core/source-docs/service.ts';
import { startMockHub, type MockHub } from '../../../support/mock-hub.ts';
import { makeSourceShards, readSampleDocs, type SourceShards } from '../../../support/source-shards.ts';

const TOKEN = 'hf_unitGatedToken42';
let shards: SourceShards;
let hub: MockHub;

const fetchFn = (input: string, init?: RequestInit) => fetch(input, init);
const service = () => createSourceDocsService(async () => new MemorySourceCache(), fetchFn);

beforeAll(async () => {
  shards = makeSourceShards(await readSampleDocs());
  hub = await startMockHub({ files: shards.files, pageSize: 4, limits: { gatedToken: TOKEN } });
}, 60_000);

afterAll(async () => {
  await hub?.close();
});

beforeEach(() => {
  hub.log.length = 0;
});

describe('createSourceDocsService().check', () => {
  it('reports what the CLI prints, with the token sent to the Hub and never to its file host', async () => {
    const s = service();
    s.setToken(TOKEN);
    const progress: SourceCheckProgress[] = [];
    const out = await s.check({ endpoint: hub.endpoint }, 3, (p) => progress.push(p));
    if (!out.ok) throw new Error(out.error);
    const shardCount = [...shards.files.keys()].filter((p) => p.endsWith('.parquet')).length;
    expect(out.report.problems).toEqual([]);
    expect(out.report.sampled).toHaveLength(3);
    expect(out.lines).toContain('the product can read this source');
    expect(out.lines.some((l) => l.startsWith(`shards: ${shardCount} parquet files`))).toBe(true);
    expect(progress.map((p) => p.message)).toContain('footer 1 of 3: data/train-00000-of-00006.parquet');
    const hubRequests = hub.log.filter((e) => e.origin === 'hub');
    const fileRequests = hub.log.filter((e) => e.origin === 'files');
    expect(hubRequests.length).toBeGreaterThan(0);
    expect(fileRequests.length).toBeGreaterThan(0);
    expect(hubRequests.every((e) => e.authorization)).toBe(true);
    expect(fileRequests.some((e) => e.authorization)).toBe(false);
    // The token is in no answer.
    expect(JSON.stringify(out)).not.toContain(TOKEN);
  });

  it('a gated dataset without a token: an auth failure that says a token is needed', async () => {
    const out = await service().check({ endpoint: hub.endpoint });
    expect(out).toMatchObject({ ok: false, kind: 'auth' });
    expect(!out.ok && out.error).toContain('give a Hugging Face token');
  });

  it('cancelCheck stops a check caught on a file-host request; lookups are not stopped by it', async () => {
    const s = service();
    s.setToken(TOKEN);
    const held = hub.holdAfter(0);
    try {
      let atFooter!: () => void;
      const reached = new Promise<void>((resolve) => (atFooter = resolve));
      const running = s.check({ endpoint: hub.endpoint }, 2, (p) => {
        if (p.message.startsWith('footer 1')) atFooter();
      });
      await reached;
      s.cancel(); // a document's Cancel: not the check's
      s.cancelCheck();
      expect(await running).toMatchObject({ ok: false, kind: 'cancelled' });
    } finally {
      held.release();
    }
  });
});
