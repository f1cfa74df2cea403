import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli as runCli } from '../../support/cli.ts';
import { parseLocator } from '../../../src/core/source-docs/locator.ts';
import { startMockHub, tally, type MockHub } from '../../support/mock-hub.ts';
import { hasShared, sharedNote, v10Dir } from '../../support/shared.ts';
import { makeSourceShards, readSampleDocs, type SampleDoc } from '../../support/source-shards.ts';

const v10 = v10Dir;

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { env: { HF_ENDPOINT: '', ...env } });

let hub: MockHub;
let docs: SampleDoc[];
let tmp: string;

beforeAll(async () => {
  docs = await readSampleDocs();
  const shards = makeSourceShards(docs, { mediaNear: [docs[100]!.doc_id] });
  hub = await startMockHub({ files: shards.files, mediaRanges: shards.mediaRanges });
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ebx-source-cli-'));
});

afterAll(async () => {
  await hub?.close();
});

describe('source-doc', () => {
  it('exits 2 on wrong usage', async () => {
    expect((await cli(['source-doc'])).code).toBe(2);
    const badId = await cli(['source-doc', 'not an id']);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toMatch(/is not a doc id/);
    const badEndpoint = await cli(['source-doc', 'SMPL00000001', '--hf-endpoint', 'ftp://example.org']);
    expect(badEndpoint.code).toBe(2);
    expect(badEndpoint.stderr).toMatch(/must be an http\(s\) URL/);
    expect((await cli(['source-doc', 'SMPL00000001', '--frobnicate'])).code).toBe(2);
  });

  it('prints the row of a document read from the Hub, exit 0', async () => {
    const doc = docs[100]!;
    const before = hub.log.length;
    const { code, stdout, stderr } = await cli([
      'source-doc',
      doc.doc_id,
      '--hf-endpoint',
      hub.endpoint,
      '--cache',
      path.join(tmp, 'cache-a'),
    ]);
    expect(stderr).toMatch(/read via search: \d+ requests/);
    expect(code).toBe(0);
    expect(stdout).toContain(
      `doc_id: ${doc.doc_id}\nfile_name: ${doc.file_name}\nfile_type: ${doc.file_type}\nonline_url: ${doc.online_url}\n`,
    );
    expect(stdout).toMatch(
      /^source: data\/train-\d{5}-of-00006\.parquet, row group \d+, row \d+ \(row \d+ of the shard\)$/m,
    );
    expect(stdout.endsWith(`\n\n${doc.text}\n`)).toBe(true);
    expect(tally(hub.log.slice(before)).mediaBytes).toBe(0);
  });

  it('takes HF_ENDPOINT from the environment, and --json prints the fields as one object', async () => {
    const doc = docs[2500]!;
    const { code, stdout } = await cli(['source-doc', doc.doc_id, '--json', '--no-cache'], {
      HF_ENDPOINT: hub.endpoint,
    });
    expect(code).toBe(0);
    const row = JSON.parse(stdout) as Record<string, unknown>;
    expect(row).toMatchObject({
      doc_id: doc.doc_id,
      file_name: doc.file_name,
      file_type: doc.file_type,
      online_url: doc.online_url,
      text_content: doc.text,
      truncated: false,
    });
  });

  it('exits 1 with a clear message for an id the source does not have', async () => {
    const { code, stdout, stderr } = await cli([
      'source-doc',
      'SMPL99999999',
      '--hf-endpoint',
      hub.endpoint,
      '--no-cache',
    ]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('SMPL99999999 is not in aurora2424/Epstein-Files at revision main');
  });

  it('exits 1 naming the host when the Hub cannot be reached', async () => {
    const { code, stderr } = await cli([
      'source-doc',
      'SMPL00000001',
      '--hf-endpoint',
      'http://127.0.0.1:9',
      '--no-cache',
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/could not reach 127\.0\.0\.1:9/);
  });
});

describe('source-locate', () => {
  it('writes a locator for every id the sample release refers to; source-doc then goes straight to the row', async () => {
    const out = path.join(tmp, 'sample-locator.json');
    const located = await cli([
      'source-locate',
      'static-data/sample',
      '--out',
      out,
      '--hf-endpoint',
      hub.endpoint,
      '--no-cache',
    ]);
    expect(located.stderr).not.toMatch(/cannot/);
    expect(located.code).toBe(0);
    expect(located.stdout).toMatch(/distinct doc ids referenced:\n {2}gold/);
    expect(located.stdout).toMatch(/; 0 missing\n/);
    const locator = parseLocator(readFileSync(out, 'utf8'), out);
    expect(locator.missing).toEqual([]);
    expect(Object.keys(locator.docs).length).toBeGreaterThan(500);
    const doc = docs.find((d) => Object.hasOwn(locator.docs, d.doc_id))!;

    const before = hub.log.length;
    const read = await cli([
      'source-doc',
      doc.doc_id,
      '--json',
      '--hf-endpoint',
      hub.endpoint,
      '--no-cache',
      '--locator',
      out,
    ]);
    expect(read.code).toBe(0);
    expect(read.stderr).toMatch(/read via locator/);
    expect((JSON.parse(read.stdout) as { text_content: string }).text_content).toBe(doc.text);
    const traffic = hub.log.slice(before);
    expect(traffic.filter((e) => e.path.includes('/tree/'))).toEqual([]);
    expect(tally(traffic).mediaBytes).toBe(0);
  });

  it('exits 2 for a damaged locator file and for a missing --out', async () => {
    const bad = path.join(tmp, 'bad-locator.json');
    writeFileSync(bad, JSON.stringify({ format: 'epstein-bench-source-locator', version: 1, dataset: 'a/b' }));
    const { code, stderr } = await cli(['source-doc', 'SMPL00000001', '--locator', bad, '--no-cache']);
    expect(code).toBe(2);
    expect(stderr).toContain(`${bad}, field "revision": expected a string`);
    expect((await cli(['source-locate', 'static-data/sample'])).code).toBe(2);
  });

  it.skipIf(!hasShared)(`counts the ids v1.0 refers to (${sharedNote})`, async () => {
    const { code, stdout } = await cli(['source-locate', v10, '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toContain('21,836 distinct doc ids referenced:');
    expect(stdout).toMatch(/gold +5,054\n/);
    expect(stdout).toMatch(/absence +153\n/);
    expect(stdout).toMatch(/retrieved +11,882\n/);
  });
});
