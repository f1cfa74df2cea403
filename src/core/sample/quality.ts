import type { Quality } from '../release/types.ts';
import { ENGLISH_WORDS } from './wordlist.ts';

/**
 * The benchmark's quality screen (docs/benchmark-spec.md 1.7), with one substitution: the LLM
 * "READABILITY" call on borderline docs is replaced by `readableByRule` (documented below).
 */
export interface QualityScreen {
  quality: Quality;
  /** Garbage ratio g: share of chars outside printable ASCII plus \n\r\t. */
  g: number;
  /** Dictionary ratio d: share of [A-Za-z]{2,} tokens found in the word list. */
  d: number;
  borderline: boolean;
  /** Only for borderline docs: the rule's verdict. */
  readable?: boolean;
}

export const MIN_CHARS = 200;
export const READABILITY_EXCERPT = 4000;

export function garbageRatio(text: string): number {
  if (text.length === 0) return 1;
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const ok = (c >= 0x20 && c <= 0x7e) || c === 0x0a || c === 0x0d || c === 0x09;
    if (!ok) bad++;
  }
  return bad / text.length;
}

export function alphaTokens(text: string): string[] {
  return text.match(/[A-Za-z]{2,}/g) ?? [];
}

export function dictionaryRatio(text: string, words: ReadonlySet<string> = ENGLISH_WORDS): number {
  const tokens = alphaTokens(text);
  if (tokens.length === 0) return 0;
  let hits = 0;
  for (const t of tokens) if (words.has(t.toLowerCase())) hits++;
  return hits / tokens.length;
}

/**
 * Deterministic stand-in for the LLM readability check, on the first 4,000 chars: readable when
 * (a) at most 10% of chars fail the garbage test, and (b) at least 85% of the [A-Za-z]{2,} tokens
 * look like language, i.e. are dictionary words, capitalised name-shaped words (Aaaa), or short
 * all-caps codes (<= 5 letters). Name-heavy but intact text (logs, manifests, headers) passes;
 * OCR-mangled text (mixed-case fragments, digits inside words, stray symbols) does not.
 */
export function readableByRule(text: string, words: ReadonlySet<string> = ENGLISH_WORDS): boolean {
  const excerpt = text.slice(0, READABILITY_EXCERPT);
  if (garbageRatio(excerpt) > 0.1) return false;
  const raw = excerpt.split(/\s+/).filter((t) => /[A-Za-z]/.test(t));
  if (raw.length === 0) return false;
  let ok = 0;
  for (const tok of raw) {
    const core = tok.replace(/^[("'[]+|[)"'\].,;:!?]+$/g, '');
    if (
      words.has(core.toLowerCase()) ||
      /^[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)*$/.test(core) ||
      /^[A-Z]{1,5}$/.test(core) ||
      (/^[a-z]+$/.test(core) && core.length <= 3) ||
      /^[A-Za-z]+:$/.test(core) ||
      /^[A-Z]{2}-[A-Z]{3}$/.test(core) ||
      /^[A-Z]\.$/.test(core) ||
      /^[\w.+-]+@[\w.-]+$/.test(core) ||
      /^[\d$,./:-]+[A-Za-z]{0,2}$/.test(core)
    ) {
      ok++;
    }
  }
  return ok / raw.length >= 0.85;
}

export function screenQuality(text: string, words: ReadonlySet<string> = ENGLISH_WORDS): QualityScreen {
  const g = garbageRatio(text);
  const d = dictionaryRatio(text, words);
  if (text.length < MIN_CHARS) return { quality: 'garbage', g, d, borderline: false };
  if (g > 0.25) return { quality: 'garbage', g, d, borderline: false };
  if (d < 0.45) return { quality: 'degraded', g, d, borderline: false };
  const borderline = Math.abs(g - 0.15) <= 0.1 || Math.abs(d - 0.55) <= 0.1;
  if (borderline) {
    const readable = readableByRule(text, words);
    return { quality: readable ? 'clean' : 'degraded', g, d, borderline, readable };
  }
  return { quality: g <= 0.15 && d >= 0.55 ? 'clean' : 'degraded', g, d, borderline };
}
