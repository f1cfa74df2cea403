/** Our release descriptor, release.json. */
import { RELEASE_FILE_KINDS, SPLITS, type ReleaseDescriptor, type ReleaseFileKind } from '../types.ts';
import {
  arrayOf,
  int,
  nonEmptyString,
  object,
  optional,
  recordOf,
  sha256HexString,
  str,
  type Validator,
} from '../validate.ts';
import { MIN_BLOCK_BYTES } from '../block-pins.ts';
import { relativePath } from './common.ts';

const DESCRIBED_ELSEWHERE: ReadonlySet<ReleaseFileKind> = new Set(['manifest', 'questions', 'tasks']);
export const DESCRIPTOR_FILE_KINDS = RELEASE_FILE_KINDS.filter((k) => !DESCRIBED_ELSEWHERE.has(k));

export const SUBMISSION_SLUG_RE = /^[a-z0-9-]+$/;

export const releaseDescriptorValidator: Validator<ReleaseDescriptor> = object({
  id: nonEmptyString,
  title: nonEmptyString,
  dataset_version: nonEmptyString,
  splits: recordOf(object({ questions: relativePath, tasks: optional(relativePath) }), { keys: SPLITS, minKeys: 1 }),
  manifest: optional(relativePath),
  files: recordOf(relativePath, { keys: DESCRIPTOR_FILE_KINDS }),
  submissions: optional(arrayOf(str({ pattern: SUBMISSION_SLUG_RE, expected: 'a submission slug ([a-z0-9-]+)' }))),
  indexes: optional(
    object({ bm25: optional(relativePath), dense: optional(relativePath), model: optional(relativePath) }),
  ),
  source_url_template: optional(
    str({ pattern: /^https?:\/\/\S*\{doc_id\}/, expected: 'an http(s) URL template containing {doc_id}' }),
  ),
  sha256: optional(recordOf(sha256HexString, { key: relativePath })),
  blocks: optional(
    recordOf(
      object({ block_bytes: int({ min: MIN_BLOCK_BYTES }), sha256: arrayOf(sha256HexString, { minLength: 1 }) }),
      { key: relativePath },
    ),
  ),
});
