import { utf16OffsetOfCodePoint } from './code-points.ts';

/**
 * The v1.0 pool and gauntlet judges read the first 2,500 characters of a document
 * (docs/benchmark-spec.md 6); systems see the whole text. Shown as a mark on document text.
 */
export const JUDGE_EXCERPT_CHARS = 2500;

/** Where the judge's excerpt (Python's text[:2500], in code points) ends, as a UTF-16 offset. */
export function judgeExcerptEnd(text: string, chars = JUDGE_EXCERPT_CHARS): number {
  return utf16OffsetOfCodePoint(text, chars);
}
