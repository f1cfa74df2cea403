import { sha256HexSync } from '../../../../src/adapters/node/sha256.ts';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSampleRelease, type WriteSampleResult } from '../../../../src/cli/sample/write-release.ts';
import { writeJsonl } from '../../../../src/core/release/jsonl.ts';
import type {
  Candidate,
  Manifest,
  PoolDropped,
  PoolEntry,
  Question,
  Rejected,
  RejectionDetail,
  ReleaseDescriptor,
  Task,
} from '../../../../src/core/release/types.ts';
import { ADJUDICATION_CATEGORIES, TASK_TYPES } from '../../../../src/core/release/types.ts';
import { itemSupported } from '../../../../src/core/sample/gauntlet.ts';

const root = path.resolve(__dirname, '../../../..');
const committed = path.join(root, 'static-data/sample');
let tmp = '';
let fresh: WriteSampleResult;

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
    )
    .sort();
}
const read = (p: string) => readFileSync(path.join(committed, p), 'utf8');
const jsonl = <T>(p: string): T[] =>
  read(p)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
const sha = (data: Buffer | string) => sha256HexSync(data);

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'sample-release-'));
  fresh = await writeSampleRelease(path.join(tmp, 'sample'));
  console.info(`sample release regenerated in ${(fresh.millis / 1000).toFixed(1)} s`);
  // A guard against a hang, not a speed goal: on two busy cores the run takes several times its ~1 min.
}, 900_000);
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('regeneration', () => {
  it('regenerates the committed folder byte for byte', () => {
    const files = listFiles(committed);
    expect(listFiles(fresh.outDir)).toEqual(files);
    for (const f of files) {
      expect(sha(readFileSync(path.join(fresh.outDir, f))), f).toBe(sha(readFileSync(path.join(committed, f))));
    }
  });

  it('stays under 25 MB', () => {
    const total = listFiles(committed).reduce((s, f) => s + statSync(path.join(committed, f)).size, 0);
    expect(total).toBeLessThan(25 * 1024 * 1024);
  });

  it('pins every other file in release.json and the questions files in the manifest', () => {
    const descriptor = JSON.parse(read('release.json')) as ReleaseDescriptor;
    const others = listFiles(committed).filter((f) => f !== 'release.json');
    expect(Object.keys(descriptor.sha256 ?? {}).sort()).toEqual(others);
    for (const f of others) expect(descriptor.sha256![f], f).toBe(sha(readFileSync(path.join(committed, f))));
    const manifest = JSON.parse(read('manifest.json')) as Manifest;
    expect(read('manifest.json').endsWith('}')).toBe(true);
    for (const split of ['full', 'dev'] as const) {
      expect(manifest.splits[split]!.questions_sha256).toBe(
        sha(readFileSync(path.join(committed, `${split}/questions.jsonl`))),
      );
    }
  });
});

describe('world and corpus', () => {
  it('has the required size and shape', () => {
    const w = fresh.pipeline.world;
    expect(w.people.length).toBeGreaterThanOrEqual(60);
    expect(w.orgs).toHaveLength(20);
    for (const kind of ['meeting', 'flight', 'payment', 'property', 'legal'])
      expect(w.events.some((e) => e.kind === kind)).toBe(true);
    const docs = fresh.pipeline.docs;
    expect(docs.length).toBeGreaterThanOrEqual(3000);
    for (const d of docs) expect(d.doc_id).toMatch(/^SMPL\d{8}$/);
    expect(docs.filter((d) => d.tokens > 512).length / docs.length).toBeGreaterThanOrEqual(0.2);
    for (const q of ['clean', 'degraded', 'garbage'] as const) expect(docs.some((d) => d.quality === q)).toBe(true);
  });

  it('writes docs and chunks parquet that read back as the corpus', async () => {
    const buf = readFileSync(path.join(committed, 'docs.parquet'));
    const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    const rows = (await parquetReadObjects({ file, columns: ['doc_id', 'quality', 'file_name'] })) as Array<{
      doc_id: string;
      quality: string;
      file_name: string;
    }>;
    expect(rows.map((r) => r.doc_id)).toEqual(fresh.pipeline.docs.map((d) => d.doc_id));
    const cbuf = readFileSync(path.join(committed, 'chunks.parquet'));
    const chunks = (await parquetReadObjects({
      file: cbuf.buffer.slice(cbuf.byteOffset, cbuf.byteOffset + cbuf.byteLength),
      columns: ['chunk_id', 'doc_id'],
    })) as Array<{ chunk_id: string; doc_id: string }>;
    const garbage = new Set(rows.filter((r) => r.quality === 'garbage').map((r) => r.doc_id));
    expect(chunks.length).toBe(fresh.pipeline.chunks.length);
    expect(chunks.some((c) => garbage.has(c.doc_id))).toBe(false);
    for (const c of chunks) expect(c.chunk_id.startsWith(`${c.doc_id}#`)).toBe(true);
  });
});

describe('tasks', () => {
  const quality = () => new Map(fresh.pipeline.docs.map((d) => [d.doc_id, d]));

  it('ships >= 150 tasks of all six types, counts equal to the manifest, questions derived from tasks', () => {
    const manifest = JSON.parse(read('manifest.json')) as Manifest;
    for (const split of ['full', 'dev'] as const) {
      const tasks = jsonl<Task>(`${split}/tasks.jsonl`);
      const counts: Record<string, number> = {};
      for (const t of tasks) counts[t.type] = (counts[t.type] ?? 0) + 1;
      expect(manifest.splits[split]!.by_type).toEqual(counts);
      expect(Object.keys(manifest.splits[split]!.by_type)).toEqual([...new Set(tasks.map((t) => t.type))]);
      expect(manifest.splits[split]!.n_tasks).toBe(tasks.length);
      const questions = tasks.map((t): Question => ({ task_id: t.task_id, type: t.type, question: t.question }));
      expect(read(`${split}/questions.jsonl`)).toBe(writeJsonl(questions));
      expect(read(`${split}/tasks.jsonl`)).toBe(writeJsonl(tasks));
    }
    const full = jsonl<Task>('full/tasks.jsonl');
    expect(full.length).toBeGreaterThanOrEqual(150);
    for (const type of TASK_TYPES)
      expect(
        full.some((t) => t.type === type),
        type,
      ).toBe(true);
    const dev = jsonl<Task>('dev/tasks.jsonl');
    expect(dev.length).toBeGreaterThanOrEqual(20);
    expect(dev.every((d) => full.some((t) => t.task_id === d.task_id))).toBe(true);
    expect(full.slice(-15).every((t) => t.type === 'false_premise')).toBe(true);
  });

  it('keeps the benchmark key order and provenance shape', () => {
    for (const t of jsonl<Task>('full/tasks.jsonl')) {
      const keys = [
        'task_id',
        'type',
        'answer',
        'items',
        'source_doc_ids',
        'provenance',
        'question',
        ...(t.type === 'false_premise' ? ['false_element'] : []),
        'gold_docs',
      ];
      expect(Object.keys(t)).toEqual(keys);
      expect(t.task_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const p = t.provenance;
      expect(Object.keys(p).slice(0, 2)).toEqual(['generator_model', 'pipeline_version']);
      expect(p.verified).toBe(true);
      if (t.type === 'single_hop') expect(p.salience).toBeGreaterThanOrEqual(3);
      if (t.type === 'aggregation') expect(p.bounding_entity && p.candidate_doc_ids).toBeTruthy();
      if (t.type === 'dossier') expect(p.target_entity && p.candidate_doc_ids).toBeTruthy();
      if (t.type === 'false_premise') expect(p.absence_doc_ids).toHaveLength(5);
      if (t.type === 'unanswerable' || t.type === 'false_premise') expect(t.gold_docs).toEqual([]);
      else expect(p.pool_size).toBeGreaterThan(0);
    }
  });

  it('has gold docs that exist and are clean or degraded, and recoverable single_hop answers', () => {
    const docs = quality();
    for (const t of jsonl<Task>('full/tasks.jsonl')) {
      for (const id of t.gold_docs) expect(['clean', 'degraded']).toContain(docs.get(id)?.quality);
      expect([...t.gold_docs].sort()).toEqual(t.gold_docs);
      if (t.type === 'single_hop') {
        expect(
          t.gold_docs.some((id) => itemSupported(t.answer!, docs.get(id)!.text)),
          t.question,
        ).toBe(true);
      }
      if (t.type === 'aggregation' || t.type === 'dossier') {
        expect(t.items!.length).toBeGreaterThan(0);
        for (const item of t.items!) {
          expect(item.doc_ids.length, item.item).toBeGreaterThan(0);
          for (const id of item.doc_ids) expect(docs.has(id)).toBe(true);
        }
      }
    }
  });
});

describe('gauntlet logs', () => {
  it('adds up: candidates = shipped + rejected + dropped, with >= 3x candidates', () => {
    const candidates = jsonl<Candidate>('build/candidates.jsonl');
    const rejected = jsonl<Rejected>('build/rejected.jsonl');
    const dropped = jsonl<PoolDropped>('build/pool_dropped.jsonl');
    const full = jsonl<Task>('full/tasks.jsonl');
    expect(candidates.length).toBeGreaterThanOrEqual(3 * full.length);
    expect(candidates.length).toBe(full.length + rejected.length + dropped.length);
    const ids = [...full, ...rejected, ...dropped].map((x) => x.task_id).sort();
    expect(ids).toEqual(candidates.map((c) => c.task_id).sort());
    const verified = jsonl<Candidate>('build/verified.jsonl');
    expect(verified.length).toBe(full.length + dropped.length);
    expect(jsonl<Task>('build/pooled.jsonl').length).toBe(full.length);
    for (const d of dropped) expect(['source_not_supportive', 'unstable_pool']).toContain(d.reason);
  });

  it('gives every rejection a stage reason and a detail, and uses every stage', () => {
    const rejected = jsonl<Rejected>('build/rejected.jsonl');
    const details = new Map(jsonl<RejectionDetail>('build/rejection-details.jsonl').map((d) => [d.task_id, d]));
    const stages = new Set<string>();
    for (const r of rejected) {
      const [stage, category] = r.reason.split(/:(.*)/s) as [string, string | undefined];
      stages.add(stage);
      expect(['standalone', 'answerability', 'necessity', 'adjudication', 'error']).toContain(stage);
      if (stage === 'adjudication') {
        const group =
          r.type === 'unanswerable' ? 'unanswerable' : r.type === 'false_premise' ? 'false_premise' : 'answerable';
        expect(ADJUDICATION_CATEGORIES[group]).toContain(category);
      }
      const detail = details.get(r.task_id);
      expect(detail, r.task_id).toBeDefined();
      expect(detail!.reason).toBe(r.reason);
      expect(detail!.stage).toBe(stage);
      expect(detail!.saw.length).toBeGreaterThan(0);
      expect(detail!.why.length).toBeGreaterThan(0);
    }
    expect([...stages].sort()).toEqual(['adjudication', 'answerability', 'error', 'necessity', 'standalone']);
  });

  it('pools: gold = sorted supports of the task pool, pool_size = pool entries', () => {
    const pool = jsonl<PoolEntry>('build/pool.jsonl');
    const byTask = new Map<string, PoolEntry[]>();
    for (const e of pool) byTask.set(e.task_id, [...(byTask.get(e.task_id) ?? []), e]);
    for (const t of jsonl<Task>('full/tasks.jsonl')) {
      if (t.provenance.pool_size === undefined) continue;
      const entries = byTask.get(t.task_id) ?? [];
      expect(entries.length).toBe(t.provenance.pool_size);
      expect(
        entries
          .filter((e) => e.judgement === 'supports')
          .map((e) => e.doc_id)
          .sort(),
      ).toEqual(t.gold_docs);
      for (const id of t.source_doc_ids) expect(t.gold_docs).toContain(id);
    }
  });

  it('writes reference submissions for the full split', () => {
    const descriptor = JSON.parse(read('release.json')) as ReleaseDescriptor;
    const full = jsonl<Task>('full/tasks.jsonl');
    expect(descriptor.submissions!.length).toBeGreaterThanOrEqual(2);
    const manifest = JSON.parse(read('manifest.json')) as Manifest;
    for (const slug of descriptor.submissions!) {
      const meta = JSON.parse(read(`submissions/${slug}/metadata.json`)) as { questions_sha256: string; split: string };
      expect(meta).toMatchObject({ split: 'full', questions_sha256: manifest.splits.full!.questions_sha256 });
      const preds = jsonl<{ task_id: string }>(`submissions/${slug}/predictions.jsonl`);
      expect(preds.map((p) => p.task_id)).toEqual(full.map((t) => t.task_id));
    }
  });
});
