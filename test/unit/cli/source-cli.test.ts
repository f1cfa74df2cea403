import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli as runCli } from '../../support/cli.ts';
import { parseLocator } from '../../../src/core/source-docs/locator.ts';
import { startMockHub, tally, type MockHub } from '../../support/mock-hub.ts';
import { hasShared, sharedNote, v10Dir } from '../../support/shared.ts';
import { corpuslessSample, makeSourceShards, readSampleDocs, type SampleDoc } from '../../support/source-shards.ts';

const v10 = v10Dir;

/** No Hub or token of the machine's environment leaks into a test. */
const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, { env: { HF_ENDPOINT: '', HF_TOKEN: undefined, HF_HUB_DISABLE_IMPLICIT_TOKEN: undefined, ...env } });

let hub: MockHub;
/** The same shards behind a gated dataset: the Hub wants TOKEN. */
let gated: MockHub;
let docs: SampleDoc[];
let tmp: string;
const TOKEN = 'hf_cliTestTokenOfTheMockHub0123456789';

beforeAll(async () => {
  docs = await readSampleDocs();
  const shards = makeSourceShards(docs, { mediaNear: [docs[100]!.doc_id] });
  hub = await startMockHub({ files: shards.files, mediaRanges: shards.mediaRanges });
  gated = await startMockHub({ files: shards.files, limits: { gatedToken: TOKEN } });
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ebx-source-cli-'));
});

afterAll(async () => {
  await hub?.close();
  await gated?.close();
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

describe("a gated dataset, and the Hub's limits", () => {
  const doc = () => docs[1300]!;
  const gatedDoc = (...extra: string[]) => [
    'source-doc',
    doc().doc_id,
    '--hf-endpoint',
    gated.endpoint,
    '--no-cache',
    ...extra,
  ];

  it('sends the token of --hf-token-env to the Hub and never to its file host, and never prints it', async () => {
    gated.log.length = 0;
    const run = await cli(gatedDoc('--json', '--hf-token-env', 'EBX_TEST_HF_TOKEN'), { EBX_TEST_HF_TOKEN: TOKEN });
    expect(run.stderr).toMatch(/read via search: .* \(with the Hugging Face token of \$EBX_TEST_HF_TOKEN\)\n$/);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { text_content: string }).text_content).toBe(doc().text);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
    const fromHub = gated.log.filter((e) => e.origin === 'hub');
    const fromFiles = gated.log.filter((e) => e.origin === 'files');
    expect(fromHub.length).toBeGreaterThan(0);
    expect(fromFiles.length).toBeGreaterThan(0);
    expect(fromHub.every((e) => e.authorization)).toBe(true);
    expect(fromFiles.filter((e) => e.authorization)).toEqual([]);
  });

  it('takes $HF_TOKEN when no --hf-token-env is given, unless HF_HUB_DISABLE_IMPLICIT_TOKEN is set', async () => {
    const implicit = await cli(gatedDoc(), { HF_TOKEN: TOKEN });
    expect(implicit.code).toBe(0);
    expect(implicit.stderr).toContain('(with the Hugging Face token of $HF_TOKEN)');
    const disabled = await cli(gatedDoc(), { HF_TOKEN: TOKEN, HF_HUB_DISABLE_IMPLICIT_TOKEN: '1' });
    expect(disabled.code).toBe(1);
    expect(disabled.stderr).toMatch(/is gated or private/);
  });

  it('exits 1 saying a token is needed when none is given, and that a wrong one has no access', async () => {
    const none = await cli(gatedDoc());
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      new RegExp(
        `^cannot read ${doc().doc_id}: aurora2424/Epstein-Files is gated or private on 127\\.0\\.0\\.1:\\d+ \\(HTTP 401\\): give a Hugging Face token with --hf-token-env VAR \\(or in \\$HF_TOKEN\\)\n$`,
      ),
    );
    const wrong = await cli(gatedDoc('--hf-token-env', 'WRONG'), { WRONG: 'hf_notTheRightOne' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/the Hugging Face token has no access to aurora2424\/Epstein-Files .*\(HTTP 403\)/);
    expect(wrong.stderr).not.toContain('hf_notTheRightOne');
    // The source check and source-locate say the same.
    const check = await cli(['source-check', '--hf-endpoint', gated.endpoint]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^CANNOT READ aurora2424\/Epstein-Files at main: .*is gated or private/);
    const checked = await cli(['source-check', '--hf-endpoint', gated.endpoint, '--sample', '2'], { HF_TOKEN: TOKEN });
    expect(checked.stdout).toMatch(/^shards: 6 parquet files/m);
    const located = await cli([
      'source-locate',
      'static-data/sample',
      '--out',
      path.join(tmp, 'gated-locator.json'),
      '--hf-endpoint',
      gated.endpoint,
      '--no-cache',
    ]);
    expect(located.code).toBe(1);
    expect(located.stderr).toMatch(/^cannot locate the documents: .*is gated or private/m);
  });

  it("an audit that the Hub refuses exits 1 with the Hub's words, and reads with the token", async () => {
    const folder = corpuslessSample();
    const refused = await cli(['audit', folder, '--source', 'hf', '--hf-endpoint', gated.endpoint, '--no-cache']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^audit: cannot read the source documents: aurora2424\/Epstein-Files is gated or private/m,
    );
    const read = await cli(['audit', folder, '--source', 'hf', '--hf-endpoint', gated.endpoint, '--no-cache'], {
      HF_TOKEN: TOKEN,
    });
    expect(read.stderr).toBe('');
    expect(read.code).toBe(0);
    expect(read.stdout).toMatch(/documents: (\d+) of \1 gold and item documents read/);
  }, 60_000);

  it('refuses an --hf-token-env naming no variable, or an empty one, or a token in its place (exit 2)', async () => {
    const unset = await cli(gatedDoc('--hf-token-env', 'EBX_NO_SUCH_VARIABLE'), { EBX_NO_SUCH_VARIABLE: undefined });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(
      /^--hf-token-env EBX_NO_SUCH_VARIABLE: the environment variable EBX_NO_SUCH_VARIABLE is not set\n/,
    );
    const empty = await cli(gatedDoc('--hf-token-env', 'EBX_EMPTY'), { EBX_EMPTY: ' ' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/the environment variable EBX_EMPTY is empty/);
    const pasted = await cli(gatedDoc('--hf-token-env', TOKEN));
    expect(pasted.code).toBe(2);
    expect(pasted.stderr).toMatch(/not the token itself/);
    expect(pasted.stderr).not.toContain(TOKEN);
    const spaced = await cli(gatedDoc('--hf-token-env', 'T'), { T: 'hf_two words' });
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toMatch(/^\$T: the Hugging Face token must be one word/);
    expect(spaced.stderr).not.toContain('two words');
    const check = await cli(['source-check', '--hf-token-env', 'EBX_NO_SUCH_VARIABLE'], {
      EBX_NO_SUCH_VARIABLE: undefined,
    });
    expect(check.code).toBe(2);
    // The audit takes it only with --source hf.
    expect((await cli(['audit', 'static-data/sample', '--hf-token-env', 'HF_TOKEN'])).code).toBe(2);
  });

  it('prints one line while it waits on the Hub, then reads the document', async () => {
    // One 503 without Retry-After: a backoff of under half a second.
    hub.limits.unavailable(1, { origin: 'hub' });
    const run = await cli(['source-doc', docs[40]!.doc_id, '--hf-endpoint', hub.endpoint, '--no-cache']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^waiting for the Hub \(unavailable, HTTP 503\), resumes in 1 s\n/);
    expect(run.stderr.match(/^waiting for/gm)).toHaveLength(1);
    expect(run.stderr).toMatch(/; waited \d+ s on the Hub's limits \(1 × 503\)\n$/);
  });
});
