/** tokenizer.json, tokenizer_config.json and config.json of a BERT-style WordPiece model. */
import {
  CLS_TOKEN,
  CONTINUATION_PREFIX,
  MASK_TOKEN,
  MAX_INPUT_CHARS_PER_WORD,
  PAD_TOKEN,
  SEP_TOKEN,
  SPECIAL_TOKENS,
  UNK_TOKEN,
} from '../../core/embedding-model/wordpiece.ts';

function idOf(vocab: readonly string[], token: string): number {
  const id = vocab.indexOf(token);
  if (id < 0) throw new Error(`vocabulary has no ${token}`);
  return id;
}

export function tokenizerJson(vocab: readonly string[]): unknown {
  const cls = idOf(vocab, CLS_TOKEN);
  const sep = idOf(vocab, SEP_TOKEN);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: idOf(vocab, content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: CLS_TOKEN, type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: SEP_TOKEN, type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: CLS_TOKEN, type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: SEP_TOKEN, type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: SEP_TOKEN, type_id: 1 } },
      ],
      special_tokens: {
        [CLS_TOKEN]: { id: CLS_TOKEN, ids: [cls], tokens: [CLS_TOKEN] },
        [SEP_TOKEN]: { id: SEP_TOKEN, ids: [sep], tokens: [SEP_TOKEN] },
      },
    },
    decoder: { type: 'WordPiece', prefix: CONTINUATION_PREFIX, cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: UNK_TOKEN,
      continuing_subword_prefix: CONTINUATION_PREFIX,
      max_input_chars_per_word: MAX_INPUT_CHARS_PER_WORD,
      vocab: Object.fromEntries(vocab.map((token, id) => [token, id])),
    },
  };
}

/** No model_max_length: transformers.js then uses Infinity and never truncates (the model has no positions). */
export function tokenizerConfigJson(): unknown {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    strip_accents: null,
    tokenize_chinese_chars: true,
    clean_up_tokenization_spaces: true,
    unk_token: UNK_TOKEN,
    sep_token: SEP_TOKEN,
    pad_token: PAD_TOKEN,
    cls_token: CLS_TOKEN,
    mask_token: MASK_TOKEN,
  };
}

export function modelConfigJson(vocabSize: number, dim: number): unknown {
  return {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: dim,
    vocab_size: vocabSize,
    num_hidden_layers: 0,
    num_attention_heads: 1,
    pad_token_id: 0,
    type_vocab_size: 2,
  };
}
