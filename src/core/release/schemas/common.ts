/** Validators shared by several release files. */
import { TASK_TYPES, SPLITS, type TaskType, type SplitName } from '../types.ts';
import { arrayOf, docId, leaf, oneOf, type LeafValidator } from '../validate.ts';

export const taskType: LeafValidator<TaskType> = oneOf(TASK_TYPES);
export const splitName: LeafValidator<SplitName> = oneOf(SPLITS);
export const docIds = arrayOf(docId);

/** Types with an answer in the corpus (pooled, scored against gold documents). */
export const ANSWERABLE_TYPES: ReadonlySet<TaskType> = new Set(['single_hop', 'aggregation', 'timeline', 'dossier']);
/** Types whose gold answer is one short string. */
export const SHORT_ANSWER_TYPES: ReadonlySet<TaskType> = new Set(['single_hop', 'timeline']);

/**
 * A path inside the release folder: relative, '/'-separated, no '..' segment, no scheme or drive,
 * so that a descriptor cannot point the loader outside its release.
 */
export const relativePath: LeafValidator<string> = leaf<string>(
  'a relative path inside the release (no leading "/", no "..", no "\\", no ":")',
  (v) => typeof v === 'string' && isSafeRelativePath(v),
);

export function isSafeRelativePath(path: string): boolean {
  if (path.length === 0 || path.length > 1024) return false;
  if (path.startsWith('/') || path.includes('\\') || path.includes(':') || path.includes('\0')) return false;
  return path.split('/').every((segment) => segment !== '..' && segment !== '');
}
