import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { parseMapFile } from '../../../src/core/map/map-file.ts';
import { cli } from '../../support/cli.ts';
import { projectRoot } from '../../support/shared.ts';

const sample = path.join(projectRoot, 'static-data/sample');

describe('map', () => {
  it('writes the same bytes on every run: a line per task of the split, then a line per region', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'ebx-map-')), 'map.jsonl');
    const first = await cli(['map', sample, '--out', out]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^wrote .*map\.jsonl: 150 tasks in \d+ regions/);
    const again = await cli(['map', sample]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(readFileSync(out, 'utf8'));
    const map = parseMapFile(again.stdout);
    const ids = readFileSync(path.join(sample, 'full/questions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { task_id: string }).task_id);
    expect(map.points.map((p) => p.id)).toEqual(ids);
    expect(map.regions.reduce((s, r) => s + r.count, 0)).toBe(150);
    const dev = await cli(['map', sample, '--split', 'dev']);
    expect(parseMapFile(dev.stdout).points).toHaveLength(25);
  });

  it("lays out the gauntlet's candidates and the corpus's documents, each point named by its layer", async () => {
    const candidates = await cli(['map', sample, '--layer', 'candidates']);
    expect(candidates.code).toBe(0);
    const ids = readFileSync(path.join(sample, 'build/candidates.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { task_id: string }).task_id);
    const candidateMap = parseMapFile(candidates.stdout);
    expect(candidateMap.points.map((p) => p.id)).toEqual(ids);
    expect(new Set(candidateMap.points.map((p) => p.layer))).toEqual(new Set(['candidate']));

    const docs = await cli(['map', sample, '--layer', 'docs']);
    expect(docs.code).toBe(0);
    const rows = (await parquetReadObjects({
      file: await asyncBufferFromFile(path.join(sample, 'docs.parquet')),
      columns: ['doc_id'],
    })) as Array<{ doc_id: string }>;
    const docMap = parseMapFile(docs.stdout);
    expect(docMap.points.map((p) => p.id)).toEqual(rows.map((r) => r.doc_id));
    expect(new Set(docMap.points.map((p) => p.layer))).toEqual(new Set(['doc']));
    expect(docs.stderr).toMatch(new RegExp(`^${rows.length} documents in \\d+ regions`));
    // Every region has a label of its own.
    expect(new Set(docMap.regions.map((r) => r.label)).size).toBe(docMap.regions.length);
  }, 120_000);

  it('refuses a layer that is not one, with the usage', async () => {
    const run = await cli(['map', sample, '--layer', 'chunks']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--layer must be one of tasks, candidates, docs, not "chunks"');
  });

  it('refuses a split that is not one, with the usage', async () => {
    const run = await cli(['map', sample, '--split', 'test']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--split must be one of full, dev, not "test"');
  });
});
