import { findModelPrice, type ModelPrice } from './prices.ts';
import type { JudgeCache, JudgeCall } from './types.ts';

/** Chat formatting adds a few tokens per message and per reply on top of the text. */
const TOKENS_PER_MESSAGE = 4;
const TOKENS_PER_REPLY = 3;

/**
 * Visible judge replies are ~20 tokens of JSON, but reasoning models (the GPT-5 family) bill hidden
 * reasoning tokens as output too; this allowance is a guess, shown as such and overridable.
 */
export const DEFAULT_OUTPUT_TOKENS_PER_CALL = 400;

export interface JudgeCostEstimate {
  /** Calls that would hit the network (distinct keys not in the cache). */
  calls: number;
  /** Rough count: about one token per 4 characters (UTF-16 code units) plus message overhead. */
  estimatedInputTokens: number;
  /** calls × outputTokensPerCall. */
  estimatedOutputTokens: number;
  /** USD, or undefined when no price is known for the model. */
  estimatedCostUsd: number | undefined;
  price: ModelPrice | undefined;
}

export interface EstimateOptions {
  /** Overrides the known-price table for this estimate. */
  price?: ModelPrice;
  outputTokensPerCall?: number;
}

/** The rough token count of a text: ceil(chars / 4). Not a tokenizer; an estimate. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Distinct-key calls the cache cannot answer, in first-seen order. */
export async function uncachedCalls(calls: readonly JudgeCall[], cache: JudgeCache): Promise<JudgeCall[]> {
  const seen = new Set<string>();
  const out: JudgeCall[] = [];
  for (const call of calls) {
    if (seen.has(call.key)) continue;
    seen.add(call.key);
    if ((await cache.get(call.key)) === undefined) out.push(call);
  }
  return out;
}

/** Estimated tokens and cost of sending these calls (pass uncachedCalls(...) to skip cached ones). */
export function estimateJudgeCost(calls: readonly JudgeCall[], options: EstimateOptions = {}): JudgeCostEstimate {
  const outputTokensPerCall = options.outputTokensPerCall ?? DEFAULT_OUTPUT_TOKENS_PER_CALL;
  let inputTokens = 0;
  for (const call of calls) {
    inputTokens +=
      estimateTokens(call.system) + estimateTokens(call.prompt) + 2 * TOKENS_PER_MESSAGE + TOKENS_PER_REPLY;
  }
  const outputTokens = calls.length * outputTokensPerCall;
  const firstModel = calls[0]?.model;
  const singleModel = firstModel !== undefined && calls.every((call) => call.model === firstModel);
  const price = options.price ?? (singleModel ? findModelPrice(firstModel) : undefined);
  const cost =
    price === undefined
      ? undefined
      : (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;
  return {
    calls: calls.length,
    estimatedInputTokens: inputTokens,
    estimatedOutputTokens: outputTokens,
    estimatedCostUsd: cost,
    price,
  };
}
