import { errorMessage } from '../error-message.ts';
import type { AsyncBuffer } from 'hyparquet';
import {
  loadRelease,
  ReleaseRefused,
  type FileReport,
  type LoadProgress,
  type LoadedRelease,
} from '../release/load.ts';
import { sourceOf, type SourceSpec } from '../release/source-spec.ts';
import type { JudgeProfile, Leaderboard, ReleaseDescriptor } from '../release/types.ts';
import * as q from './queries.ts';
import { docDetail } from './doc-queries.ts';
import { entityList, entityTasks } from './entity-queries.ts';
import { candidateDetail, funnel, rejections, type RejectionFilter } from './rejection-queries.ts';
import { releaseStats } from './stats.ts';
import type { Sql } from './sql.ts';
import { createTables, fillSourceQuality } from './tables.ts';
import { TextSearch } from './text-search.ts';
import type { Chunk } from '../release/types.ts';
import type { SourceLocator } from '../source-docs/locator.ts';
import { Table, Utf8, Int32, vectorFromArray } from 'apache-arrow';
import { SystemsIndex } from './systems.ts';
import type { SplitName } from '../release/types.ts';

export interface ReleaseSummary {
  label: string;
  layout: LoadedRelease['layout'];
  descriptor: ReleaseDescriptor;
  files: FileReport[];
  lacks: string[];
  counts: Array<{ split: string; type: string; count: number }>;
  manifestCounts: Array<{ split: string; type: string; count: number; n_tasks: number }>;
  hasKey: Record<string, boolean>;
  leaderboard?: Leaderboard;
  judgeProfile?: JudgeProfile;
  datasetCard?: string;
  submissions: Array<{
    slug: string;
    system_name?: string;
    split?: string;
    has_predictions: boolean;
    has_scores: boolean;
  }>;
  loadMs: number;
}

export type LoadOutcome = { ok: true; summary: ReleaseSummary } | { ok: false; error: string; file?: string };

/**
 * The data worker's API: loads a release (parsing and checks happen here, off the main
 * thread), fills DuckDB, and answers the explorer's typed questions.
 */
export function createExplorerData(startSql: () => Promise<Sql>, baseHref: string) {
  let sqlPromise: Promise<Sql> | undefined;
  // Loads replace the same tables, so they run one after another.
  let queue: Promise<unknown> = Promise.resolve();
  let current:
    | {
        release: LoadedRelease;
        summary: ReleaseSummary;
        docsParquet?: AsyncBuffer;
        chunksParquet?: AsyncBuffer;
        chunkDocIds?: Promise<string[]>;
      }
    | undefined;
  // Built after each load, off the load's critical path; text filters wait for it.
  let taskSearch: Promise<TextSearch> | undefined;
  let candidateSearch: Promise<TextSearch> | undefined;
  let hitTables = new Map<string, Promise<string>>();
  let loadNo = 0;
  const sql = () => (sqlPromise ??= startSql());
  // The submissions side by side: predictions are parsed on first use, once per loaded release.
  let systems: { release: LoadedRelease; index: SystemsIndex } | undefined;
  const systemsIndex = (): SystemsIndex | undefined => {
    const release = current?.release;
    if (!release) return undefined;
    if (systems?.release !== release) {
      const index = new SystemsIndex(
        (split) => release.splits[split]?.tasks,
        release.submissions,
        release.judgeProfile?.gate_max_citations,
      );
      systems = { release, index };
    }
    return systems.index;
  };

  async function loadNow(spec: SourceSpec, onProgress?: (p: LoadProgress) => void): Promise<LoadOutcome> {
    const started = performance.now();
    try {
      // DuckDB starts in its own worker while the files are read and parsed here.
      const dbReady = sql();
      dbReady.catch(() => undefined);
      const release = await loadRelease(sourceOf(spec, baseHref), { onProgress, deferParquet: true });
      const db = await dbReady;
      const docsParquet = release.parquet.find((p) => p.kind === 'docs');
      if (docsParquet && !release.docs) release.docs = [];
      await createTables(db, release);
      if (docsParquet) await insertParquetDocs(db, docsParquet.file);
      await fillSourceQuality(db);
      const summary = await summarise(db, release, performance.now() - started);
      current = {
        release,
        summary,
        docsParquet: docsParquet?.file,
        chunksParquet: release.parquet.find((p) => p.kind === 'chunks')?.file,
      };
      loadNo++;
      hitTables = new Map();
      // The search indexes are built on first use, or once the first page has had time to show.
      const mine = loadNo;
      taskSearch = undefined;
      candidateSearch = undefined;
      setTimeout(() => {
        if (mine === loadNo) void searchIndexes(db);
      }, 3000);
      return { ok: true, summary };
    } catch (error) {
      if (error instanceof ReleaseRefused) return { ok: false, error: error.message, file: error.file };
      return { ok: false, error: errorMessage(error) };
    }
  }

  function searchIndexes(db: Sql): { tasks: Promise<TextSearch>; candidates: Promise<TextSearch> } {
    taskSearch ??= buildTaskSearch(db);
    candidateSearch ??= buildCandidateSearch(db);
    return { tasks: taskSearch, candidates: candidateSearch };
  }

  /** The filter with its free text resolved to a table of Orama hits. */
  async function resolveText(filter: q.TaskFilter): Promise<q.TaskFilter> {
    const text = filter.text?.trim();
    if (!text || !current) return filter;
    const search = searchIndexes(await sql()).tasks;
    let table = hitTables.get(text);
    if (!table) {
      const name = `hits_${loadNo}_${hitTables.size}`;
      table = (async () => {
        const keys = await (await search).keys(text);
        await (await sql()).insertArrow(name, new Table({ key: vectorFromArray(keys, new Utf8()) }));
        return name;
      })();
      hitTables.set(text, table);
    }
    const { text: _, ...rest } = filter;
    return { ...rest, hitsTable: await table, hitsText: text };
  }

  async function chunksOf(docId: string): Promise<Chunk[] | undefined> {
    if (!current) return undefined;
    if (current.release.chunks) return current.release.chunks.filter((c) => c.doc_id === docId);
    const file = current.chunksParquet;
    if (!file) return undefined;
    const { parquetReadObjects } = await import('hyparquet');
    current.chunkDocIds ??= parquetReadObjects({ file, columns: ['doc_id'] }).then((rows) =>
      (rows as Array<{ doc_id: string }>).map((r) => r.doc_id),
    );
    const ids = await current.chunkDocIds;
    const first = ids.indexOf(docId);
    if (first < 0) return [];
    let last = first;
    while (ids[last + 1] === docId) last++;
    return (await parquetReadObjects({
      file,
      columns: ['chunk_id', 'doc_id', 'text'],
      rowStart: first,
      rowEnd: last + 1,
    })) as Chunk[];
  }

  return {
    /** Starts DuckDB early so that the first load does not wait for the wasm. */
    async warmUp(): Promise<void> {
      await sql();
    },

    load(spec: SourceSpec, onProgress?: (p: LoadProgress) => void): Promise<LoadOutcome> {
      const run = queue.then(() => loadNow(spec, onProgress));
      queue = run.catch(() => undefined);
      return run;
    },

    summary(): ReleaseSummary | undefined {
      return current?.summary;
    },

    async taskPage(filter: q.TaskFilter, sort: q.TaskOrder, offset: number, limit: number) {
      return q.taskPage(await sql(), await resolveText(filter), sort, offset, limit);
    },

    async taskRows(filter: q.TaskFilter, sort: q.TaskOrder, offset: number, limit: number) {
      return q.taskRows(await sql(), await resolveText(filter), sort, offset, limit);
    },

    async taskFacets(filter: q.TaskFilter) {
      return q.taskFacets(await sql(), await resolveText(filter));
    },

    async taskNeighbours(filter: q.TaskFilter, sort: q.TaskOrder, taskId: string, split: string) {
      return q.taskNeighbours(await sql(), await resolveText(filter), sort, taskId, split);
    },

    async taskIds(filter: q.TaskFilter, sort: q.TaskOrder): Promise<string[]> {
      const page = await q.taskRows(await sql(), await resolveText(filter), sort, 0, 10_000);
      return page.rows.map((r) => r.task_id);
    },

    async taskDetail(taskId: string, split?: string) {
      return q.taskDetail(await sql(), taskId, split);
    },

    async docs(ids: string[]) {
      return q.docsByIds(await sql(), ids);
    },

    /** A document's text: from the table, or from the docs parquet by row (range read). */
    async docText(docId: string): Promise<string | undefined> {
      const db = await sql();
      const [row] = await db.all<{ row_no: number; text: string | null }>(
        'SELECT row_no, text FROM docs WHERE doc_id = ?',
        [docId],
      );
      if (!row) return undefined;
      if (row.text !== null) return row.text;
      if (!current?.docsParquet) return undefined;
      const { parquetReadObjects } = await import('hyparquet');
      const [hit] = (await parquetReadObjects({
        file: current.docsParquet,
        columns: ['text'],
        rowStart: row.row_no,
        rowEnd: row.row_no + 1,
      })) as Array<{ text: string }>;
      return hit?.text;
    },

    async docDetail(docId: string) {
      return docDetail(await sql(), docId);
    },

    /** The release's chunks of a document (chunks.jsonl or chunks.parquet), or undefined without chunks. */
    chunks: chunksOf,

    /** The release's locator of its documents in the Hugging Face source, when it ships one. */
    sourceLocator(): SourceLocator | undefined {
      return current?.release.sourceLocator;
    },

    async funnel() {
      return funnel(await sql());
    },

    async rejections(filter: RejectionFilter & { text?: string }, offset: number, limit: number) {
      const { text, ...facets } = filter;
      let ids: string[] | undefined;
      if (text?.trim() && current) ids = await (await searchIndexes(await sql()).candidates).keys(text.trim());
      return rejections(await sql(), facets, offset, limit, ids);
    },

    async candidate(taskId: string) {
      return candidateDetail(await sql(), taskId);
    },

    async entities(all: boolean) {
      return entityList(await sql(), all);
    },

    async entityTasks(name: string) {
      return entityTasks(await sql(), name);
    },

    async stats() {
      return releaseStats(await sql());
    },

    /** Tasks × submissions with the judge-free numbers of each (parses the predictions on first use). */
    systemsMatrix(split: SplitName) {
      return systemsIndex()?.matrix(split);
    },

    /** Each submission's answer, citations and retrieved list for one task. */
    taskSystems(taskId: string, split: SplitName) {
      return systemsIndex()?.task(taskId, split) ?? [];
    },
  };
}

async function buildTaskSearch(db: Sql): Promise<TextSearch> {
  const rows = await db.all<{
    split: string;
    task_id: string;
    question: string;
    answer: string | null;
    items_json: string | null;
    false_element: string | null;
  }>('SELECT split, task_id, question, answer, items_json, false_element FROM tasks');
  return TextSearch.build(
    rows.map((r) => ({
      key: `${r.split}:${r.task_id}`,
      question: r.question,
      answer: [r.answer ?? '', r.false_element ?? ''].join(' ').trim(),
      items: itemsText(r.items_json),
    })),
  );
}

async function buildCandidateSearch(db: Sql): Promise<TextSearch> {
  const rows = await db.all<{ task_id: string; question: string; answer: string | null; items_json: string | null }>(
    'SELECT task_id, question, answer, items_json FROM candidates',
  );
  return TextSearch.build(
    rows.map((r) => ({ key: r.task_id, question: r.question, answer: r.answer ?? '', items: itemsText(r.items_json) })),
  );
}

function itemsText(json: string | null): string {
  if (!json) return '';
  return (JSON.parse(json) as Array<{ item: string }>).map((i) => i.item).join('\n');
}

/** Only the small columns are read at load; text stays in the file until a document is opened. */
async function insertParquetDocs(db: Sql, file: AsyncBuffer): Promise<void> {
  const { parquetMetadataAsync, parquetReadObjects, parquetSchema } = await import('hyparquet');
  const metadata = await parquetMetadataAsync(file);
  const present = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
  if (!present.has('doc_id')) throw new Error('docs.parquet has no doc_id column');
  const wanted = ['doc_id', 'quality', 'file_name', 'file_type', 'online_url', 'n_chars'].filter((c) => present.has(c));
  const rows = (await parquetReadObjects({ file, metadata, columns: wanted })) as Array<Record<string, unknown>>;
  const str = (k: string) =>
    vectorFromArray(
      rows.map((r) => (r[k] === undefined || r[k] === null ? null : String(r[k]))),
      new Utf8(),
    );
  await db.exec('DROP TABLE IF EXISTS docs');
  await db.insertArrow(
    'docs',
    new Table({
      doc_id: str('doc_id'),
      row_no: vectorFromArray(
        rows.map((_, i) => i),
        new Int32(),
      ),
      quality: str('quality'),
      file_name: str('file_name'),
      file_type: str('file_type'),
      online_url: str('online_url'),
      n_chars: vectorFromArray(
        rows.map((r) =>
          typeof r.n_chars === 'number' ? r.n_chars : typeof r.n_chars === 'bigint' ? Number(r.n_chars) : null,
        ),
        new Int32(),
      ),
      text: vectorFromArray(
        rows.map(() => null),
        new Utf8(),
      ),
    }),
  );
}

async function summarise(db: Sql, release: LoadedRelease, loadMs: number): Promise<ReleaseSummary> {
  const manifestCounts = Object.entries(release.manifest?.splits ?? {}).flatMap(([split, s]) =>
    Object.entries(s?.by_type ?? {}).map(([type, count]) => ({
      split,
      type,
      count: count ?? 0,
      n_tasks: s?.n_tasks ?? 0,
    })),
  );
  const hasKey = Object.fromEntries(Object.entries(release.splits).map(([split, s]) => [split, Boolean(s?.tasks)]));
  return {
    label: release.label,
    layout: release.layout,
    descriptor: release.descriptor,
    files: release.files,
    lacks: release.lacks,
    counts: await q.countsBySplitType(db),
    manifestCounts,
    hasKey,
    leaderboard: release.leaderboard,
    judgeProfile: release.judgeProfile,
    datasetCard: release.datasetCard,
    submissions: release.submissions.map((s) => ({
      slug: s.slug,
      system_name: s.metadata?.system_name ?? s.scores?.system_name,
      split: s.metadata?.split ?? s.scores?.split,
      has_predictions: s.predictionsText !== undefined,
      has_scores: s.scores !== undefined,
    })),
    loadMs,
  };
}
