/**
 * Source shards in the Hub's schema re-exported by real writers (DuckDB in every codec, page v2
 * with delta strings, small row groups; hyparquet-writer with LZ4, dictionaries, and no
 * statistics at all, where the shard search and the row-group pruning fall back to reading doc
 * ids), served by the mock Hub: `source-doc` prints the same document from each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readParquetRows } from '../../../../src/core/parquet/read-rows.ts';
import { cli as runCli } from '../../../support/cli.ts';
import { startMockHub, type MockHub } from '../../../support/mock-hub.ts';
import { rewriteParquet, WRITER_VARIANTS } from '../../../support/real-writers.ts';
import { makeSourceShards, readSampleDocs, type SampleDoc } from '../../../support/source-shards.ts';

const cli = (args: string[]) => runCli(args, { env: { HF_ENDPOINT: '' } });

let docs: SampleDoc[];
let shards: ReturnType<typeof makeSourceShards>;
let tmp: string;
/**
 * One document in a sorted shard, one in an unsorted one, a media-only row (its text_content
 * null), and their output from the Snappy shards.
 */
let wanted: Array<{ id: string; printed: string }>;

async function sourceDoc(
  hub: MockHub,
  id: string,
  cache: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return cli(['source-doc', id, '--hf-endpoint', hub.endpoint, '--cache', path.join(tmp, cache)]);
}

/** The document's own lines: what a reader of the shards decides, not where it found them. */
const documentLines = (stdout: string) => stdout.replace(/^source: .*$/m, '');

beforeAll(async () => {
  docs = await readSampleDocs();
  shards = makeSourceShards(docs, { mediaRowBytes: 20_000, mediaText: null });
  tmp = mkdtempSync(path.join(os.tmpdir(), 'shard-codecs-'));
  const sorted = docs.find((d) => shards.shardOf.get(d.doc_id)?.sorted)!;
  const unsorted = [...docs].reverse().find((d) => shards.shardOf.get(d.doc_id)?.sorted === false)!;
  const hub = await startMockHub({ files: shards.files });
  try {
    wanted = [];
    for (const id of [sorted.doc_id, unsorted.doc_id, await mediaRowId()]) {
      const run = await sourceDoc(hub, id, 'snappy');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`doc_id: ${id}\n`);
      wanted.push({ id, printed: documentLines(run.stdout) });
    }
  } finally {
    await hub.close();
  }
});

/** The first media-only row of the first shard. */
async function mediaRowId(): Promise<string> {
  const [first] = [...shards.files.values()];
  const rows = await readParquetRows(
    {
      file: first!.slice().buffer,
      metadata: parquetMetadata(first!.slice().buffer),
      columns: ['doc_id', 'text_content'],
    },
    'shard',
  );
  const media = rows.find((r) => r.text_content === null);
  if (!media) throw new Error('the shards have no media-only row');
  return String(media.doc_id);
}

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe.each(WRITER_VARIANTS)('shards written by $name', (variant) => {
  let hub: MockHub;
  beforeAll(async () => {
    const files = new Map<string, Uint8Array>();
    for (const [p, bytes] of shards.files) files.set(p, await rewriteParquet(bytes, variant));
    const first = parquetMetadata([...files.values()][0]!.slice().buffer);
    expect(first.row_groups[0]!.columns.every((c) => c.meta_data?.codec === variant.codec)).toBe(true);
    if (variant.statistics === false)
      expect(first.row_groups[0]!.columns.some((c) => c.meta_data?.statistics?.min_value !== undefined)).toBe(false);
    hub = await startMockHub({ files });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('source-doc prints the same documents: from a sorted shard, an unsorted one, a media row', async () => {
    for (const w of wanted) {
      const run = await sourceDoc(hub, w.id, `${variant.name}-${w.id}`);
      expect(run.stderr).not.toMatch(/could not be decoded/);
      expect(documentLines(run.stdout)).toBe(w.printed);
      expect(run.code).toBe(0);
    }
  });
});
