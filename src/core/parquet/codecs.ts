/**
 * The decompressors a parquet file needs, loaded when a file first names their codec. hyparquet
 * decodes UNCOMPRESSED and SNAPPY itself; GZIP, BROTLI, LZ4, LZ4_RAW and ZSTD come from
 * hyparquet-compressors and fzstd, one lazy module each, so the first view and the embeds (all
 * Snappy in our releases) download none of them.
 */
import type { CompressionCodec, Compressors, FileMetaData } from 'hyparquet';

type Decompress = (input: Uint8Array, outputLength: number) => Uint8Array;
type LoadedCodec = CompressionCodec & ('GZIP' | 'BROTLI' | 'LZ4' | 'LZ4_RAW' | 'ZSTD');

const BUILT_IN: ReadonlySet<string> = new Set<CompressionCodec>(['UNCOMPRESSED', 'SNAPPY']);

const LOADERS: Readonly<Record<LoadedCodec, () => Promise<{ decompress: Decompress }>>> = {
  GZIP: () => import('./codecs/gzip.ts'),
  BROTLI: () => import('./codecs/brotli.ts'),
  LZ4: () => import('./codecs/lz4.ts'),
  LZ4_RAW: () => import('./codecs/lz4-raw.ts'),
  ZSTD: () => import('./codecs/zstd.ts'),
};

/** Every codec this reader decodes, in the order parquet numbers them. */
export const READABLE_CODECS: readonly CompressionCodec[] = [
  'UNCOMPRESSED',
  'SNAPPY',
  'GZIP',
  'BROTLI',
  'LZ4',
  'ZSTD',
  'LZ4_RAW',
];

/** A column compressed with a codec no reader here decodes (LZO, or a number parquet does not define). */
export class UnsupportedCodecError extends Error {
  constructor(
    readonly file: string,
    readonly column: string,
    readonly codec: string,
  ) {
    super(
      `${file}: column ${column} is compressed with ${codec}, which this reader cannot decode (it reads ${READABLE_CODECS.join(', ')})`,
    );
    this.name = 'UnsupportedCodecError';
  }
}

const loaded = new Map<LoadedCodec, Promise<Decompress>>();

function load(codec: LoadedCodec): Promise<Decompress> {
  let pending = loaded.get(codec);
  if (!pending) {
    pending = LOADERS[codec]().then((m) => m.decompress);
    // A chunk that failed to download (offline, a new deploy) is asked for again next time.
    pending.catch(() => loaded.delete(codec));
    loaded.set(codec, pending);
  }
  return pending;
}

const isLoaded = (codec: string): codec is LoadedCodec => Object.hasOwn(LOADERS, codec);

/** The row groups rows [rowStart, rowEnd) touch, so that a codec only other row groups use is not loaded. */
export function rowGroupsIn(metadata: FileMetaData, rowStart = 0, rowEnd = Infinity): number[] {
  const groups: number[] = [];
  let first = 0;
  metadata.row_groups.forEach((rg, i) => {
    const last = first + Number(rg.num_rows);
    if (last > rowStart && first < rowEnd) groups.push(i);
    first = last;
  });
  return groups;
}

/** Codec -> the columns (dotted paths) compressed with it, over the given row groups (all by default). */
export function codecsOf(
  metadata: FileMetaData,
  columns?: readonly string[],
  rowGroups: readonly number[] = metadata.row_groups.map((_, i) => i),
): Map<string, string[]> {
  const wanted = columns ? new Set(columns) : undefined;
  const out = new Map<string, string[]>();
  for (const i of rowGroups) {
    for (const chunk of metadata.row_groups[i]?.columns ?? []) {
      const meta = chunk.meta_data;
      if (!meta) continue;
      if (wanted && !wanted.has(meta.path_in_schema[0] ?? '')) continue;
      const codec = String(meta.codec);
      const name = meta.path_in_schema.join('.');
      const names = out.get(codec) ?? [];
      if (!names.includes(name)) names.push(name);
      out.set(codec, names);
    }
  }
  return out;
}

/**
 * hyparquet's `compressors` for reading these columns of these row groups: undefined when only
 * its built-in codecs are named (nothing is loaded); an UnsupportedCodecError naming the file and
 * column before any page is read when a codec cannot be decoded.
 */
export async function decompressorsFor(
  metadata: FileMetaData,
  file: string,
  columns?: readonly string[],
  rowGroups?: readonly number[],
): Promise<Compressors | undefined> {
  const needed: LoadedCodec[] = [];
  for (const [codec, names] of codecsOf(metadata, columns, rowGroups)) {
    if (BUILT_IN.has(codec)) continue;
    if (!isLoaded(codec)) throw new UnsupportedCodecError(file, names[0]!, codec);
    needed.push(codec);
  }
  if (needed.length === 0) return undefined;
  const decoders = await Promise.all(needed.map(load));
  return Object.fromEntries(needed.map((codec, i) => [codec, decoders[i]!])) as Compressors;
}
