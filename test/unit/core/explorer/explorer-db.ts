/**
 * The explorer's tables in duckdb-wasm (Node), filled from the sample release or from small
 * releases built by hand, and the sample's files read plainly (JSON.parse, hyparquet) so that
 * expected answers never come from the code under test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import type { Sql } from '../../../../src/core/explorer/sql.ts';
import { memoryDocs, ParquetDocs } from '../../../../src/core/explorer/docs-index.ts';
import { createTables, EXPLORER_TABLES, fillSourceQuality } from '../../../../src/core/explorer/tables.ts';
import { taskTables } from '../../../../src/core/explorer/task-records.ts';
import { loadRelease } from '../../../../src/core/release/load.ts';
import type { LoadedRelease } from '../../../../src/core/release/loaded.ts';
import type {
  Candidate,
  CorpusDoc,
  EntityIndex,
  PoolDropped,
  PoolEntry,
  Question,
  Rejected,
  RejectionDetail,
  Task,
} from '../../../../src/core/release/types.ts';
import { startNodeSql } from '../../../support/node-sql.ts';
import { projectRoot } from '../../../support/shared.ts';

export const sampleDir = path.join(projectRoot, 'static-data/sample');

/** For beforeAll hooks that boot DuckDB and load the sample: a guard against a hang, not a speed goal. */
export const SETUP_TIMEOUT = 300_000;

/** One database per test file; each release replaces the tables of the last. */
let db: Promise<Sql> | undefined;
export function nodeSql(): Promise<Sql> {
  return (db ??= startNodeSql());
}

/**
 * The explorer's tables for `release`, as the data worker makes them (docs with their text), in
 * place of the last release's (the worker uses a new schema per load instead).
 */
export async function tablesOf(release: LoadedRelease): Promise<Sql> {
  const sql = await nodeSql();
  for (const name of EXPLORER_TABLES) await sql.exec(`DROP TABLE IF EXISTS ${name}`);
  const parquet = release.parquet.find((p) => p.kind === 'docs');
  const docs = release.docs ? memoryDocs(release.docs) : parquet ? await ParquetDocs.open(parquet.file) : undefined;
  await createTables(sql, release, taskTables(release), docs ? await docs.all() : []);
  await fillSourceQuality(sql);
  return sql;
}

export function loadSample(): Promise<LoadedRelease> {
  return loadRelease(new FolderSource(sampleDir), { deferParquet: false });
}

/** The sample's tables, and its files read plainly for the expected answers. */
export async function sampleTables(): Promise<{ sql: Sql; files: SampleFiles }> {
  const files = await readSampleFiles();
  return { sql: await tablesOf(await loadSample()), files };
}

/** Code-point order, as DuckDB compares VARCHAR. */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function jsonl<T>(file: string): T[] {
  return readFileSync(path.join(sampleDir, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

export interface SampleFiles {
  full: Task[];
  dev: Task[];
  fullQuestions: Question[];
  devQuestions: Question[];
  candidates: Candidate[];
  rejected: Rejected[];
  details: RejectionDetail[];
  pool: PoolEntry[];
  dropped: PoolDropped[];
  targets: EntityIndex;
  entities: EntityIndex;
  docs: Array<{ doc_id: string; quality: string; file_name: string }>;
}

export async function readSampleFiles(): Promise<SampleFiles> {
  const bytes = readFileSync(path.join(sampleDir, 'docs.parquet'));
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return {
    full: jsonl('full/tasks.jsonl'),
    dev: jsonl('dev/tasks.jsonl'),
    fullQuestions: jsonl('full/questions.jsonl'),
    devQuestions: jsonl('dev/questions.jsonl'),
    candidates: jsonl('build/candidates.jsonl'),
    rejected: jsonl('build/rejected.jsonl'),
    details: jsonl('build/rejection-details.jsonl'),
    pool: jsonl('build/pool.jsonl'),
    dropped: jsonl('build/pool_dropped.jsonl'),
    targets: JSON.parse(readFileSync(path.join(sampleDir, 'targets.json'), 'utf8')) as EntityIndex,
    entities: JSON.parse(readFileSync(path.join(sampleDir, 'entities.json'), 'utf8')) as EntityIndex,
    docs: (await parquetReadObjects({ file, columns: ['doc_id', 'quality', 'file_name'] })) as SampleFiles['docs'],
  };
}

/** The tables of a release built by hand from `parts`. */
export function handTables(parts: Partial<LoadedRelease>): Promise<Sql> {
  return tablesOf(handRelease(parts));
}

/** A release with nothing in it but what `parts` gives. */
export function handRelease(parts: Partial<LoadedRelease>): LoadedRelease {
  return {
    label: 'hand-built',
    layout: 'ours',
    descriptor: { id: 'hand', title: 'Hand-built', dataset_version: 'test', splits: {}, files: {} },
    splits: {},
    parquet: [],
    submissions: [],
    files: [],
    lacks: [],
    unsubmitted: [],
    ...parts,
  } as LoadedRelease;
}

/** A task with the fields a test does not care about filled in. */
export function task(fields: Partial<Task> & Pick<Task, 'task_id'>): Task {
  return {
    type: 'single_hop',
    answer: null,
    items: null,
    source_doc_ids: [],
    provenance: { generator_model: 'test', pipeline_version: 'test' },
    question: `Question of ${fields.task_id}?`,
    gold_docs: [],
    ...fields,
  };
}

export function questionOf(t: Task): Question {
  return { task_id: t.task_id, type: t.type, question: t.question };
}

/** A split whose answer key is published: questions and tasks. */
export function keyed(tasks: Task[]): { questions: Question[]; tasks: Task[] } {
  return { questions: tasks.map(questionOf), tasks };
}

export function doc(doc_id: string, quality: CorpusDoc['quality'] = 'clean', text = `Text of ${doc_id}.`): CorpusDoc {
  return { doc_id, text, quality, meta: { file_name: `${doc_id}.txt`, file_type: 'txt', online_url: '' } };
}

export function candidate(fields: Partial<Candidate> & Pick<Candidate, 'task_id'>): Candidate {
  return {
    type: 'single_hop',
    question: `Candidate ${fields.task_id}?`,
    answer: null,
    items: null,
    source_doc_ids: [],
    provenance: { generator_model: 'test', pipeline_version: 'test' },
    ...fields,
  };
}
