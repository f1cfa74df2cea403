/**
 * Source documents over a local imitation of the Hugging Face Hub (Node fetch, no browser):
 * requests and bytes per document lookup, cold and warm, with and without a locator, counted
 * by the mock's own log (Hub and file host apart, footer bytes apart, media bytes). Goals: a
 * warm lookup is one range request; a cold one reads under 1 MB beyond the footers.
 * Then the cost of building the v1.0 locator, estimated from shard-shaped synthetic files.
 * Run alone: `npx tsx test/bench/source-docs.bench.ts` (or `npm run cli -- bench source`);
 * `--real-scale-only` for the real-scale figures, `--audit-batch-only` for the sorted 46 KB run with the v1.0 audit batch,
 * `--rate-limited-only [--rate-window-s S]` for that batch under a rate window of 3,000 requests per S s (default 120).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { FolderSource } from '../../src/adapters/node/folder-source.ts';
import { loadRelease } from '../../src/core/release/load.ts';
import { MemorySourceCache } from '../../src/core/source-docs/cache.ts';
import { buildLocator, type SourceLocator } from '../../src/core/source-docs/locator.ts';
import { HfSourceDocs } from '../../src/core/source-docs/lookup.ts';
import { referencedDocIds } from '../../src/core/source-docs/referenced.ts';
import { settingsFrom } from '../../src/core/source-docs/settings.ts';
import { chunkRange } from '../../src/core/source-docs/shard-parquet.ts';
import { startMockHub, type HubRequest, type MockHub } from '../support/mock-hub.ts';
import { realTally, startRealScaleHub, type RealScaleHub } from '../support/real-scale-hub.ts';
import { makeRealScaleShards, type RealScaleShards } from '../support/real-scale-shards.ts';
import { makeSourceShards, projectRoot, readSampleDocs, type SourceShards } from '../support/source-shards.ts';

const v10 = path.resolve(projectRoot, '../shared/epstein-bench-v1.0');
const LOOKUPS = 24;

interface Cost {
  fetches: number;
  http: number;
  hub: number;
  files: number;
  bytes: number;
  footerBytes: number;
  beyondFooters: number;
  mediaBytes: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function costOf(entries: readonly HubRequest[], shards: SourceShards, fetches: number): Cost {
  let footerBytes = 0;
  for (const e of entries)
    if (e.origin === 'files' && e.range && e.range[0] >= shards.footerStart.get(e.path)!) footerBytes += e.bytes;
  const bytes = entries.reduce((n, e) => n + e.bytes, 0);
  return {
    fetches,
    http: entries.length,
    hub: entries.filter((e) => e.origin === 'hub').length,
    files: entries.filter((e) => e.origin === 'files').length,
    bytes,
    footerBytes,
    beyondFooters: bytes - footerBytes,
    mediaBytes: entries.reduce((n, e) => n + e.mediaBytes, 0),
  };
}

async function measure(
  hub: MockHub,
  shards: SourceShards,
  ids: readonly string[],
  make: (i: number) => HfSourceDocs,
): Promise<Cost[]> {
  const out: Cost[] = [];
  for (let i = 0; i < ids.length; i++) {
    const docs = make(i);
    const from = hub.log.length;
    const doc = await docs.get(ids[i]!);
    if (!doc) throw new Error(`${ids[i]} not found in the mock shards`);
    out.push(costOf(hub.log.slice(from), shards, doc.cost.requests));
  }
  return out;
}

function row(label: string, costs: Cost[]): Record<string, number | string> {
  const m = (k: keyof Cost) => median(costs.map((c) => c[k]));
  const x = (k: keyof Cost) => Math.max(...costs.map((c) => c[k]));
  const line = {
    scenario: label,
    lookups: costs.length,
    fetches_median: m('fetches'),
    fetches_max: x('fetches'),
    http_median: m('http'),
    hub_median: m('hub'),
    filehost_median: m('files'),
    bytes_median: m('bytes'),
    bytes_max: x('bytes'),
    footer_bytes_median: m('footerBytes'),
    beyond_footers_median: m('beyondFooters'),
    beyond_footers_max: x('beyondFooters'),
    media_bytes: costs.reduce((n, c) => n + c.mediaBytes, 0),
  };
  console.log(
    `${label.padEnd(46)} ${String(costs.length).padStart(3)}  fetch ${line.fetches_median}/${line.fetches_max}  HTTP ${line.http_median} (Hub ${line.hub_median}, file host ${line.filehost_median})  bytes ${kb(line.bytes_median)} / max ${kb(line.bytes_max)}  beyond footers ${kb(line.beyond_footers_median)} / max ${kb(line.beyond_footers_max)}  media ${line.media_bytes}`,
  );
  return line;
}

/** One shard-shaped file with EFTA-like ids: its footer and doc_id bytes per row group size. */
function shardShape(rows: number, rowGroupSize: number) {
  const ids: string[] = [];
  let n = 432_308;
  for (let i = 0; i < rows; i++) ids.push(`EFTA${String((n += 1 + (i % 7))).padStart(8, '0')}`);
  const bytes = parquetWriteBuffer({
    rowGroupSize,
    columnData: [
      { name: 'doc_id', data: ids, type: 'STRING', nullable: false },
      { name: 'file_name', data: ids.map((id) => `DataSet 9/${id}.pdf`), type: 'STRING' },
      { name: 'file_type', data: ids.map(() => 'pdf'), type: 'STRING' },
      {
        name: 'online_url',
        data: ids.map((id) => `https://www.justice.gov/epstein/files/DataSet%209/${id}.pdf`),
        type: 'STRING',
      },
      { name: 'text_content', data: ids.map(() => ''), type: 'STRING' },
      { name: 'image', data: ids.map(() => null), type: 'BYTE_ARRAY', statistics: false },
      { name: 'audio', data: ids.map(() => null), type: 'BYTE_ARRAY', statistics: false },
      { name: 'video', data: ids.map(() => null), type: 'BYTE_ARRAY', statistics: false },
    ],
  });
  const metadata = parquetMetadata(bytes);
  let idBytes = 0;
  metadata.row_groups.forEach((_, rg) => {
    const r = chunkRange(metadata, rg, 'doc_id')!;
    idBytes += r.end - r.start;
  });
  const chunks = metadata.row_groups.length * metadata.row_groups[0]!.columns.length;
  return {
    rowGroups: metadata.row_groups.length,
    footerBytes: metadata.metadata_length + 8,
    footerBytesPerChunk: (metadata.metadata_length + 8) / chunks,
    idBytesPerRow: idBytes / rows,
  };
}

async function locatorEstimate(): Promise<Record<string, unknown>> {
  const SHARDS = 634;
  const ROWS = 4_100_000;
  const LEAVES = 11; // doc_id, file_name, file_type, online_url, text_content, image{bytes,path}, audio{bytes,path}, video{bytes,path}
  const CONCURRENCY = 6;
  const RTT_S = 0.1;
  // Footer bytes per column chunk are measured on hyparquet-writer files; pyarrow (which writes the
  // Hub's files) adds encoding and size statistics, so its footers are assumed twice as large.
  const PYARROW_FOOTER_FACTOR = 2;
  let ids = NaN;
  if (existsSync(v10)) ids = referencedDocIds(await loadRelease(new FolderSource(v10))).all.length;
  console.log(
    `\nv1.0 locator build (estimate; the real Hub is not reachable from here): ${Number.isNaN(ids) ? '(../shared absent)' : ids.toLocaleString('en')} referenced ids, ${SHARDS} shards, ${ROWS.toLocaleString('en')} rows (${Math.round(ROWS / SHARDS).toLocaleString('en')} a shard), ${LEAVES} leaf columns`,
  );
  const out: Record<string, unknown> = { ids, shards: SHARDS, rows: ROWS };
  for (const r of [10, 100, 1000]) {
    const shape = shardShape(Math.round(ROWS / SHARDS), r);
    const rowGroups = Math.ceil(ROWS / r);
    const footers = SHARDS * shape.footerBytesPerChunk * (rowGroups / SHARDS) * LEAVES;
    const idBytes = ROWS * shape.idBytesPerRow;
    const requests = 2 * SHARDS + rowGroups;
    // Sorted shards with statistics: only row groups whose bounds hold a wanted id are read;
    // with ids spread at random over the row groups, the expected number touched is:
    const touched = Number.isNaN(ids) ? NaN : rowGroups * (1 - Math.exp(-ids / rowGroups));
    const sortedIds = touched * r * shape.idBytesPerRow;
    const line = {
      rows_per_row_group: r,
      row_groups: rowGroups,
      footer_bytes_per_column_chunk: Math.round(shape.footerBytesPerChunk),
      footers_total_mb: +(footers / 1e6).toFixed(1),
      footers_total_mb_pyarrow_like: +((footers * PYARROW_FOOTER_FACTOR) / 1e6).toFixed(1),
      doc_id_bytes_per_row: +shape.idBytesPerRow.toFixed(2),
      unsorted_doc_id_mb: +(idBytes / 1e6).toFixed(1),
      unsorted_requests: requests,
      unsorted_total_mb: +((footers + idBytes) / 1e6).toFixed(1),
      unsorted_minutes: +(((requests / CONCURRENCY) * RTT_S) / 60).toFixed(1),
      sorted_row_groups_read: Math.round(touched),
      sorted_doc_id_mb: +(sortedIds / 1e6).toFixed(1),
      sorted_total_mb: +((footers + sortedIds) / 1e6).toFixed(1),
      sorted_requests: Math.round(2 * SHARDS + touched),
      sorted_minutes: +((((2 * SHARDS + touched) / CONCURRENCY) * RTT_S) / 60).toFixed(1),
    };
    console.log(
      `  ${String(r).padStart(4)} rows/row group: ${rowGroups.toLocaleString('en')} row groups x ${LEAVES} leaves x ${line.footer_bytes_per_column_chunk} B = footers ${line.footers_total_mb} MB (${line.footers_total_mb_pyarrow_like} MB if pyarrow's are ${PYARROW_FOOTER_FACTOR}x larger); doc_id ${line.doc_id_bytes_per_row} B/row.\n` +
        `       unsorted shards: every doc_id chunk, ${line.unsorted_doc_id_mb} MB; total ${line.unsorted_total_mb} MB in ${requests.toLocaleString('en')} requests (~${line.unsorted_minutes} min at ${CONCURRENCY} parallel, ${RTT_S * 1000} ms each)\n` +
        `       sorted shards with statistics: ~${line.sorted_row_groups_read.toLocaleString('en')} row groups, ${line.sorted_doc_id_mb} MB of doc_id; total ${line.sorted_total_mb} MB in ${line.sorted_requests.toLocaleString('en')} requests (~${line.sorted_minutes} min)`,
    );
    out[`r${r}`] = line;
  }
  return out;
}

/** The gold documents of v1.0's single_hop and timeline tasks (the card's grounding check reads them). */
async function v10AuditIds(): Promise<string[]> {
  if (!existsSync(v10)) return [];
  const tasks = (await loadRelease(new FolderSource(v10))).splits.full?.tasks ?? [];
  return [
    ...new Set(tasks.filter((t) => t.type === 'single_hop' || t.type === 'timeline').flatMap((t) => t.gold_docs)),
  ];
}

/**
 * The real scale: 634 shards, ~6,500 rows each, 100 rows a row group, EFTA ids, ~8 MB of media in
 * every row group, footers of 46 KB (or 92 KB, pyarrow-like), 80 ms per answer and six connections
 * per origin. The mock makes its bytes on demand in this process; its own time (busy) is printed
 * and taken out of the client's time.
 */
async function realScale(
  order: 'sorted' | 'unsorted',
  footerBytes: number,
  batch: boolean,
): Promise<Record<string, unknown>> {
  const LATENCY = 80;
  const gold = await v10AuditIds();
  const first = gold.length ? gold[Math.floor(gold.length / 3)]! : 'EFTA01656152';
  const second = gold.length ? gold[Math.floor((2 * gold.length) / 3)]! : 'EFTA02011111';
  const shards = makeRealScaleShards({ order, footerBytes, include: [first, second, ...gold] });
  const hub = await startRealScaleHub(shards, { latencyMs: LATENCY });
  const settings = settingsFrom({ endpoint: hub.endpoint });
  const fetchFn = (u: string, i?: RequestInit) => fetch(u, i);
  const label = `${order}, ${shards.paths.length} shards, ${(footerBytes / 1000).toFixed(0)} KB footers`;
  const out: Record<string, unknown> = {
    order,
    shards: shards.paths.length,
    rows: shards.rows,
    footer_bytes: footerBytes,
    latency_ms: LATENCY,
  };
  try {
    // The listing's sizes are made before timing (the real Hub's files exist already).
    for (const p of shards.paths) shards.sizeOf(p);
    // The mock's own time counts against a lookup's time limit here; the bench measures cost, not the limit.
    const limits = { lookupMs: 30 * 60_000 };
    const visit = new HfSourceDocs({ settings, fetch: fetchFn, cache: new MemorySourceCache(), limits });
    for (const [name, id] of [
      ['first', first],
      ['second', second],
    ] as const) {
      const from = hub.log.length;
      const busy0 = hub.busy.ms;
      const t0 = performance.now();
      const doc = await visit.get(id);
      const wall = performance.now() - t0;
      if (!doc || doc.row.text_content !== shards.textOfId(id)) throw new Error(`${id}: wrong text from the mock`);
      const t = realTally(hub.log.slice(from));
      const client = wall - (hub.busy.ms - busy0);
      out[`${name}_doc`] = {
        id,
        fetches: doc.cost.requests,
        http: t.requests,
        bytes: t.bytes,
        footer_bytes: t.footerBytes,
        media_bytes: t.mediaBytes,
        wall_ms: Math.round(wall),
        client_ms: Math.round(client),
      };
      console.log(
        `${label}: ${name} document of a new visitor ${id}: ${doc.cost.requests} requests (${t.requests} HTTP with redirects), ${(t.bytes / 1e6).toFixed(2)} MB (footers ${(t.footerBytes / 1e6).toFixed(2)} MB), media ${t.mediaBytes}, ${(client / 1000).toFixed(2)} s at ${LATENCY} ms (wall ${(wall / 1000).toFixed(2)} s, mock ${((hub.busy.ms - busy0) / 1000).toFixed(2)} s)`,
      );
    }
    if (batch && gold.length) {
      const kept = new MemorySourceCache();
      const { result, wrong, t, wall, mockMs, counts } = await timedBatch(
        new HfSourceDocs({ settings, fetch: fetchFn, cache: kept }),
        gold,
        shards,
        hub,
      );
      const client = wall - mockMs;
      out.v10_audit_batch = {
        ...counts,
        bytes: t.bytes,
        media_bytes: t.mediaBytes,
        wall_ms: Math.round(wall),
        client_ms: Math.round(client),
      };
      console.log(
        `${label}: v1.0 single_hop + timeline gold documents (${gold.length}): ${result.texts.size} read (${wrong} wrong), ${result.cost.requests} requests, ${(t.bytes / 1e6).toFixed(1)} MB, media ${t.mediaBytes}, ${(client / 60_000).toFixed(1)} min at ${LATENCY} ms (wall ${(wall / 60_000).toFixed(1)} min, mock ${(mockMs / 60_000).toFixed(1)} min)`,
      );
      // A reload (a new session over the same cache): the kept texts are not asked for again.
      const again = await new HfSourceDocs({ settings, fetch: fetchFn, cache: kept }).readMany(gold);
      out.v10_audit_batch_again = { read: again.texts.size, fetches: again.cost.requests };
      console.log(
        `${label}: the same batch again over the kept cache (a reload): ${again.texts.size} read, ${again.cost.requests} requests`,
      );
    }
  } finally {
    await hub.close();
  }
  return out;
}

/** One batch read on the real-scale mock: what came back, how much was wrong, the wire and the time. */
async function timedBatch(docs: HfSourceDocs, ids: string[], shards: RealScaleShards, hub: RealScaleHub) {
  const from = hub.log.length;
  const busy0 = hub.busy.ms;
  const t0 = performance.now();
  const result = await docs.readMany(ids);
  const wall = performance.now() - t0;
  let wrong = 0;
  for (const [id, text] of result.texts) if (text !== shards.textOfId(id)) wrong++;
  const t = realTally(hub.log.slice(from));
  /** The figures every batch line prints. */
  const counts = {
    ids: ids.length,
    read: result.texts.size,
    wrong,
    missing: result.missing.length,
    failed: result.failed.size,
    fetches: result.cost.requests,
    http: t.requests,
  };
  return { result, wrong, t, wall, mockMs: hub.busy.ms - busy0, counts };
}

/** The seconds after a flag (`--rate-window-s 300`), else the default. */
function flagNumber(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} takes a positive number`);
  return value;
}

/**
 * The v1.0 audit batch (sorted, 46 KB footers) under a rate window as the Hub's: 3,000 requests a
 * window, each route apart (API, resolve) and, harder than the real Hub, the file host counted too.
 * The Hub's window is 300 s; the default here is 120 s (the same budget at 2.5 times its pace), short
 * enough for a bench and long enough that the budget binds: the client alone would send about 38
 * requests a second. The mock announces what is left in every answer (RateLimit, RateLimit-Policy) and
 * answers 429 with Retry-After past the budget. Redirects are followed by the client, as the CLI does.
 */
async function rateLimitedAudit(): Promise<Record<string, unknown>> {
  const LATENCY = 80;
  const REQUESTS = 3_000;
  const windowS = flagNumber('--rate-window-s', 120);
  const gold = await v10AuditIds();
  if (!gold.length) {
    console.log('rate-limited v1.0 audit batch: skipped (../shared/epstein-bench-v1.0 absent)');
    return { skipped: true };
  }
  const shards = makeRealScaleShards({ order: 'sorted', footerBytes: 46_000, include: gold });
  const hub = await startRealScaleHub(shards, {
    latencyMs: LATENCY,
    limits: { rateLimit: { requests: REQUESTS, windowMs: windowS * 1000, files: true } },
  });
  try {
    for (const p of shards.paths) shards.sizeOf(p);
    const settings = settingsFrom({ endpoint: hub.endpoint });
    // Spells with some request waiting (as the CLI prints one line for each).
    let waitLines = 0;
    let waiting = false;
    const docs = new HfSourceDocs({
      settings,
      fetch: (u, i) => fetch(u, i),
      cache: new MemorySourceCache(),
      redirects: 'manual',
      onWait: (w) => {
        if (w && !waiting) waitLines++;
        waiting = w !== undefined;
      },
    });
    const { result, wrong, t, wall, mockMs, counts } = await timedBatch(docs, gold, shards, hub);
    const byStatus = (status: number) => hub.log.filter((e) => e.status === status).length;
    const rate = docs.rateStats;
    const line = {
      ...counts,
      window: `${REQUESTS} requests / ${windowS} s per route, file host counted`,
      http_429: byStatus(429),
      mock_refused: hub.limits.refused.count,
      limited_seen: rate.limited,
      waits: rate.waits,
      wait_episodes: waitLines,
      wait_ms: Math.round(rate.waitMs),
      wall_ms: Math.round(wall),
      mock_ms: Math.round(mockMs),
      bytes: t.bytes,
    };
    console.log(
      `sorted, ${shards.paths.length} shards, 46 KB footers, rate window ${REQUESTS.toLocaleString('en')} requests per ${windowS} s per route (the Hub: ${REQUESTS.toLocaleString('en')} per 300 s; here every route counts, the file host too), ${LATENCY} ms per answer: ` +
        `v1.0 audit batch (${gold.length.toLocaleString('en')} documents): ${result.texts.size.toLocaleString('en')} read (${wrong} wrong), ${result.missing.length} missing, ${result.failed.size} failed; ` +
        `${result.cost.requests.toLocaleString('en')} requests (${t.requests.toLocaleString('en')} HTTP with redirects), ${line.http_429} answered 429; ` +
        `${rate.waits.toLocaleString('en')} requests held or retried, in ${waitLines} spells of waiting, ${(rate.waitMs / 1000).toFixed(1)} s in all; ` +
        `total ${(wall / 60_000).toFixed(1)} min (mock ${(mockMs / 60_000).toFixed(1)} min)`,
    );
    if (result.failed.size > 0 || result.missing.length > 0 || wrong > 0)
      throw new Error(`the rate-limited audit batch lost documents: ${JSON.stringify(line)}`);
    return line;
  } finally {
    await hub.close();
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--rate-limited-only')) {
    console.log(`\n${JSON.stringify({ rate_limited_audit: await rateLimitedAudit() })}`);
    return;
  }
  if (process.argv.includes('--real-scale-only')) {
    const only = process.argv.includes('--unsorted-only');
    const lines = only
      ? [await realScale('unsorted', 46_000, false), await realScale('unsorted', 92_000, false)]
      : process.argv.includes('--audit-batch-only')
        ? [await realScale('sorted', 46_000, true)]
        : [
            await realScale('sorted', 46_000, !process.argv.includes('--no-batch')),
            await realScale('sorted', 92_000, false),
            await realScale('unsorted', 46_000, false),
            await realScale('unsorted', 92_000, false),
          ];
    console.log(`\n${JSON.stringify({ real_scale: lines })}`);
    return;
  }
  const sample = await readSampleDocs();
  const tasks = (await loadRelease(new FolderSource(path.join(projectRoot, 'static-data/sample')))).splits.full!.tasks!;
  const gold = [...new Set(tasks.flatMap((t) => t.gold_docs))];
  const shards0 = makeSourceShards(sample);
  const sorted = gold.filter((id) => shards0.shardOf.get(id)?.sorted).slice(0, LOOKUPS / 2);
  const unsorted = gold.filter((id) => shards0.shardOf.get(id)?.sorted === false).slice(0, LOOKUPS / 2);
  const ids = [...sorted, ...unsorted];
  const shards = makeSourceShards(sample, { mediaNear: ids });
  const hub = await startMockHub({ files: shards.files, mediaRanges: shards.mediaRanges, pageSize: 1000 });
  const settings = settingsFrom({ endpoint: hub.endpoint });
  const fetchFn = (u: string, i?: RequestInit) => fetch(u, i);
  console.log(
    `mock Hub: ${shards.files.size} shards (${[...shards.files.values()].reduce((n, b) => n + b.byteLength, 0).toLocaleString('en')} bytes, ${shards.mediaBytes.toLocaleString('en')} of them media), 64 rows a row group, even shards sorted by doc_id; ${ids.length} gold documents (${sorted.length} in sorted shards); media values in the same row groups\n` +
      'per lookup: fetch() calls median/max, HTTP exchanges median (a resolve redirect is one more), bytes median / max\n',
  );
  try {
    const lines: Array<Record<string, number | string>> = [];
    lines.push(
      row(
        'cold, new visitor, no locator',
        await measure(hub, shards, ids, () => new HfSourceDocs({ settings, fetch: fetchFn })),
      ),
    );
    const session = new HfSourceDocs({ settings, fetch: fetchFn, cache: new MemorySourceCache() });
    const sessionCosts = await measure(hub, shards, ids, () => session);
    lines.push(row('cold, same session (after the first lookup)', sessionCosts.slice(1)));
    lines.push(row('warm, same session', await measure(hub, shards, ids, () => session)));
    const persisted = (session as unknown as { cache: MemorySourceCache }).cache;
    lines.push(
      row(
        'warm, new session (cache kept, as IndexedDB)',
        await measure(hub, shards, ids, () => new HfSourceDocs({ settings, fetch: fetchFn, cache: persisted })),
      ),
    );
    const located = await new HfSourceDocs({ settings, fetch: fetchFn }).locate(ids);
    const locator: SourceLocator = buildLocator(settings.dataset, settings.revision, located.found, located.missing);
    lines.push(
      row(
        'cold, new visitor, with the release locator',
        await measure(hub, shards, ids, () => new HfSourceDocs({ settings, fetch: fetchFn, locator })),
      ),
    );
    const warm = lines[2]!;
    const cold = lines[0]!;
    console.log(
      `\ngoals: warm lookup one range request: ${warm.fetches_max === 1 && warm.http_median === 1 ? 'met' : 'NOT met'} (${warm.fetches_max} fetch, ${warm.http_median} HTTP); ` +
        `cold under 1 MB beyond the footers: ${Number(cold.beyond_footers_max) < 2 ** 20 ? 'met' : 'NOT met'} (max ${kb(Number(cold.beyond_footers_max))}); media bytes: ${lines.reduce((n, l) => n + Number(l.media_bytes), 0)}`,
    );
    const estimate = await locatorEstimate();
    console.log(
      '\nreal scale (sorted and unsorted, both footer sizes; goals: first document <= 15 requests, < 1.5 MB, < 2 s; second <= 4 requests; the v1.0 audit batch < 5 min):',
    );
    const real = [
      await realScale('sorted', 46_000, true),
      await realScale('sorted', 92_000, false),
      await realScale('unsorted', 46_000, false),
      await realScale('unsorted', 92_000, false),
    ];
    console.log("\nunder the Hub's rate limit (goal: every document read, few 429s):");
    const limited = await rateLimitedAudit();
    console.log(
      `\n${JSON.stringify({ source_docs: lines, v1_locator_estimate: estimate, real_scale: real, rate_limited_audit: limited })}`,
    );
  } finally {
    await hub.close();
  }
}

await main();
