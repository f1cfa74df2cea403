import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';

export interface SearchableText {
  /** `split:task_id` for tasks, the task_id for candidates. */
  key: string;
  question: string;
  answer: string;
  items: string;
}

const SCHEMA = { key: 'string', question: 'string', answer: 'string', items: 'string' } as const;

/** Free-text search over questions, answers and list items (Orama BM25, all words must match). */
export class TextSearch {
  private constructor(private readonly db: AnyOrama) {}

  static async build(rows: readonly SearchableText[]): Promise<TextSearch> {
    const db = create({ schema: SCHEMA });
    await insertMultiple(
      db,
      rows.map((r) => ({ id: r.key, ...r })),
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
      search(this.db, { term: text, properties: ['question', 'answer', 'items'], threshold: 0, tolerance, limit });
    let result = await run(0);
    if (result.hits.length === 0) result = await run(1);
    return result.hits.map((h) => String(h.id));
  }
}
