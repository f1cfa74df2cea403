import { describe, expect, it } from 'vitest';
import { MemoryJudgeCache } from '../../../../src/core/judge/cache.ts';
import {
  DEFAULT_OUTPUT_TOKENS_PER_CALL,
  estimateJudgeCost,
  estimateTokens,
  uncachedCalls,
} from '../../../../src/core/judge/estimate.ts';
import { findModelPrice, KNOWN_MODEL_PRICES } from '../../../../src/core/judge/prices.ts';
import { makeCall, makeCalls, SYSTEM } from './judge-fixtures.ts';

describe('estimateTokens', () => {
  it('is ceil(chars / 4)', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });
});

describe('estimateJudgeCost', () => {
  it('adds text tokens and message overhead, priced from the table', async () => {
    const call = await makeCall('x'.repeat(400));
    const estimate = estimateJudgeCost([call, call], { outputTokensPerCall: 100 });
    const perCall = Math.ceil(SYSTEM.length / 4) + 100 + 2 * 4 + 3;
    expect(estimate.calls).toBe(2);
    expect(estimate.estimatedInputTokens).toBe(2 * perCall);
    expect(estimate.estimatedOutputTokens).toBe(200);
    expect(estimate.price).toEqual(KNOWN_MODEL_PRICES['gpt-5.5']);
    expect(estimate.estimatedCostUsd).toBeCloseTo((2 * perCall * 5 + 200 * 30) / 1e6, 12);
  });

  it('uses an overriding price and the default output allowance', async () => {
    const calls = await makeCalls(3);
    const estimate = estimateJudgeCost(calls, { price: { inputPerMillion: 1, outputPerMillion: 2 } });
    expect(estimate.estimatedOutputTokens).toBe(3 * DEFAULT_OUTPUT_TOKENS_PER_CALL);
    expect(estimate.estimatedCostUsd).toBeCloseTo(
      (estimate.estimatedInputTokens * 1 + estimate.estimatedOutputTokens * 2) / 1e6,
      12,
    );
  });

  it('gives no cost for an unknown or mixed model without a price', async () => {
    expect(estimateJudgeCost(await makeCalls(2, 'my-local-llama')).estimatedCostUsd).toBeUndefined();
    const mixed = [await makeCall('a'), await makeCall('b', 't', 'gpt-4o-mini')];
    expect(estimateJudgeCost(mixed).estimatedCostUsd).toBeUndefined();
    expect(estimateJudgeCost([]).estimatedCostUsd).toBeUndefined();
  });

  it('counts only distinct calls missing from the cache', async () => {
    const calls = await makeCalls(4);
    const cache = new MemoryJudgeCache([[calls[1]!.key, 'cached']]);
    const missing = await uncachedCalls([...calls, calls[0]!], cache);
    expect(missing.map((c) => c.key)).toEqual([calls[0]!.key, calls[2]!.key, calls[3]!.key]);
    expect(estimateJudgeCost(missing).calls).toBe(3);
  });
});

describe('findModelPrice', () => {
  it('matches snapshots and router prefixes', () => {
    expect(findModelPrice('gpt-5.5-2026-04-23')).toEqual(KNOWN_MODEL_PRICES['gpt-5.5']);
    expect(findModelPrice('openai/gpt-4o-mini')).toEqual(KNOWN_MODEL_PRICES['gpt-4o-mini']);
    expect(findModelPrice('claude-sonnet-4-20250514')).toEqual(KNOWN_MODEL_PRICES['claude-sonnet-4']);
    expect(findModelPrice('gpt-5.5-pro')).toBeUndefined();
    expect(findModelPrice('toString')).toBeUndefined();
    expect(findModelPrice('custom', { custom: { inputPerMillion: 9, outputPerMillion: 9 } })).toEqual({
      inputPerMillion: 9,
      outputPerMillion: 9,
    });
  });
});
