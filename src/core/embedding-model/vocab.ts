/**
 * Chooses a WordPiece vocabulary from a corpus: the special tokens, every frequent character alone
 * and as a "##" continuation (so unknown words split instead of becoming [UNK]), then the most
 * frequent whole words. Ties are broken by code-unit order, so the result depends only on the corpus.
 */
import { CONTINUATION_PREFIX, SPECIAL_TOKENS, splitWords } from './wordpiece.ts';

export interface VocabOptions {
  /** Total size including special tokens and characters. */
  maxSize: number;
  /** Characters seen fewer times are left out (they become [UNK]). */
  minCharCount: number;
  /** Words seen fewer times are left out. */
  minWordCount: number;
}

export const DEFAULT_VOCAB_OPTIONS: VocabOptions = { maxSize: 8000, minCharCount: 2, minWordCount: 2 };

export function countWords(texts: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const section of splitWords(text)) {
      for (const word of section.words) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return counts;
}

function byCountThenText(a: [string, number], b: [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

export function buildVocab(wordCounts: ReadonlyMap<string, number>, options: VocabOptions): string[] {
  const charCounts = new Map<string, number>();
  for (const [word, count] of wordCounts) {
    for (const char of word) charCounts.set(char, (charCounts.get(char) ?? 0) + count);
  }
  const chars = [...charCounts].filter(([, n]) => n >= options.minCharCount).sort(byCountThenText);
  const vocab: string[] = [...SPECIAL_TOKENS];
  const seen = new Set(vocab);
  const add = (token: string): void => {
    if (vocab.length < options.maxSize && !seen.has(token)) {
      seen.add(token);
      vocab.push(token);
    }
  };
  for (const [char] of chars) add(char);
  for (const [char] of chars) add(CONTINUATION_PREFIX + char);
  const words = [...wordCounts].filter(([, n]) => n >= options.minWordCount).sort(byCountThenText);
  for (const [word] of words) {
    if (vocab.length >= options.maxSize) break;
    if ([...word].length > 1) add(word);
  }
  return vocab;
}
