/**
 * The corpus as the explorer looks it up: a document's row (quality, file name, size) and its
 * text, from docs.jsonl in memory or from docs.parquet by range reads. For parquet only the
 * row groups that can hold the asked ids are read (row-group min/max statistics of doc_id),
 * and the text column only for the one row a reader opens.
 */
import { parquetSchema, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { readParquetRows } from '../parquet/read-rows.ts';
import { readParquetFooter } from '../parquet/checked-metadata.ts';
import type { CorpusDoc } from '../release/types.ts';
import type { DocRow } from './task-vocabulary.ts';
import { compareText } from './task-records.ts';

/** A docs table row: what DocRow shows plus the text when it is held in memory (docs.jsonl). */
export interface DocRecord extends DocRow {
  text: string | null;
}

const SMALL_COLUMNS = ['doc_id', 'quality', 'file_name', 'file_type', 'online_url', 'n_chars'] as const;
/** The footer of the sample's docs.parquet is 4 KB; hyparquet's default first read is 512 KB. */
const FOOTER_FETCH = 16 * 1024;
const footerFetch = (file: AsyncBuffer) => Math.min(FOOTER_FETCH, file.byteLength);

export interface DocsIndex {
  /** Rows of these ids, in doc_id order (ids the corpus does not have are left out). */
  rows(ids: readonly string[]): Promise<DocRow[]>;
  /** Every row, in file order. */
  all(): Promise<DocRecord[]>;
  text(docId: string): Promise<string | undefined>;
  /** The first `limit` documents in file order with the first `maxChars` of their text (the map's documents layer). */
  openings(limit: number, maxChars: number): Promise<DocOpening[]>;
}

export interface DocOpening {
  doc_id: string;
  quality: string | null;
  file_name: string | null;
  text: string;
}

function byDocId<T extends { doc_id: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => compareText(a.doc_id, b.doc_id));
}

function rowOf(d: DocRecord): DocRow {
  const { text: _, ...row } = d;
  return row;
}

/** docs.jsonl (or any corpus parsed whole): everything is already in memory. */
export function memoryDocs(docs: readonly CorpusDoc[]): DocsIndex {
  const records: DocRecord[] = docs.map((d, i) => ({
    doc_id: d.doc_id,
    row_no: i,
    quality: d.quality,
    file_name: d.meta.file_name ?? null,
    file_type: d.meta.file_type ?? null,
    online_url: d.meta.online_url ?? null,
    n_chars: d.text.length,
    text: d.text,
  }));
  const byId = new Map<string, DocRecord[]>();
  for (const r of records) byId.set(r.doc_id, [...(byId.get(r.doc_id) ?? []), r]);
  return {
    async rows(ids) {
      return byDocId([...new Set(ids)].flatMap((id) => (byId.get(id) ?? []).map(rowOf)));
    },
    async all() {
      return records;
    },
    async text(docId) {
      return byId.get(docId)?.[0]?.text ?? undefined;
    },
    async openings(limit, maxChars) {
      return records.slice(0, limit).map((d) => ({
        doc_id: d.doc_id,
        quality: d.quality,
        file_name: d.file_name,
        text: (d.text ?? '').slice(0, maxChars),
      }));
    },
  };
}

interface Group {
  start: number;
  rows: number;
  min?: string;
  max?: string;
}

/** Texts kept after reading (a task page asks for its first gold document's text twice: prefetch, then view). */
const TEXTS_KEPT = 8;

/** docs.parquet read by ranges (hyparquet). */
export class ParquetDocs implements DocsIndex {
  private readonly loaded = new Map<number, Promise<DocRecord[]>>();
  private readonly texts = new Map<string, Promise<string | undefined>>();

  private constructor(
    private readonly file: AsyncBuffer,
    private readonly metadata: FileMetaData,
    private readonly columns: string[],
    private readonly groups: Group[],
    private readonly name: string,
  ) {}

  /**
   * Starts open()'s first read (hyparquet's: the file's last bytes), so that a file that keeps
   * its ranges (CachingSource) has them when open() asks.
   */
  static prefetchFooter(file: AsyncBuffer): void {
    void Promise.resolve(file.slice(file.byteLength - footerFetch(file), file.byteLength)).catch(() => undefined);
  }

  /** Reads the footer; refuses a file without a doc_id column (the message names the file). */
  static async open(file: AsyncBuffer, path = 'docs.parquet'): Promise<ParquetDocs> {
    const metadata = await readParquetFooter(file, path, footerFetch(file));
    const present = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
    if (!present.has('doc_id')) throw new Error(`${path} has no doc_id column`);
    const idColumn = metadata.schema.findIndex((s) => s.name === 'doc_id') - 1;
    let start = 0;
    const groups = metadata.row_groups.map((g): Group => {
      const stats = g.columns[idColumn]?.meta_data?.statistics;
      const group: Group = { start, rows: Number(g.num_rows) };
      if (typeof stats?.min_value === 'string' && typeof stats.max_value === 'string') {
        group.min = stats.min_value;
        group.max = stats.max_value;
      }
      start += group.rows;
      return group;
    });
    return new ParquetDocs(
      file,
      metadata,
      SMALL_COLUMNS.filter((c) => present.has(c)),
      groups,
      path,
    );
  }

  private group(i: number): Promise<DocRecord[]> {
    let rows = this.loaded.get(i);
    if (!rows) {
      rows = this.read(i, i + 1);
      rows.catch(() => this.loaded.delete(i));
      this.loaded.set(i, rows);
    }
    return rows;
  }

  /** The small columns of row groups [first, end). */
  private async read(first: number, end: number): Promise<DocRecord[]> {
    const start = this.groups[first]!.start;
    const last = this.groups[end - 1]!;
    const read = await readParquetRows(
      {
        file: this.file,
        metadata: this.metadata,
        columns: this.columns,
        rowStart: start,
        rowEnd: last.start + last.rows,
      },
      this.name,
    );
    const str = (v: unknown) => (v === undefined || v === null ? null : String(v));
    return read.map((r, j): DocRecord => ({
      doc_id: String(r.doc_id),
      row_no: start + j,
      // Null as DuckDB returns it for a missing quality, whatever DocRow's type says.
      quality: str(r.quality) as string,
      file_name: str(r.file_name),
      file_type: str(r.file_type),
      online_url: str(r.online_url),
      n_chars: typeof r.n_chars === 'number' ? r.n_chars : typeof r.n_chars === 'bigint' ? Number(r.n_chars) : null,
      text: null,
    }));
  }

  /** Row groups whose doc_id range can hold the id (all of them without statistics). */
  private groupsFor(id: string): number[] {
    const out: number[] = [];
    this.groups.forEach((g, i) => {
      if (g.min === undefined || g.max === undefined) out.push(i);
      else if (compareText(g.min, id) <= 0 && compareText(id, g.max) <= 0) out.push(i);
    });
    return out;
  }

  async rows(ids: readonly string[]): Promise<DocRow[]> {
    const wanted = new Set(ids);
    const groups = [...new Set([...wanted].flatMap((id) => this.groupsFor(id)))].sort((a, b) => a - b);
    const found = (await Promise.all(groups.map((i) => this.group(i)))).flat();
    return byDocId(found.filter((r) => wanted.has(r.doc_id)).map(rowOf));
  }

  /** Every row: one read of all row groups (hyparquet fetches their column chunks together). */
  async all(): Promise<DocRecord[]> {
    if (this.loaded.size === 0 && this.groups.length > 1) {
      const every = this.read(0, this.groups.length);
      this.groups.forEach((g, i) =>
        this.loaded.set(
          i,
          every.then((rows) => rows.slice(g.start, g.start + g.rows)),
        ),
      );
      every.catch(() => this.loaded.clear());
    }
    return (await Promise.all(this.groups.map((_, i) => this.group(i)))).flat();
  }

  text(docId: string): Promise<string | undefined> {
    let text = this.texts.get(docId);
    if (!text) {
      text = this.readText(docId);
      this.texts.set(docId, text);
      text.catch(() => this.texts.delete(docId));
      const oldest = this.texts.keys().next().value;
      if (this.texts.size > TEXTS_KEPT && oldest !== undefined) this.texts.delete(oldest);
    }
    return text;
  }

  /** One read of the text column for the first rows (the column is the file's bulk: read only when asked). */
  async openings(limit: number, maxChars: number): Promise<DocOpening[]> {
    const end = Math.min(
      limit,
      this.groups.reduce((n, g) => n + g.rows, 0),
    );
    if (end === 0 || !this.metadata.schema.some((s) => s.name === 'text')) return [];
    const [rows, texts] = await Promise.all([
      this.all(),
      readParquetRows(
        { file: this.file, metadata: this.metadata, columns: ['text'], rowStart: 0, rowEnd: end },
        this.name,
      ) as Promise<Array<{ text?: string | null }>>,
    ]);
    return texts.map((t, i) => ({
      doc_id: rows[i]!.doc_id,
      quality: rows[i]!.quality,
      file_name: rows[i]!.file_name,
      text: (t.text ?? '').slice(0, maxChars),
    }));
  }

  private async readText(docId: string): Promise<string | undefined> {
    const [row] = (await this.rows([docId])).sort((a, b) => a.row_no - b.row_no);
    if (!row) return undefined;
    const [hit] = (await readParquetRows(
      { file: this.file, metadata: this.metadata, columns: ['text'], rowStart: row.row_no, rowEnd: row.row_no + 1 },
      this.name,
    )) as Array<{ text?: string | null }>;
    return hit?.text ?? undefined;
  }
}
