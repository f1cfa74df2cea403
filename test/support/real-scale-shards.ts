/**
 * Shards shaped like the Hugging Face source at real scale (634 parquet files, ~6,500 rows each,
 * 100 rows a row group, EFTA + 8-digit ids, hundreds of MB of media per shard), made on demand
 * so that nothing near 340 GB is ever held. Each shard is written for real with its text columns
 * (doc_id, file_name, file_type, online_url, text_content) and empty media columns; the media
 * column chunks are then widened to their virtual sizes by moving every later offset, and the
 * footer is written again (padded to a chosen size, as pyarrow's large footers are). A range
 * inside a media chunk reads as zeros and is counted as media bytes.
 */
import { parquetMetadata, type FileMetaData } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { ByteWriter } from 'hyparquet-writer/src/bytewriter.js';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';

export const REAL_SHARDS = 634;
export const REAL_ROWS_PER_SHARD = 6_500;

export interface RealScaleOptions {
  shards?: number;
  /** Average rows a shard (each shard varies by up to +-15%). */
  rowsPerShard?: number;
  rowGroupSize?: number;
  /** Footer size in bytes (padded to it); pyarrow-like footers are about twice hyparquet's. */
  footerBytes?: number;
  /** Ids increase across shards (a dataset written in file order), or are spread over all shards. */
  order: 'sorted' | 'unsorted';
  /** Ids that must exist (e.g. v1.0's gold documents). */
  include?: readonly string[];
  /** Text of a given id (the rest is generated). */
  textOf?: (docId: string) => string | undefined;
  /** Media bytes per row group (virtual): image, audio, video. */
  mediaPerRowGroup?: number;
}

export interface VirtualShard {
  path: string;
  size: number;
  /** [start, end) of every media column chunk, virtual offsets. */
  media: Array<{ start: number; end: number }>;
  footerStart: number;
  read(start: number, end: number): Uint8Array;
}

export interface RealScaleShards {
  paths: string[];
  /** Size of each shard (without building it). */
  sizeOf(path: string): number;
  shard(path: string): VirtualShard;
  /** Which shard holds the id (for tests), or undefined. */
  shardOfId(docId: string): string | undefined;
  /** The text the mock serves for an id. */
  textOfId(docId: string): string | undefined;
  rows: number;
  options: Required<Omit<RealScaleOptions, 'textOf' | 'include'>>;
}

const MEDIA = new Set(['image', 'audio', 'video']);
const WORDS =
  'the of and to in a for on that by with from was is as at report records office agent case file page date letter account flight property interview statement meeting copy note email schedule transfer request notice court order exhibit'.split(
    ' ',
  );

function hash32(n: number): number {
  let x = (n ^ 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const idOf = (n: number) => `EFTA${String(n).padStart(8, '0')}`;
const numberOf = (id: string) => (/^EFTA\d{8}$/.test(id) ? Number(id.slice(4)) : NaN);

/** ASCII text of exactly `length` characters (so that chunk sizes depend on lengths only). */
function generatedText(n: number, length: number): string {
  const out: string[] = [`Document ${idOf(n)}.`];
  let size = out[0]!.length;
  for (let i = 0; size < length; i++) {
    const w = WORDS[hash32(n * 131 + i) % WORDS.length]!;
    out.push(w);
    size += w.length + 1;
  }
  return out.join(' ').slice(0, length).padEnd(length, '.');
}

export function makeRealScaleShards(options: RealScaleOptions): RealScaleShards {
  const o = {
    shards: options.shards ?? REAL_SHARDS,
    rowsPerShard: options.rowsPerShard ?? REAL_ROWS_PER_SHARD,
    rowGroupSize: options.rowGroupSize ?? 100,
    footerBytes: options.footerBytes ?? 46_000,
    order: options.order,
    mediaPerRowGroup: options.mediaPerRowGroup ?? 8_000_000,
  };
  // Rows per shard vary.
  // Whole row groups only, so that every shard's layout follows from one written row group.
  const counts = Array.from(
    { length: o.shards },
    (_, s) =>
      Math.round((o.rowsPerShard * (0.85 + (hash32(s + 99) % 3000) / 10_000)) / o.rowGroupSize) * o.rowGroupSize,
  );
  const rows = counts.reduce((a, b) => a + b, 0);
  const included = new Set((options.include ?? []).map(numberOf).filter((n) => Number.isFinite(n)));
  // About two numbers in three are ids, spread far enough to reach every included id.
  const span = Math.max(Math.round(rows * 1.5), Math.round((Math.max(0, ...included) + 1) * 1.01));
  const keep = Math.floor(((rows - included.size) / span) * 0.99 * 2 ** 32);
  const numbers = new Int32Array(rows);
  for (let n = 1, r = 0; r < rows; n++) if (included.has(n) || hash32(n) < keep || n > span) numbers[r++] = n;
  for (const n of included)
    if (numbers[rows - 1]! < n) throw new Error(`EFTA${String(n).padStart(8, '0')} did not fit in ${rows} rows`);
  if (numbers[rows - 1]! > 99_999_999) throw new Error('ids past EFTA + 8 digits');
  // Sorted: shard s holds the next counts[s] ids. Unsorted: row r goes to a shard by its hash.
  const members: Int32Array[] = [];
  if (o.order === 'sorted') {
    let at = 0;
    for (const c of counts) {
      members.push(numbers.subarray(at, at + c));
      at += c;
    }
  } else {
    const lists: number[][] = Array.from({ length: o.shards }, () => []);
    for (let r = 0; r < rows; r++) lists[hash32(r * 3 + 5) % o.shards]!.push(numbers[r]!);
    for (const l of lists) members.push(Int32Array.from(l));
  }
  const paths = members.map(
    (_, s) => `data/train-${String(s).padStart(5, '0')}-of-${String(o.shards).padStart(5, '0')}.parquet`,
  );
  const index = new Map(paths.map((p, s) => [p, s]));
  const built = new Map<number, VirtualShard>();
  const sizes = new Map<number, number>();
  const rowGroups = new Map<string, Uint8Array>();

  const genericText = (n: number, row: number) => {
    const length = 300 + (hash32(row + 17) % 2500);
    return generatedText(n, length);
  };
  const textFor = (n: number, row: number) => options.textOf?.(idOf(n)) ?? genericText(n, row);
  const overridden = (ids: Int32Array) =>
    options.textOf !== undefined && ids.some((n) => options.textOf!(idOf(n)) !== undefined);

  /** One row group written alone: "PAR1", its column chunks, its footer. */
  function writeRowGroup(numbers: Int32Array): Uint8Array {
    const ids = [...numbers].map(idOf);
    const plain = { offsetIndex: false, encoding: 'PLAIN' as const };
    return new Uint8Array(
      parquetWriteBuffer({
        rowGroupSize: numbers.length,
        codec: 'UNCOMPRESSED',
        columnData: [
          { name: 'doc_id', data: ids, type: 'STRING', nullable: false, ...plain },
          {
            name: 'file_name',
            data: ids.map((id) => `DataSet 9/${id}.pdf`),
            type: 'STRING',
            statistics: false,
            ...plain,
          },
          { name: 'file_type', data: ids.map(() => 'pdf'), type: 'STRING', statistics: false, ...plain },
          {
            name: 'online_url',
            data: ids.map((id) => `https://www.justice.gov/epstein/files/DataSet%209/${id}.pdf`),
            type: 'STRING',
            statistics: false,
            ...plain,
          },
          { name: 'image', data: ids.map(() => null), type: 'BYTE_ARRAY', statistics: false, ...plain },
          {
            name: 'text_content',
            data: [...numbers].map((n, row) => textFor(n, row)),
            type: 'STRING',
            statistics: false,
            ...plain,
          },
          { name: 'audio', data: ids.map(() => null), type: 'BYTE_ARRAY', statistics: false, ...plain },
          { name: 'video', data: ids.map(() => null), type: 'BYTE_ARRAY', statistics: false, ...plain },
        ],
      }),
    );
  }

  interface Layout {
    metadata: FileMetaData;
    /** Bytes of the row group's chunks in its own small file: [4, dataEnd). */
    dataEnd: number;
  }
  const layoutOf = (bytes: Uint8Array): Layout => {
    const metadata = parquetMetadata(bytes);
    return { metadata, dataEnd: bytes.byteLength - metadata.metadata_length - 8 };
  };
  // Every generic row group of rowGroupSize rows has the same chunk sizes (ids, names and text
  // lengths depend on the row's position only), so one written row group gives them all.
  const template = layoutOf(writeRowGroup(Int32Array.from({ length: o.rowGroupSize }, (_, i) => 10_000_000 + i)));

  function groupsOf(s: number): Int32Array[] {
    const m = members[s]!;
    const out: Int32Array[] = [];
    for (let at = 0; at < m.length; at += o.rowGroupSize) out.push(m.subarray(at, at + o.rowGroupSize));
    return out;
  }

  function rowGroupBytes(s: number, i: number): Uint8Array {
    const key = `${s}#${i}`;
    let b = rowGroups.get(key);
    if (!b) {
      b = writeRowGroup(groupsOf(s)[i]!);
      rowGroups.set(key, b);
      while (rowGroups.size > 256) rowGroups.delete(rowGroups.keys().next().value!);
    }
    return b;
  }

  function build(s: number): VirtualShard {
    const groups = groupsOf(s);
    const chunks: Array<
      { start: number; end: number; rg: number; from: number } | { start: number; end: number; rg: -1; from: 0 }
    > = [];
    const media: Array<{ start: number; end: number }> = [];
    const rowGroupMeta: FileMetaData['row_groups'] = [];
    let at = 4;
    groups.forEach((numbers, i) => {
      const layout =
        numbers.length === o.rowGroupSize && !overridden(numbers) ? template : layoutOf(rowGroupBytes(s, i));
      const rg = layout.metadata.row_groups[0]!;
      const rgStart = at;
      const columns = rg.columns.map((c) => {
        const m = c.meta_data!;
        const name = m.path_in_schema[0] ?? '';
        const from = Number(m.data_page_offset);
        const length = Number(m.total_compressed_size);
        const start = at;
        chunks.push({ start, end: start + length, rg: i, from });
        at += length;
        let gap = 0;
        if (MEDIA.has(name)) {
          const share = name === 'image' ? 0.9 : name === 'video' ? 0.1 : 0;
          gap = Math.round(o.mediaPerRowGroup * share * (0.5 + (hash32(s * 1000 + i) % 1000) / 1000));
          chunks.push({ start: at, end: at + gap, rg: -1, from: 0 });
          media.push({ start, end: at + gap });
          at += gap;
        }
        const stats =
          name === 'doc_id'
            ? { ...m.statistics, min_value: idOf(Math.min(...numbers)), max_value: idOf(Math.max(...numbers)) }
            : m.statistics;
        return {
          ...c,
          file_offset: BigInt(start),
          meta_data: {
            ...m,
            data_page_offset: BigInt(start),
            total_compressed_size: BigInt(length + gap),
            total_uncompressed_size: m.total_uncompressed_size + BigInt(gap),
            ...(stats ? { statistics: stats } : {}),
          },
        };
      });
      rowGroupMeta.push({
        ...rg,
        columns,
        num_rows: BigInt(numbers.length),
        file_offset: BigInt(rgStart),
        total_compressed_size: BigInt(at - rgStart),
      });
    });
    const metadata: FileMetaData = {
      ...template.metadata,
      num_rows: BigInt(members[s]!.length),
      row_groups: rowGroupMeta,
    };
    let footerBytes: Uint8Array | undefined;
    const footerOf = () => {
      footerBytes ??= paddedFooter(metadata, o.footerBytes);
      if (footerBytes.byteLength !== o.footerBytes)
        throw new Error(`footer of ${paths[s]} is ${footerBytes.byteLength} bytes, not ${o.footerBytes}`);
      return footerBytes;
    };
    const footerStart = at;
    const size = footerStart + o.footerBytes;
    const magic = new Uint8Array([0x50, 0x41, 0x52, 0x31]);
    return {
      path: paths[s]!,
      size,
      media,
      footerStart,
      read(start, end) {
        const out = new Uint8Array(end - start);
        if (start < 4) out.set(magic.subarray(start, Math.min(4, end)), 0);
        // Chunks are in offset order: find the first that ends after start.
        let lo = 0;
        let hi = chunks.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (chunks[mid]!.end <= start) lo = mid + 1;
          else hi = mid;
        }
        for (let k = lo; k < chunks.length && chunks[k]!.start < end; k++) {
          const c = chunks[k]!;
          if (c.rg < 0) continue; // media: zeros
          const from = Math.max(start, c.start);
          const to = Math.min(end, c.end);
          const bytes = rowGroupBytes(s, c.rg);
          out.set(bytes.subarray(c.from + from - c.start, c.from + to - c.start), from - start);
        }
        const fFrom = Math.max(start, footerStart);
        if (end > fFrom) out.set(footerOf().subarray(fFrom - footerStart, end - footerStart), fFrom - start);
        return out;
      },
    };
  }

  function shard(path: string): VirtualShard {
    const s = index.get(path);
    if (s === undefined) throw new Error(`no shard ${path}`);
    let v = built.get(s);
    if (!v) {
      v = build(s);
      built.set(s, v);
      sizes.set(s, v.size);
      while (built.size > 64) built.delete(built.keys().next().value!);
    }
    return v;
  }

  const starts: number[] = [];
  counts.reduce((at, c) => (starts.push(at), at + c), 0);
  const shardOfNumber = (n: number): number | undefined => {
    // The row of n in the ascending list, then its shard as the order put it there.
    let lo = 0;
    let hi = rows;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (numbers[mid]! < n) lo = mid + 1;
      else hi = mid;
    }
    if (numbers[lo] !== n) return undefined;
    if (o.order === 'unsorted') return hash32(lo * 3 + 5) % o.shards;
    let s = 0;
    while (s + 1 < starts.length && starts[s + 1]! <= lo) s++;
    return s;
  };

  return {
    paths,
    sizeOf(path) {
      const s = index.get(path);
      if (s === undefined) throw new Error(`no shard ${path}`);
      return sizes.get(s) ?? shard(path).size;
    },
    shard,
    shardOfId(docId) {
      const s = shardOfNumber(numberOf(docId));
      return s === undefined ? undefined : paths[s];
    },
    textOfId(docId) {
      const n = numberOf(docId);
      const s = shardOfNumber(n);
      if (s === undefined) return undefined;
      return textFor(n, members[s]!.indexOf(n) % o.rowGroupSize);
    },
    rows,
    options: o,
  };
}

/** Thrift metadata + length + "PAR1", with a key-value entry padding it to `target` bytes. */
function paddedFooter(metadata: FileMetaData, target: number): Uint8Array {
  const encode = (pad: number) => {
    const w = new ByteWriter();
    const { metadata_length: _, ...rest } = metadata;
    writeMetadata(w, {
      ...rest,
      key_value_metadata: [{ key: 'huggingface', value: `{"info":{"features":{}},"pad":"${'x'.repeat(pad)}"}` }],
    } as FileMetaData);
    w.appendUint32(0x31524150);
    const out = w.getBytes();
    return out;
  };
  const bare = encode(0);
  if (bare.byteLength >= target) return bare;
  // The pad's length is a varint: one byte in the bare footer, more once padded.
  const varintBytes = (n: number) => (n < 2 ** 7 ? 1 : n < 2 ** 14 ? 2 : n < 2 ** 21 ? 3 : 4);
  let pad = target - bare.byteLength;
  for (let k = 0; k < 3; k++) pad = target - bare.byteLength - (varintBytes(pad + 40) - 1);
  const out = encode(pad);
  return out;
}
