import { describe, expect, it } from 'vitest';
import type { SystemTaskNumbers } from '../../../../src/core/explorer/systems.ts';
import { citationOutcome, isRight, judgedOutcome, judgedThroughout } from '../../../../src/core/map/outcomes.ts';

const cell = (over: Partial<SystemTaskNumbers> = {}): SystemTaskNumbers => ({
  answered: true,
  recall5: 0,
  recall20: 0,
  ndcg10: 0,
  citations: 2,
  citedGold: 0,
  citationPrecision: 0,
  citationRecall: 0,
  retrievedGold: 0,
  citedOutside: 0,
  gateOutside: 0,
  ...over,
});

describe("a system's outcome on a task", () => {
  it("by the judge's verdict: credit with citations, credit without, none, no answer", () => {
    expect(judgedOutcome(cell(), [1, 1])).toBe('correct and cited');
    expect(judgedOutcome(cell(), [0.5, 1])).toBe('correct and cited');
    expect(judgedOutcome(cell({ gateOutside: 1 }), [0, 1])).toBe('correct, citations not credited');
    expect(judgedOutcome(cell(), [0, 0])).toBe('wrong');
    expect(judgedOutcome(null, [1, 1])).toBe('no answer');
    expect(judgedOutcome(cell({ answered: false }), [0, 0])).toBe('no answer');
    expect(judgedOutcome(cell(), undefined)).toBe('no answer');
  });

  it('by its citations when no verdict is cached', () => {
    expect(citationOutcome(cell({ citedGold: 1, citedOutside: 1 }))).toBe('cited gold');
    expect(citationOutcome(cell({ citedOutside: 2 }))).toBe('cited outside the gold only');
    expect(citationOutcome(cell())).toBe('cited no gold');
    expect(citationOutcome(cell({ citationPrecision: null }))).toBe('no gold to cite');
    expect(citationOutcome(null)).toBe('no answer');
  });

  it('is judged only when the cache covers every task the system answered', () => {
    const cells = [cell(), null, cell({ answered: false }), cell()];
    const ids = ['a', 'b', 'c', 'd'];
    expect(judgedThroughout(cells, ids, { a: [1, 1], d: [0, 0] })).toBe(true);
    expect(judgedThroughout(cells, ids, { a: [1, 1] })).toBe(false);
    expect(judgedThroughout(cells, ids, undefined)).toBe(false);
  });

  it('counts as right only with gold-backed credit', () => {
    expect(isRight('correct and cited')).toBe(true);
    expect(isRight('cited gold')).toBe(true);
    expect(isRight('correct, citations not credited')).toBe(false);
    expect(isRight('no gold to cite')).toBe(false);
  });
});
