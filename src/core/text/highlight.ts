/**
 * Where a reference answer (or a list item) occurs in a document, for highlighting: the whole
 * text if it is there, else the longest run of its words that is. Pure text work, no DOM: the UI
 * renders the segments as text nodes and <mark>s.
 */
import { wordsPattern } from './regexp.ts';

export interface Span {
  start: number;
  end: number;
}

export interface Segment {
  text: string;
  mark: boolean;
}

const MIN_SPAN_CHARS = 4;
const STOP = new Set([
  'the',
  'a',
  'an',
  'of',
  'and',
  'or',
  'to',
  'in',
  'on',
  'at',
  'for',
  'with',
  'by',
  'from',
  'is',
  'was',
]);

/** Words of the needle as a pattern that tolerates any run of whitespace between them. */
const pattern = (words: readonly string[]) => wordsPattern(words, 'giu');

function allMatches(text: string, re: RegExp, limit: number): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(re)) {
    if (m[0].length === 0) continue;
    out.push({ start: m.index, end: m.index + m[0].length });
    if (out.length >= limit) break;
  }
  return out;
}

/** Spans of `needle` in `text`: every whole occurrence, else every occurrence of its longest matching word run. */
export function findSpans(text: string, needle: string, limit = 50): Span[] {
  const words = needle
    .split(/\s+/)
    .map((w) => w.trim())
    .filter((w) => w.length > 0);
  if (words.length === 0 || text.length === 0) return [];
  const whole = allMatches(text, pattern(words), limit);
  if (whole.length) return whole;
  // Words lose edge punctuation ("2013," / "(NY)") before the run search.
  const bare = words.map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter((w) => w.length > 0);
  for (let len = bare.length; len >= 1; len--) {
    for (let from = 0; from + len <= bare.length; from++) {
      const run = bare.slice(from, from + len);
      const chars = run.join(' ').length;
      if (chars < MIN_SPAN_CHARS) continue;
      if (run.every((w) => STOP.has(w.toLowerCase()))) continue;
      const hits = allMatches(text, pattern(run), limit);
      if (hits.length) return hits;
    }
  }
  return [];
}

/** Splits text into plain and marked segments; overlapping spans are merged. */
export function segments(text: string, spans: readonly Span[]): Segment[] {
  const sorted = [...spans].filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const s of sorted) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ start: Math.max(0, s.start), end: Math.min(text.length, s.end) });
  }
  const out: Segment[] = [];
  let at = 0;
  for (const s of merged) {
    if (s.start > at) out.push({ text: text.slice(at, s.start), mark: false });
    out.push({ text: text.slice(s.start, s.end), mark: true });
    at = s.end;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}
