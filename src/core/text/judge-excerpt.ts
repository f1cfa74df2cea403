/**
 * The v1.0 pool and gauntlet judges read the first 2,500 characters of a document
 * (docs/benchmark-spec.md 6); systems see the whole text. Shown as a mark on document text.
 */
export const JUDGE_EXCERPT_CHARS = 2500;
