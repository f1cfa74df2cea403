/** The CLI as a newcomer runs it on the sample release (issue 13, items 14 and 15). */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, SAMPLE_JUDGE_ARGS } from '../../support/cli.ts';
import { defaultExtras } from '../../../src/cli/commands/score.ts';
import { writeIndexFiles } from '../../../src/cli/index-build/register.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const sample = path.join(root, 'static-data/sample');
const slug = 'bm25-top-doc-sample';
const sub = path.join(sample, 'submissions', slug);

const scoreArgs = (predictions: string, out: string) => [
  'score',
  '--tasks',
  path.join(sample, 'full/tasks.jsonl'),
  '--predictions',
  predictions,
  ...SAMPLE_JUDGE_ARGS,
  '--out',
  out,
];

describe('score, compare and validate on the sample, without the report flags', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'newcomer-cli-'));

  it('score takes the report fields from metadata.json, so compare accepts its output', async () => {
    const out = path.join(tmp, 'nested/folder/scores.json');
    const r = await cli(scoreArgs(path.join(sub, 'predictions.jsonl'), out));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('report fields from');
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(path.join(sub, 'scores.json'), 'utf8'));
    const cmp = await cli(['compare', path.join(sub, 'scores.json'), out]);
    expect(cmp.code).toBe(0);
  }, 60_000);

  it('without metadata.json, the split and version come from where the tasks file sits', async () => {
    const lone = path.join(tmp, 'lone');
    const predictions = path.join(lone, 'predictions.jsonl');
    mkdirSync(lone, { recursive: true });
    copyFileSync(path.join(sub, 'predictions.jsonl'), predictions);
    const { extras } = await defaultExtras(predictions, path.join(sample, 'full/tasks.jsonl'));
    expect(extras).toEqual({ split: 'full', dataset_version: 'v1.0-sample' });
  });

  it('compare exits 2 on a missing file, as its help says', async () => {
    const r = await cli(['compare', path.join(tmp, 'nope.json'), path.join(sub, 'scores.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope.json');
    expect((await cli(['compare', '--help'])).stdout).toMatch(/2 usage \(or a missing or unreadable file\)/);
  }, 60_000);

  it('validate expects the dataset version of the release the submission sits in', async () => {
    const r = await cli(['validate', sub, '--tasks', path.join(sample, 'full/tasks.jsonl'), ...SAMPLE_JUDGE_ARGS]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('v1.0-sample');
  }, 60_000);
});

describe('build-index keeps release.json as it is when nothing changes', () => {
  it('keeps its bytes (no added final newline) and says it is unchanged', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'register-'));
    const descriptor = readFileSync(path.join(sample, 'release.json'), 'utf8');
    writeFileSync(path.join(dir, 'release.json'), descriptor);
    const parsed = JSON.parse(descriptor) as { indexes: { bm25: string; dense: string; model: string } };
    const files = new Map(
      Object.values(parsed.indexes).map((rel) => [rel, new Uint8Array(readFileSync(path.join(sample, rel)))]),
    );
    const models = new Map(
      Object.keys((JSON.parse(descriptor) as { sha256: Record<string, string> }).sha256)
        .filter((rel) => rel.startsWith('models/'))
        .map((rel) => [rel, new Uint8Array(readFileSync(path.join(sample, rel)))]),
    );
    expect(writeIndexFiles(dir, files, parsed.indexes, models).descriptorUpdated).toBe('unchanged');
    expect(readFileSync(path.join(dir, 'release.json'), 'utf8')).toBe(descriptor);
  });
});
