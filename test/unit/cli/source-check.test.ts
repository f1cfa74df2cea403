/**
 * `source-check` on the mock Hub: the summary a maintainer reads before relying on a source, exit 0
 * when the product can read it; exit 1 naming the codec or the missing column when it cannot.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli as runCli } from '../../support/cli.ts';
import { startMockHub, type MockHub } from '../../support/mock-hub.ts';
import { lzoParquet, rewriteParquet, variantOf, withoutColumn } from '../../support/real-writers.ts';
import { makeSourceShards, readSampleDocs } from '../../support/source-shards.ts';

const cli = (args: string[]) => runCli(args, { env: { HF_ENDPOINT: '', HF_TOKEN: undefined } });

let shards: ReturnType<typeof makeSourceShards>;
let hub: MockHub | undefined;

beforeAll(async () => {
  shards = makeSourceShards(await readSampleDocs(), { mediaRowBytes: 20_000 });
});

afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

async function serve(rewrite: (bytes: Uint8Array) => Promise<Uint8Array> | Uint8Array): Promise<MockHub> {
  const files = new Map<string, Uint8Array>();
  for (const [p, bytes] of shards.files) files.set(p, await rewrite(bytes));
  hub = await startMockHub({ files });
  return hub;
}

describe('source-check', () => {
  it('prints the summary of a readable source and exits 0', async () => {
    const h = await serve((b) => b);
    const run = await cli(['source-check', '--hf-endpoint', h.endpoint, '--sample', '3']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain(`shards: ${shards.files.size} parquet files`);
    expect(out).toMatch(/^footers read: 3 \(/m);
    for (const column of ['doc_id', 'file_name', 'file_type', 'online_url', 'text_content'])
      expect(out).toMatch(new RegExp(`^  ${column} +BYTE_ARRAY, SNAPPY, `, 'm'));
    expect(out).toMatch(/^doc id order: (sorted|not sorted)/m);
    expect(out).toMatch(/^row groups: [\d,]+ to [\d,]+ rows \(median [\d,]+\)$/m);
    expect(out).toMatch(/^first document, estimated: [\d,]+ requests \([\d,]+ to the Hub\), [\d.]+ MB$/m);
    expect(out).toMatch(/^v1\.0 audit \(4,290 documents\), estimated: /m);
    expect(out).toMatch(/^rate limit: the audit needs \d+ five-minute window\(s\)/m);
    expect(out).toMatch(/^decoded: the first doc_id of \S+ is [A-Z]+\d+$/m);
    expect(out.trimEnd().split('\n').at(-1)).toBe('the product can read this source');
  });

  it('--json gives the same report as one object', async () => {
    const h = await serve((b) => b);
    const run = await cli(['source-check', '--hf-endpoint', h.endpoint, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      shards: { count: number };
      columns: Array<{ column: string; codecs: string[] }>;
      problems: string[];
    };
    expect(report.shards.count).toBe(shards.files.size);
    expect(report.columns.map((c) => c.column)).toEqual([
      'doc_id',
      'file_name',
      'file_type',
      'online_url',
      'text_content',
    ]);
    expect(report.problems).toEqual([]);
  });

  it('reads shards DuckDB wrote with ZSTD, and says so', async () => {
    const h = await serve((b) => rewriteParquet(b, variantOf('ZSTD')));
    const run = await cli(['source-check', '--hf-endpoint', h.endpoint]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}text_content +BYTE_ARRAY, ZSTD, /m);
    expect(run.stdout).toContain('the product can read this source');
  });

  it('exits 1 naming a codec it cannot decode', async () => {
    const h = await serve(lzoParquet);
    const run = await cli(['source-check', '--hf-endpoint', h.endpoint]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('CANNOT READ this source:');
    expect(run.stdout).toContain('column doc_id is compressed with LZO, which this reader cannot decode');
    expect(run.stdout).not.toContain('the product can read this source');
  });

  it('exits 1 naming a column the schema lacks', async () => {
    const h = await serve((b) => withoutColumn(b, 'text_content'));
    const run = await cli(['source-check', '--hf-endpoint', h.endpoint]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ {2}text_content +MISSING$/m);
    expect(run.stdout).toContain('column text_content is missing: the product reads doc_id, file_name');
  });

  it('exits 1 when the dataset cannot be listed, and 2 on a wrong --sample', async () => {
    const h = await serve((b) => b);
    const missing = await cli(['source-check', '--hf-endpoint', h.endpoint, '--dataset', 'nobody/nothing']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/^CANNOT READ nobody\/nothing at main: /);
    const wrong = await cli(['source-check', '--hf-endpoint', h.endpoint, '--sample', '0']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--sample must be a whole number from 1 to 50');
  });
});
