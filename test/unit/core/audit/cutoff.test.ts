import { describe, expect, it } from 'vitest';
import { excerptCutoffs } from '../../../../src/core/audit/cutoff.ts';
import { groundTask, prepareDoc, type PreparedDoc } from '../../../../src/core/audit/grounding.ts';
import { JUDGE_EXCERPT_CHARS } from '../../../../src/core/audit/rules.ts';
import { task } from '../scoring/fixtures.ts';

const pad = (n: number) => 'x'.repeat(n);
const docs = (entries: Record<string, string>): Map<string, PreparedDoc> =>
  new Map(Object.entries(entries).map(([id, text]) => [id, prepareDoc(id, text)]));

describe('excerpt cut-off', () => {
  // Each document puts the answer "QX-PER" at a known code point.
  const d = docs({
    INSIDE: `${pad(2493)} QX-PER and more`, // starts at 2494, ends 2500: inside
    STRADDLE: `${pad(2496)} QX-PER`, // starts at 2497, ends past 2500
    AT: `${pad(2499)} QX-PER`, // starts at exactly 2500: past
    // 2,490 astral characters are 4,980 UTF-16 units but 2,490 code points: inside for Python
    ASTRAL: `${'😀'.repeat(2490)} QX-PER`,
    // 1,300 astral characters then 1,250 plain: 2,551 code points before the answer
    ASTRAL_PAST: `${'😀'.repeat(1300)}${pad(1250)} QX-PER`,
    NONE: `${pad(3000)} nothing`,
  });
  const t = (id: string, gold: string[]) => task(id, 'single_hop', { answer: 'QX-PER', gold_docs: gold });
  const results = [
    t('inside', ['INSIDE']),
    t('straddle', ['STRADDLE']),
    t('at', ['AT']),
    t('astral', ['ASTRAL']),
    t('astral-past', ['ASTRAL_PAST']),
    t('mixed', ['AT', 'INSIDE']),
    t('none', ['NONE']),
  ].map((x) => groundTask('full', x, d));
  const summary = excerptCutoffs(results);

  it('flags evidence starting at or after code point 2,500, counted as Python counts', () => {
    expect(JUDGE_EXCERPT_CHARS).toBe(2500);
    expect(summary.flagged.map((f) => f.task_id)).toEqual(['at', 'astral-past', 'mixed']);
    expect(summary.flagged.find((f) => f.task_id === 'at')!.past[0]).toMatchObject({ doc_id: 'AT', start: 2500 });
    expect(summary.flagged.find((f) => f.task_id === 'astral-past')!.past[0]!.start).toBe(2551);
  });

  it('tells a task some of whose gold documents show the evidence from one where none does', () => {
    expect(summary.flagged.map((f) => [f.task_id, f.nonePassed])).toEqual([
      ['at', true],
      ['astral-past', true],
      ['mixed', false],
    ]);
    expect(summary).toMatchObject({
      evidencePairs: 7,
      pastPairs: 3,
      straddlingPairs: 1,
      tasksFlagged: 3,
      tasksAllPast: 2,
    });
  });

  it('takes another excerpt length', () => {
    expect(excerptCutoffs(results, 3000).tasksFlagged).toBe(0);
    expect(excerptCutoffs(results, 2494).flagged.map((f) => f.task_id)).toEqual([
      'inside',
      'straddle',
      'at',
      'astral-past',
      'mixed',
    ]);
  });
});

describe("the document page's excerpt mark", () => {
  it("ends where Python's text[:2500] ends, in code points", async () => {
    const { judgeExcerptEnd } = await import('../../../../src/core/text/judge-excerpt.ts');
    expect(judgeExcerptEnd('x'.repeat(3000))).toBe(2500);
    // 10 astral characters take 20 UTF-16 units and count 10 for Python
    expect(judgeExcerptEnd(`${'😀'.repeat(10)}${'x'.repeat(3000)}`)).toBe(2510);
    expect(judgeExcerptEnd('short')).toBe(5);
  });
});
