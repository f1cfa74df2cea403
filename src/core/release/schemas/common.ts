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
 * A path inside the release folder: relative, '/'-separated, no '.' or '..' segment, no scheme
 * or drive, no query or fragment, so that a descriptor cannot point the loader outside its
 * release. It is checked as written and percent-decoded (repeatedly), since a URL resolves
 * `%2e%2e/` (and `%252e%252e/` on servers that decode twice) as `../`.
 */
export const relativePath: LeafValidator<string> = leaf<string>(
  'a relative path inside the release (no leading "/", no "." or ".." segment, also percent-encoded, no "\\", ":", "?", "#")',
  (v) => typeof v === 'string' && isSafeRelativePath(v),
);

const MAX_DECODES = 4;

function isSafeAsWritten(path: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (path.startsWith('/') || /[\\:?#\u0000-\u001f\u007f]/.test(path)) return false;
  return path.split('/').every((segment) => segment !== '..' && segment !== '.' && segment !== '');
}

export function isSafeRelativePath(path: string): boolean {
  if (path.length === 0 || path.length > 1024) return false;
  let form = path;
  for (let i = 0; i <= MAX_DECODES; i++) {
    if (!isSafeAsWritten(form)) return false;
    if (!form.includes('%')) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(form);
    } catch {
      return false; // a malformed escape: no server agrees on what it means
    }
    if (decoded === form) return true;
    form = decoded;
  }
  return false;
}
