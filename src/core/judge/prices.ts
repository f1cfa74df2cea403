/** US dollars per million tokens. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * List prices as published by the providers (USD per 1M tokens, standard tier, no batch or cache
 * discounts), collected mid-2026 and not verified live: show them as an estimate and let the user
 * override them. Keys are model ids without date suffix; see findModelPrice for the matching.
 */
export const KNOWN_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-5.5': { inputPerMillion: 5, outputPerMillion: 30 },
  'gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10 },
  'gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2 },
  'gpt-5-nano': { inputPerMillion: 0.05, outputPerMillion: 0.4 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'claude-opus-4': { inputPerMillion: 15, outputPerMillion: 75 },
  'claude-sonnet-4': { inputPerMillion: 3, outputPerMillion: 15 },
  'claude-sonnet-4-5': { inputPerMillion: 3, outputPerMillion: 15 },
  'claude-haiku-4-5': { inputPerMillion: 1, outputPerMillion: 5 },
  'claude-3-5-haiku': { inputPerMillion: 0.8, outputPerMillion: 4 },
};

/**
 * Looks a model up in the table: exact id first, then without a router prefix ("openai/gpt-5.5"),
 * then without a snapshot date ("gpt-5.5-2026-04-23", "claude-sonnet-4-20250514", "...-latest").
 */
export function findModelPrice(
  model: string,
  table: Readonly<Record<string, ModelPrice>> = KNOWN_MODEL_PRICES,
): ModelPrice | undefined {
  const withoutRouter = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  const withoutDate = withoutRouter.replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/, '');
  for (const candidate of [model, withoutRouter, withoutDate]) {
    if (Object.hasOwn(table, candidate)) return table[candidate];
  }
  return undefined;
}
