/**
 * A BERT WordPiece tokenizer that reproduces transformers.js 4.3.1 (BertNormalizer with lowercase,
 * clean_text, handle_chinese_chars and accent stripping; BertPreTokenizer; greedy longest-match
 * WordPiece with "##" continuations), so training sees exactly the ids the browser will feed the model.
 */
export const PAD_TOKEN = '[PAD]';
export const UNK_TOKEN = '[UNK]';
export const CLS_TOKEN = '[CLS]';
export const SEP_TOKEN = '[SEP]';
export const MASK_TOKEN = '[MASK]';
/** Special tokens in id order: [PAD] = 0, [UNK] = 1, [CLS] = 2, [SEP] = 3, [MASK] = 4. */
export const SPECIAL_TOKENS: readonly string[] = [PAD_TOKEN, UNK_TOKEN, CLS_TOKEN, SEP_TOKEN, MASK_TOKEN];
export const CONTINUATION_PREFIX = '##';
export const MAX_INPUT_CHARS_PER_WORD = 100;

const PUNCTUATION = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const PRE_TOKEN_PATTERN = new RegExp(`[^\\s${PUNCTUATION}]+|[${PUNCTUATION}]`, 'gu');
const CONTROL_PATTERN = /^\p{Cc}|\p{Cf}|\p{Co}|\p{Cs}$/u;
const WHITESPACE_CHAR = /^\s$/;
const COMBINING_MARK = /\p{Mn}/gu;
const SPECIAL_SPLIT = /(\[PAD\]|\[UNK\]|\[CLS\]|\[SEP\]|\[MASK\])/;

function isChineseChar(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/** BertNormalizer as transformers.js applies it (including its per-UTF-16-unit quirks). */
export function bertNormalize(text: string): string {
  let cleaned = '';
  for (const char of text) {
    const cp = char.charCodeAt(0);
    if (cp === 0 || cp === 0xfffd) continue;
    if (char !== '\t' && char !== '\n' && char !== '\r' && CONTROL_PATTERN.test(char)) continue;
    cleaned += WHITESPACE_CHAR.test(char) ? ' ' : char;
  }
  let spaced = '';
  for (let i = 0; i < cleaned.length; i++) {
    const unit = cleaned[i]!;
    spaced += isChineseChar(unit.charCodeAt(0)) ? ` ${unit} ` : unit;
  }
  return spaced.toLowerCase().normalize('NFD').replace(COMBINING_MARK, '');
}

/** Words and single punctuation marks of normalised text. */
export function bertPreTokenize(normalized: string): string[] {
  return normalized.trim().match(PRE_TOKEN_PATTERN) ?? [];
}

/** Splits raw text into the pre-tokenised words of each section between literal special tokens. */
export function splitWords(text: string): { words: string[]; special: string | null }[] {
  const out: { words: string[]; special: string | null }[] = [];
  for (const section of text.split(SPECIAL_SPLIT)) {
    if (section.length === 0) continue;
    if (SPECIAL_TOKENS.includes(section)) out.push({ words: [], special: section });
    else out.push({ words: bertPreTokenize(bertNormalize(section)), special: null });
  }
  return out;
}

export class WordPieceEncoder {
  readonly vocab: readonly string[];
  private readonly ids: Map<string, number>;
  private readonly unkId: number;
  private readonly cache = new Map<string, readonly number[]>();

  constructor(vocab: readonly string[]) {
    this.vocab = vocab;
    this.ids = new Map(vocab.map((token, id) => [token, id]));
    const unk = this.ids.get(UNK_TOKEN);
    if (unk === undefined) throw new Error(`vocabulary has no ${UNK_TOKEN}`);
    this.unkId = unk;
  }

  idOf(token: string): number | undefined {
    return this.ids.get(token);
  }

  /** Token ids of one pre-tokenised word (greedy longest match; [UNK] if it cannot be split). */
  encodeWord(word: string): readonly number[] {
    const cached = this.cache.get(word);
    if (cached) return cached;
    const chars = [...word];
    let pieces: number[] = [];
    if (chars.length > MAX_INPUT_CHARS_PER_WORD) pieces = [this.unkId];
    else {
      let start = 0;
      while (start < chars.length) {
        let end = chars.length;
        let found: number | undefined;
        while (start < end) {
          const body = chars.slice(start, end).join('');
          found = this.ids.get(start > 0 ? CONTINUATION_PREFIX + body : body);
          if (found !== undefined) break;
          end--;
        }
        if (found === undefined) {
          pieces = [this.unkId];
          break;
        }
        pieces.push(found);
        start = end;
      }
    }
    if (this.cache.size < 200_000) this.cache.set(word, pieces);
    return pieces;
  }

  /** Ids of a text without [CLS]/[SEP] (what the post-processor wraps). */
  encode(text: string): number[] {
    const out: number[] = [];
    for (const section of splitWords(text)) {
      if (section.special !== null) out.push(this.ids.get(section.special) ?? this.unkId);
      else for (const word of section.words) for (const id of this.encodeWord(word)) out.push(id);
    }
    return out;
  }
}
