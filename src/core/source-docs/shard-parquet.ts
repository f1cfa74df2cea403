/**
 * Reading a parquet shard by ranges: its footer, the doc_id statistics of each row group, and
 * rows of chosen columns of one row group. Reads are planned here, column chunk by column chunk,
 * so that nothing of another column (the media columns are hundreds of MB) is ever requested.
 */
import { type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { readParquetRows } from '../parquet/read-rows.ts';
import { checkedParquetMetadata } from '../parquet/checked-metadata.ts';
import { errorMessage } from '../error-message.ts';
import { SourceError } from './http.ts';

/** Reads bytes [start, end) of one shard. */
export type ReadBytes = (start: number, end: number) => Promise<Uint8Array>;

/** The text columns of the source (docs/benchmark-spec.md 1.7); the media columns are never read. */
export const TEXT_COLUMNS = ['doc_id', 'file_name', 'file_type', 'online_url', 'text_content'] as const;
export type TextColumn = (typeof TEXT_COLUMNS)[number];

export interface RowGroupSummary {
  rows: number;
  /** doc_id bounds from the statistics, when the writer kept them. */
  min?: string;
  max?: string;
}

export interface ShardSummary {
  rowGroups: RowGroupSummary[];
  /** Which text columns the shard has. */
  columns: TextColumn[];
}

const MAGIC = 0x31524150; // "PAR1" little-endian
/** Text compresses about 3-5x; more than this is not a text column we want to hold. */
const UNCOMPRESSED_FACTOR = 8;

/** The shard's footer bytes (thrift metadata + length + "PAR1"), in one read when it fits. */
export async function readFooterBytes(
  read: ReadBytes,
  size: number,
  initialFetch: number,
  maxFooterBytes: number,
  label: string,
): Promise<Uint8Array> {
  if (size < 12) throw new SourceError(`${label}: ${size} bytes is too short for a parquet file`, 'bad-data');
  const tailStart = Math.max(0, size - initialFetch);
  const tail = await read(tailStart, size);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  if (tail.byteLength < 8 || view.getUint32(tail.byteLength - 4, true) !== MAGIC)
    throw new SourceError(`${label}: not a parquet file (no PAR1 at its end)`, 'bad-data');
  const metadataLength = view.getUint32(tail.byteLength - 8, true);
  const footerLength = metadataLength + 8;
  if (footerLength > size - 4)
    throw new SourceError(`${label}: footer length ${metadataLength} is larger than the file`, 'bad-data');
  if (footerLength > maxFooterBytes)
    throw new SourceError(
      `${label}: footer of ${footerLength.toLocaleString('en')} bytes is over the ${maxFooterBytes.toLocaleString('en')}-byte limit`,
      'too-large',
    );
  if (footerLength <= tail.byteLength) return tail.slice(tail.byteLength - footerLength);
  const head = await read(size - footerLength, tailStart);
  const out = new Uint8Array(footerLength);
  out.set(head, 0);
  out.set(tail, head.byteLength);
  return out;
}

export function parseFooter(bytes: Uint8Array, label: string): FileMetaData {
  try {
    return checkedParquetMetadata(bytes);
  } catch (e) {
    throw new SourceError(`${label}: unreadable parquet footer (${errorMessage(e)})`, 'bad-data');
  }
}

function chunkOf(metadata: FileMetaData, rowGroup: number, column: string) {
  const rg = metadata.row_groups[rowGroup];
  return rg?.columns.find((c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === column);
}

/** Byte range of one flat column's chunk in one row group. */
export function chunkRange(
  metadata: FileMetaData,
  rowGroup: number,
  column: string,
): { start: number; end: number } | undefined {
  const meta = chunkOf(metadata, rowGroup, column)?.meta_data;
  if (!meta) return undefined;
  const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
  return { start, end: start + Number(meta.total_compressed_size) };
}

const isAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);

/** Row counts and doc_id bounds of each row group, and which text columns exist. */
export function summarise(metadata: FileMetaData, label: string): ShardSummary {
  const columns = TEXT_COLUMNS.filter((c) => chunkOf(metadata, 0, c) !== undefined || metadata.row_groups.length === 0);
  if (!columns.includes('doc_id') || !columns.includes('text_content'))
    throw new SourceError(`${label}: has no doc_id and text_content columns`, 'bad-data');
  const rowGroups = metadata.row_groups.map((rg, i) => {
    const stats = chunkOf(metadata, i, 'doc_id')?.meta_data?.statistics;
    const min = stats?.min_value ?? stats?.min;
    const max = stats?.max_value ?? stats?.max;
    const summary: RowGroupSummary = { rows: Number(rg.num_rows) };
    // Old-style min/max compared bytes as signed; for ASCII ids that is the same order.
    if (typeof min === 'string' && typeof max === 'string' && isAscii(min) && isAscii(max)) {
      summary.min = min;
      summary.max = max;
    }
    return summary;
  });
  return { rowGroups, columns };
}

/** Row groups that may hold docId: its statistics include it, or there are none. */
export function candidateRowGroups(summary: ShardSummary, docId: string): number[] {
  const out: number[] = [];
  const usable = isAscii(docId);
  summary.rowGroups.forEach((rg, i) => {
    if (rg.rows === 0) return;
    if (!usable || rg.min === undefined || rg.max === undefined || (rg.min <= docId && docId <= rg.max)) out.push(i);
  });
  return out;
}

/**
 * Rows [rowStart, rowEnd) of one row group, only the given columns. Each column chunk is one
 * planned range (adjacent chunks are merged, gaps never are); hyparquet reads from those bytes
 * only. Fails before any request when the chunks pass maxBytes.
 */
export async function readRowGroupRows(
  read: ReadBytes,
  size: number,
  metadata: FileMetaData,
  rowGroup: number,
  columns: readonly string[],
  rowStart: number,
  rowEnd: number,
  maxBytes: number,
  label: string,
): Promise<Array<Record<string, unknown>>> {
  const rg = metadata.row_groups[rowGroup];
  if (!rg) throw new SourceError(`${label}: has no row group ${rowGroup}`, 'bad-data');
  const rows = Number(rg.num_rows);
  if (rowStart < 0 || rowEnd > rows || rowStart >= rowEnd)
    throw new SourceError(
      `${label}: row group ${rowGroup} has ${rows} rows, not rows ${rowStart}-${rowEnd - 1}`,
      'bad-data',
    );
  const ranges = columns.map((c) => {
    const r = chunkRange(metadata, rowGroup, c);
    if (!r) throw new SourceError(`${label}: row group ${rowGroup} has no ${c} column`, 'bad-data');
    if (r.start < 4 || r.end > size || r.end < r.start)
      throw new SourceError(`${label}: column ${c} of row group ${rowGroup} points outside the file`, 'bad-data');
    return r;
  });
  const total = ranges.reduce((n, r) => n + (r.end - r.start), 0);
  // Decoded pages are allocated at their declared size: bound that as well as the bytes fetched.
  const declared = columns.reduce(
    (n, c) => n + Number(chunkOf(metadata, rowGroup, c)?.meta_data?.total_uncompressed_size ?? 0),
    0,
  );
  if (declared > maxBytes * UNCOMPRESSED_FACTOR)
    throw new SourceError(
      `${label}: row group ${rowGroup}'s ${columns.join(', ')} declare ${declared.toLocaleString('en')} bytes uncompressed, over the limit`,
      'too-large',
    );
  if (total > maxBytes)
    throw new SourceError(
      `${label}: row group ${rowGroup}'s ${columns.join(', ')} take ${total.toLocaleString('en')} bytes, over the ${maxBytes.toLocaleString('en')}-byte limit`,
      'too-large',
    );
  const merged = mergeTouching(ranges);
  const fetched = await Promise.all(merged.map(async (r) => ({ ...r, bytes: await read(r.start, r.end) })));
  const file = plannedBuffer(size, fetched, label);
  try {
    return await readParquetRows(
      {
        file,
        metadata: { ...metadata, row_groups: [rg], num_rows: rg.num_rows },
        columns: [...columns],
        rowStart,
        rowEnd,
      },
      label,
    );
  } catch (e) {
    if (e instanceof SourceError) throw e;
    throw new SourceError(`${label}: row group ${rowGroup} could not be decoded (${errorMessage(e)})`, 'bad-data');
  }
}

function mergeTouching(ranges: ReadonlyArray<{ start: number; end: number }>): Array<{ start: number; end: number }> {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: Array<{ start: number; end: number }> = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/**
 * An AsyncBuffer over the fetched ranges only. hyparquet may ask for a slice spanning two chunks
 * with a small gap between them; the gap (another column's bytes) reads as zeros and is never
 * decoded. A slice touching no fetched byte is a planning error, not a reason to fetch.
 */
function plannedBuffer(
  size: number,
  fetched: ReadonlyArray<{ start: number; end: number; bytes: Uint8Array }>,
  label: string,
): AsyncBuffer {
  return {
    byteLength: size,
    slice(start: number, end = size): ArrayBuffer {
      const out = new Uint8Array(end - start);
      let covered = 0;
      for (const f of fetched) {
        const from = Math.max(start, f.start);
        const to = Math.min(end, f.end);
        if (to <= from) continue;
        out.set(f.bytes.subarray(from - f.start, to - f.start), from - start);
        covered += to - from;
      }
      if (covered === 0) throw new SourceError(`${label}: read of bytes ${start}-${end} was not planned`, 'bad-data');
      return out.buffer;
    },
  };
}
