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
  arrayOf,
  int,
  object,
  recordOf,
  refine,
  str,
  tuple,
  type DescribedValidator,
  type LeafValidator,
} from '../release/validate.ts';
import type { ShardEntry } from './hub.ts';
import { isShardPath } from './hub.ts';

export const LOCATOR_FORMAT = 'epstein-bench-source-locator';
export const LOCATOR_VERSION = 1;

export interface SourceLocator {
  format: typeof LOCATOR_FORMAT;
  version: typeof LOCATOR_VERSION;
  dataset: string;
  revision: string;
  shards: ShardEntry[];
  /** doc_id -> [index into shards, row group, row within the row group]. */
  docs: Record<string, [number, number, number]>;
  /** Referenced ids the source does not have. */
  missing: string[];
}

export interface LocatorEntry {
  shard: ShardEntry;
  rowGroup: number;
  row: number;
}

/** Doc ids as the Hub's doc_id column holds them (EFTA00432308); bounded, no odd characters. */
export const SOURCE_DOC_ID_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const sourceDocId: LeafValidator<string> = str({
  pattern: SOURCE_DOC_ID_RE,
  expected: 'a doc id (letters, digits, . _ -, at most 64 characters)',
});

const shardValidator = object({
  path: str({ maxLength: 1000, expected: 'a repository path ending in .parquet' }),
  size: int({ min: 12 }),
  oid: str({ maxLength: 128 }),
});

const baseValidator = object({
  format: str({ pattern: new RegExp(`^${LOCATOR_FORMAT}$`), expected: `"${LOCATOR_FORMAT}"` }),
  version: int({ min: LOCATOR_VERSION, max: LOCATOR_VERSION }),
  dataset: str({ minLength: 3, maxLength: 200 }),
  revision: str({ minLength: 1, maxLength: 200 }),
  shards: arrayOf(shardValidator, { maxLength: 100_000 }),
  docs: recordOf(tuple(int({ min: 0 }), int({ min: 0 }), int({ min: 0 })), { key: sourceDocId }),
  missing: arrayOf(sourceDocId),
});

/** The locator validator for the release loader: shapes, then shard paths and indexes. */
export const sourceLocatorValidator: DescribedValidator<SourceLocator> = refine(
  baseValidator as DescribedValidator<SourceLocator>,
  (loc, ctx, issues) => {
    let ok = true;
    loc.shards.forEach((s, i) => {
      if (!isShardPath(s.path)) {
        issues.add({
          file: ctx.file,
          field: `shards[${i}].path`,
          expected: 'a relative repository path ending in .parquet',
          found: JSON.stringify(s.path).slice(0, 120),
          message: `${ctx.file}: shards[${i}].path: expected a relative repository path ending in .parquet`,
        });
        ok = false;
      }
    });
    for (const [id, [shard]] of Object.entries(loc.docs)) {
      if (shard >= loc.shards.length) {
        issues.add({
          file: ctx.file,
          field: `docs.${id}`,
          expected: `a shard index below ${loc.shards.length}`,
          found: String(shard),
          message: `${ctx.file}: docs.${id}: shard index ${shard} but the file lists ${loc.shards.length} shards`,
        });
        ok = false;
        break;
      }
    }
    return ok;
  },
);

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
