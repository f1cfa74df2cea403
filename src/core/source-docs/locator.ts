/**
 * The locator file: where each document a release references lives in the Hugging Face source
 * (doc_id -> shard, row group, row), so that reading a document needs neither the shard list nor
 * a doc_id scan. Written by `npm run cli -- source-locate`; a release may ship it as its
 * `source_locator` file. Format (JSON, documented in the README):
 *
 *   { "format": "epstein-bench-source-locator", "version": 1,
 *     "dataset": "aurora2424/Epstein-Files", "revision": "main",
 *     "shards": [{ "path": "data/x.parquet", "size": 123, "oid": "..." }, ...],
 *     "docs": { "EFTA00432308": [shard index, row group, row in the row group], ... },
 *     "missing": ["EFTA...", ...] }
 */
import { IssueList } from '../release/issues.ts';
import { parseJsonFile } from '../release/jsonl.ts';
import {
  LOCATOR_FORMAT,
  LOCATOR_VERSION,
  sourceLocatorValidator,
  type ShardEntry,
  type SourceLocator,
} from '../release/schemas/source-locator.ts';

export {
  LOCATOR_FORMAT,
  LOCATOR_VERSION,
  SOURCE_DOC_ID_RE,
  sourceLocatorValidator,
  type SourceLocator,
} from '../release/schemas/source-locator.ts';

export interface LocatorEntry {
  shard: ShardEntry;
  rowGroup: number;
  row: number;
}

export class LocatorError extends Error {}

/** Parses a locator file; throws LocatorError naming the file and the first problems. */
export function parseLocator(text: string, file: string): SourceLocator {
  const issues = new IssueList(5);
  const loc = parseJsonFile(text, file, sourceLocatorValidator, issues);
  if (!loc) throw new LocatorError(issues.items.map((i) => i.message).join('; ') || `${file}: not a locator file`);
  return loc;
}

export function locatorEntry(loc: SourceLocator, docId: string): LocatorEntry | undefined {
  if (!Object.hasOwn(loc.docs, docId)) return undefined;
  const [s, rowGroup, row] = loc.docs[docId]!;
  const shard = loc.shards[s];
  return shard ? { shard, rowGroup, row } : undefined;
}

/** Deterministic JSON: ids sorted, one document per line (diffs stay readable). */
export function locatorJson(loc: SourceLocator): string {
  const ids = Object.keys(loc.docs).sort();
  const head = {
    format: loc.format,
    version: loc.version,
    dataset: loc.dataset,
    revision: loc.revision,
  };
  const lines = [
    `${JSON.stringify(head).slice(0, -1)},`,
    `"shards": [${loc.shards.length ? '\n' : ''}${loc.shards.map((s) => `  ${JSON.stringify({ path: s.path, size: s.size, oid: s.oid })}`).join(',\n')}${loc.shards.length ? '\n' : ''}],`,
    `"docs": {${ids.length ? '\n' : ''}${ids.map((id) => `  ${JSON.stringify(id)}: ${JSON.stringify(loc.docs[id])}`).join(',\n')}${ids.length ? '\n' : ''}},`,
    `"missing": ${JSON.stringify([...loc.missing].sort())}`,
    '}',
  ];
  return `${lines.join('\n')}\n`;
}

/** Builds a locator from found locations; only the shards that hold a document are listed. */
export function buildLocator(
  dataset: string,
  revision: string,
  found: ReadonlyMap<string, LocatorEntry>,
  missing: readonly string[],
): SourceLocator {
  const shards: ShardEntry[] = [];
  const index = new Map<string, number>();
  const docs: Record<string, [number, number, number]> = {};
  const ordered = [...found.entries()].sort(([a, x], [b, y]) =>
    x.shard.path !== y.shard.path ? (x.shard.path < y.shard.path ? -1 : 1) : a < b ? -1 : a > b ? 1 : 0,
  );
  for (const [id, entry] of ordered) {
    let i = index.get(entry.shard.path);
    if (i === undefined) {
      i = shards.length;
      index.set(entry.shard.path, i);
      shards.push({ path: entry.shard.path, size: entry.shard.size, oid: entry.shard.oid });
    }
    docs[id] = [i, entry.rowGroup, entry.row];
  }
  return {
    format: LOCATOR_FORMAT,
    version: LOCATOR_VERSION,
    dataset,
    revision,
    shards,
    docs,
    missing: [...missing].sort(),
  };
}
