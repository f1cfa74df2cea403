/**
 * The locator file's schema (see source-docs/locator.ts): here, beside the other release file
 * schemas, because a release may ship the file and its loader validates it.
 */
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
} from '../validate.ts';

/** A parquet shard of the Hugging Face source. */
export interface ShardEntry {
  /** Path in the repository, e.g. "data/train-00000-of-00634.parquet". */
  path: string;
  size: number;
  /** Content id: the LFS sha256 when there is one, else the git blob id. */
  oid: string;
}

/** A repository path we are willing to request: relative, no `..`, ends in .parquet. */
export function isShardPath(path: string): boolean {
  return (
    path.length <= 1000 &&
    path.endsWith('.parquet') &&
    !path.startsWith('/') &&
    !path.split('/').some((seg) => seg === '' || seg === '.' || seg === '..') &&
    !/[\\<>"|?*]/.test(path) &&
    [...path].every((ch) => ch.charCodeAt(0) >= 0x20)
  );
}

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
