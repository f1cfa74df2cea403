/**
 * What the product depends on in a Hugging Face source, read from its shard list and a handful of
 * footers: the schema against the columns we read, the codecs and encodings of the text columns,
 * whether doc ids are sorted across shards (which lookup applies), row-group sizes, and what a
 * first document and the v1.0 audit would cost in requests, bytes and the Hub's rate-limit windows.
 */
import type { ColumnMetaData, FileMetaData } from 'hyparquet';
import { READABLE_CODECS } from '../parquet/codecs.ts';
import { errorMessage } from '../error-message.ts';
import { SourceError, Transfer, type FetchFn } from './http.ts';
import { hubSession, listShards, resolveUrl, type ShardEntry } from './hub.ts';
import { SYSTEM_CLOCK, type RateClock, type RateWait } from './rate-gate.ts';
import { DEFAULT_LIMITS, type SourceLimits } from './limits.ts';
import { parseFooter, readFooterBytes, readRowGroupRows, TEXT_COLUMNS, type TextColumn } from './shard-parquet.ts';
import type { HfSourceSettings } from './settings.ts';

/** Encodings hyparquet decodes. */
const READABLE_ENCODINGS: ReadonlySet<string> = new Set([
  'PLAIN',
  'PLAIN_DICTIONARY',
  'RLE_DICTIONARY',
  'RLE',
  'BIT_PACKED',
  'DELTA_BINARY_PACKED',
  'DELTA_LENGTH_BYTE_ARRAY',
  'DELTA_BYTE_ARRAY',
  'BYTE_STREAM_SPLIT',
]);

/** The v1.0 audit reads the text of this many distinct documents (the source bench's batch). */
export const V10_AUDIT_DOCS = 4_290;

/** The Hub's published budgets per 5-minute window (requests to resolve URLs, and to the API). */
export const HUB_BUDGETS = {
  windowSeconds: 300,
  anonymous: { resolve: 3_000, api: 500 },
  loggedIn: { resolve: 5_000, api: 1_000 },
} as const;

export interface ColumnReport {
  column: TextColumn;
  /** Physical type in the sampled footers, undefined when the column is missing. */
  type?: string;
  codecs: string[];
  encodings: string[];
  /** Sampled shards whose doc_id chunks carry min/max statistics (doc_id only). */
  withStatistics?: number;
}

export interface Cost {
  requests: number;
  /** Of them, requests the Hub counts (API pages and resolve URLs); byte ranges go to its file host. */
  hubRequests: number;
  bytes: number;
}

export interface SourceCheckReport {
  settings: HfSourceSettings;
  shards: { count: number; totalBytes: number; minBytes: number; maxBytes: number; listingPages: number };
  /** The shards whose footers were read. */
  sampled: Array<{ path: string; bytes: number; rows: number; rowGroups: number; footerBytes: number }>;
  columns: ColumnReport[];
  /** 'sorted': ids rise within and across the sampled shards (binary search); 'unsorted': every footer is read; 'unknown': no statistics. */
  order: 'sorted' | 'unsorted' | 'unknown';
  rowGroupRows: { min: number; median: number; max: number };
  firstDocument: Cost;
  v10Audit: Cost & { docs: number; windows: { anonymous: number; loggedIn: number } };
  /** A doc_id page of the first sampled shard was decoded (the codec works, not only its name). */
  decoded: { shard: string; firstId: string } | undefined;
  /** Why the product cannot read this source; empty when it can. */
  problems: string[];
}

export interface SourceCheckOptions {
  settings: HfSourceSettings;
  fetch: FetchFn;
  /** Footers to read, spread over the list (first and last included). */
  sample?: number;
  limits?: Partial<SourceLimits>;
  onProgress?: (message: string) => void;
  /** A Hugging Face token (gated or private datasets): sent to the Hub's origin only. */
  token?: string;
  /** 'manual' where the runtime shows redirect answers (Node). */
  redirects?: 'fetch' | 'manual';
  clock?: RateClock;
  onWait?: (wait: RateWait | undefined) => void;
  /** Where the user gives a token, for a 401/403's message (the page's Source settings unless said). */
  tokenHint?: string;
}

/** Reads the list and `sample` footers; a source that cannot be listed fails (SourceError), anything it holds is reported. */
export async function checkSource(options: SourceCheckOptions): Promise<SourceCheckReport> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const session = hubSession({
    settings: options.settings,
    limits,
    clock: options.clock ?? SYSTEM_CLOCK,
    ...(options.token ? { token: options.token } : {}),
    ...(options.redirects ? { redirects: options.redirects } : {}),
    ...(options.onWait ? { onWait: options.onWait } : {}),
  });
  const transfer = new Transfer(options.fetch, undefined, { idleMs: limits.idleMs }, session);
  let listingPages = 0;
  const shards = await listShards(options.settings, transfer, limits, (pages, found) => {
    listingPages = pages;
    options.onProgress?.(`listing: ${found} parquet files in ${pages} pages`);
  });
  const picked = spread(shards, options.sample ?? 5);
  const footers: Array<{ shard: ShardEntry; metadata: FileMetaData; footerBytes: number; read: ShardReader }> = [];
  const problems: string[] = [];
  for (const [i, shard] of picked.entries()) {
    options.onProgress?.(`footer ${i + 1} of ${picked.length}: ${shard.path}`);
    const read = shardReader(transfer, options.settings, shard);
    try {
      const bytes = await readFooterBytes(
        read,
        shard.size,
        limits.footerInitialFetch,
        limits.maxFooterBytes,
        shard.path,
      );
      footers.push({ shard, metadata: parseFooter(bytes, shard.path), footerBytes: bytes.byteLength, read });
    } catch (e) {
      if (!(e instanceof SourceError) || e.kind !== 'bad-data') throw e;
      problems.push(e.message);
    }
  }
  const columns = TEXT_COLUMNS.map((c) => columnReport(c, footers));
  problems.push(...columnProblems(columns));
  const decoded = problems.length === 0 && footers[0] ? await decodeFirstIds(footers[0], limits, problems) : undefined;
  const order = idOrder(footers.map((f) => f.metadata));
  const groupRows = footers
    .flatMap((f) => f.metadata.row_groups.map((rg) => Number(rg.num_rows)))
    .sort((a, b) => a - b);
  const report: SourceCheckReport = {
    settings: options.settings,
    shards: {
      count: shards.length,
      totalBytes: shards.reduce((n, s) => n + s.size, 0),
      minBytes: Math.min(...shards.map((s) => s.size)),
      maxBytes: Math.max(...shards.map((s) => s.size)),
      listingPages,
    },
    sampled: footers.map((f) => ({
      path: f.shard.path,
      bytes: f.shard.size,
      rows: Number(f.metadata.num_rows),
      rowGroups: f.metadata.row_groups.length,
      footerBytes: f.footerBytes,
    })),
    columns,
    order,
    rowGroupRows: {
      min: groupRows[0] ?? 0,
      median: groupRows[Math.floor(groupRows.length / 2)] ?? 0,
      max: groupRows[groupRows.length - 1] ?? 0,
    },
    ...costs(shards.length, listingPages, footers, order),
    decoded,
    problems,
  };
  return report;
}

type ShardReader = (start: number, end: number) => Promise<Uint8Array>;

/** Ranges of one shard: the first through its resolve URL, the rest straight to the file host it redirected to. */
function shardReader(transfer: Transfer, settings: HfSourceSettings, shard: ShardEntry): ShardReader {
  let url = resolveUrl(settings, shard.path);
  return async (start, end) => {
    const { bytes, finalUrl } = await transfer.range(url, start, end);
    url = finalUrl;
    return bytes;
  };
}

/** `n` entries spread evenly over the list, the first and the last among them. */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const picked = new Set<number>();
  for (let i = 0; i < n; i++) picked.add(Math.round((i * (items.length - 1)) / Math.max(1, n - 1)));
  return [...picked].sort((a, b) => a - b).map((i) => items[i]!);
}

function chunkMeta(metadata: FileMetaData, rowGroup: number, column: string): ColumnMetaData | undefined {
  return metadata.row_groups[rowGroup]?.columns.find(
    (c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === column,
  )?.meta_data;
}

function columnReport(column: TextColumn, footers: ReadonlyArray<{ metadata: FileMetaData }>): ColumnReport {
  const codecs = new Set<string>();
  const encodings = new Set<string>();
  let type: string | undefined;
  let withStatistics = 0;
  for (const { metadata } of footers) {
    let stats = metadata.row_groups.length > 0;
    metadata.row_groups.forEach((_, i) => {
      const meta = chunkMeta(metadata, i, column);
      if (!meta) return;
      type = String(meta.type);
      codecs.add(String(meta.codec));
      for (const e of meta.encodings) encodings.add(String(e));
      const s = meta.statistics;
      if (s?.min_value === undefined && s?.min === undefined) stats = false;
    });
    if (stats) withStatistics++;
  }
  return {
    column,
    ...(type ? { type } : {}),
    codecs: [...codecs].sort(),
    encodings: [...encodings].sort(),
    ...(column === 'doc_id' ? { withStatistics } : {}),
  };
}

function columnProblems(columns: readonly ColumnReport[]): string[] {
  const problems: string[] = [];
  for (const c of columns) {
    if (!c.type) {
      problems.push(`column ${c.column} is missing: the product reads ${TEXT_COLUMNS.join(', ')}`);
      continue;
    }
    if (c.type !== 'BYTE_ARRAY')
      problems.push(`column ${c.column} is ${c.type}, the product reads strings (BYTE_ARRAY)`);
    for (const codec of c.codecs)
      if (!(READABLE_CODECS as readonly string[]).includes(codec))
        problems.push(`column ${c.column} is compressed with ${codec}, which this reader cannot decode`);
    for (const e of c.encodings)
      if (!READABLE_ENCODINGS.has(e))
        problems.push(`column ${c.column} uses the ${e} encoding, which this reader cannot decode`);
  }
  return problems;
}

/** Rows 0-1 of the first row group's doc_id column: proof the codec decodes, not only that its name is known. */
async function decodeFirstIds(
  footer: { shard: ShardEntry; metadata: FileMetaData; read: ShardReader },
  limits: SourceLimits,
  problems: string[],
): Promise<SourceCheckReport['decoded']> {
  const group = footer.metadata.row_groups.findIndex((rg) => Number(rg.num_rows) > 0);
  if (group < 0) return undefined;
  try {
    const rows = await readRowGroupRows(
      footer.read,
      footer.shard.size,
      footer.metadata,
      group,
      ['doc_id'],
      0,
      1,
      limits.maxIdChunkBytes,
      footer.shard.path,
    );
    return { shard: footer.shard.path, firstId: String(rows[0]?.doc_id) };
  } catch (e) {
    problems.push(errorMessage(e));
    return undefined;
  }
}

/** Whether the doc_id statistics rise within each sampled shard and across them, in path order. */
function idOrder(footers: readonly FileMetaData[]): SourceCheckReport['order'] {
  let last: string | undefined;
  for (const metadata of footers) {
    for (let i = 0; i < metadata.row_groups.length; i++) {
      const s = chunkMeta(metadata, i, 'doc_id')?.statistics;
      const min = s?.min_value ?? s?.min;
      const max = s?.max_value ?? s?.max;
      if (typeof min !== 'string' || typeof max !== 'string') return 'unknown';
      if (last !== undefined && min < last) return 'unsorted';
      last = max;
    }
  }
  return 'sorted';
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/**
 * The costs a lookup and a batch would have, from the sampled footers: a footer is two ranges
 * (its length, then its bytes); a row group's doc_id and text chunks one range each; the first
 * range of each shard goes through its resolve URL (the Hub), the rest to the file host.
 */
function costs(
  shardCount: number,
  listingPages: number,
  footers: ReadonlyArray<{ metadata: FileMetaData; footerBytes: number }>,
  order: SourceCheckReport['order'],
): Pick<SourceCheckReport, 'firstDocument' | 'v10Audit'> {
  const footerBytes = mean(footers.map((f) => f.footerBytes));
  const chunk = (column: string) =>
    mean(
      footers.flatMap((f) =>
        f.metadata.row_groups.map((_, i) => Number(chunkMeta(f.metadata, i, column)?.total_compressed_size ?? 0)),
      ),
    );
  const idChunk = chunk('doc_id');
  const textChunk = chunk('text_content') + chunk('file_name') + chunk('file_type') + chunk('online_url');
  const groupsPerShard = mean(footers.map((f) => f.metadata.row_groups.length));
  // Sorted: a binary search over the shards' footers; else every footer, then the row groups whose statistics hold the id.
  const probes = order === 'sorted' ? Math.ceil(Math.log2(Math.max(2, shardCount))) + 1 : shardCount;
  const scanned = order === 'unknown' ? Math.max(1, Math.round(groupsPerShard)) : 1;
  const firstDocument: Cost = {
    requests: Math.round(listingPages + probes * 2 + scanned + 1),
    hubRequests: Math.round(listingPages + probes),
    bytes: Math.round(probes * footerBytes + scanned * idChunk + textChunk),
  };
  const rowGroups = Math.min(V10_AUDIT_DOCS, Math.round(shardCount * groupsPerShard));
  const auditHub = listingPages + shardCount;
  const windows = (budget: { resolve: number; api: number }) =>
    Math.max(Math.ceil(shardCount / budget.resolve), Math.ceil(listingPages / budget.api));
  return {
    firstDocument,
    v10Audit: {
      docs: V10_AUDIT_DOCS,
      requests: Math.round(listingPages + shardCount * 2 + rowGroups * 2),
      hubRequests: Math.round(auditHub),
      bytes: Math.round(shardCount * footerBytes + rowGroups * (idChunk + textChunk)),
      windows: { anonymous: windows(HUB_BUDGETS.anonymous), loggedIn: windows(HUB_BUDGETS.loggedIn) },
    },
  };
}

const mb = (n: number) => `${(n / 1e6).toFixed(n < 1e7 ? 2 : 0)} MB`;
const count = (n: number) => n.toLocaleString('en');

/** The report as lines for a terminal or the Source settings panel. */
export function sourceCheckLines(r: SourceCheckReport): string[] {
  const cost = (c: Cost) => `${count(c.requests)} requests (${count(c.hubRequests)} to the Hub), ${mb(c.bytes)}`;
  const lines = [
    `source: ${r.settings.dataset} at ${r.settings.revision} on ${new URL(r.settings.endpoint).host}`,
    `shards: ${count(r.shards.count)} parquet files, ${mb(r.shards.totalBytes)} (${mb(r.shards.minBytes)} to ${mb(r.shards.maxBytes)}), listed in ${r.shards.listingPages} pages`,
    `footers read: ${r.sampled.length} (${r.sampled.map((s) => s.path).join(', ')})`,
    'columns:',
    ...r.columns.map(
      (c) =>
        `  ${c.column.padEnd(12)} ${c.type ? `${c.type}, ${c.codecs.join('/')}, ${c.encodings.join(' ')}` : 'MISSING'}${
          c.withStatistics !== undefined ? `, statistics in ${c.withStatistics} of ${r.sampled.length} shards` : ''
        }`,
    ),
    `doc id order: ${
      r.order === 'sorted'
        ? 'sorted across the sampled shards (a lookup binary-searches the shards)'
        : r.order === 'unsorted'
          ? 'not sorted (a lookup reads every footer)'
          : 'unknown: doc_id statistics are missing (a lookup reads doc ids)'
    }`,
    `row groups: ${count(r.rowGroupRows.min)} to ${count(r.rowGroupRows.max)} rows (median ${count(r.rowGroupRows.median)})`,
    `first document, estimated: ${cost(r.firstDocument)}`,
    `v1.0 audit (${count(r.v10Audit.docs)} documents), estimated: ${cost(r.v10Audit)}`,
    `rate limit: the audit needs ${r.v10Audit.windows.anonymous} five-minute window(s) of the Hub's anonymous budget (${count(HUB_BUDGETS.anonymous.resolve)} resolves, ${count(HUB_BUDGETS.anonymous.api)} API calls), ${r.v10Audit.windows.loggedIn} with a token`,
  ];
  if (r.decoded) lines.push(`decoded: the first doc_id of ${r.decoded.shard} is ${r.decoded.firstId}`);
  lines.push(r.problems.length ? `CANNOT READ this source:` : 'the product can read this source');
  for (const p of r.problems) lines.push(`  ${p}`);
  return lines;
}
