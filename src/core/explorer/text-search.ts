import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';

export interface SearchableText {
  /** `split:task_id` for tasks, the task_id for candidates. */
  key: string;
  question: string;
  answer: string;
  items: string;
}

const SCHEMA = { key: 'string', question: 'string', answer: 'string', items: 'string' } as const;

/** Orama's radix tree recurses per character: a field and each word in it are cut to these sizes. */
const MAX_FIELD_CHARS = 200_000;
const MAX_WORD_CHARS = 64;

function bounded(text: string): string {
  return text.slice(0, MAX_FIELD_CHARS).replace(/\S{65,}/g, (word) => word.slice(0, MAX_WORD_CHARS));
}

/** One document per key (a release may repeat a task id): the texts of repeated keys are joined. */
function byKey(rows: readonly SearchableText[]): SearchableText[] {
  const merged = new Map<string, SearchableText>();
  for (const r of rows) {
    const seen = merged.get(r.key);
    merged.set(
      r.key,
      seen
        ? {
            key: r.key,
            question: `${seen.question}\n${r.question}`,
            answer: `${seen.answer}\n${r.answer}`,
            items: `${seen.items}\n${r.items}`,
          }
        : r,
    );
  }
  return [...merged.values()];
}

/** Free-text search over questions, answers and list items (Orama BM25, all words must match). */
export class TextSearch {
  private constructor(private readonly db: AnyOrama) {}

  static async build(rows: readonly SearchableText[]): Promise<TextSearch> {
    const db = create({ schema: SCHEMA });
    await insertMultiple(
      db,
      byKey(rows).map((r) => ({
        id: r.key,
        key: r.key,
        question: bounded(r.question),
        answer: bounded(r.answer),
        items: bounded(r.items),
      })),
      500,
    );
    return new TextSearch(db);
  }

  /**
   * Keys of every document holding all the words of `text` (prefix match on the last word), best
   * first. When no document has them all as typed, words one edit away count (a pasted name with
   * a typo still finds its tasks).
   */
  async keys(text: string, limit = 100_000): Promise<string[]> {
    const run = (tolerance: number) =>
      search(this.db, {
        term: bounded(text),
        properties: ['question', 'answer', 'items'],
        threshold: 0,
        tolerance,
        limit,
      });
    let result = await run(0);
    if (result.hits.length === 0) result = await run(1);
    return result.hits.map((h) => String(h.id));
  }
}
