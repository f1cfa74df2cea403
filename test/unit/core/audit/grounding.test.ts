import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkClaim,
  documentsNeeded,
  groundingByType,
  groundTask,
  prepareDoc,
  type PreparedDoc,
} from '../../../../src/core/audit/grounding.ts';
import {
  codePointOffset,
  collapseLower,
  distinctTokens,
  normaliseWithOffsets,
  utf16OffsetOfCodePoint,
} from '../../../../src/core/audit/normalise.ts';
import { formatTypeShare, percent } from '../../../../src/core/audit/report.ts';
import { CARD_GROUNDING, cardShare } from '../../../../src/core/audit/card-figures.ts';
import { items, task } from '../scoring/fixtures.ts';

interface PyCase {
  claim: string;
  doc: string;
  norm_claim: string;
  norm_doc: string;
  verbatim: boolean;
  tokens_found: number;
  tokens_total: number;
  grounded: boolean;
  doc_code_points: number;
}
const cases = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../fixtures/audit/grounding-cases.json'), 'utf8'),
) as PyCase[];

const docs = (entries: Record<string, string>): Map<string, PreparedDoc> =>
  new Map(Object.entries(entries).map(([id, text]) => [id, prepareDoc(id, text)]));

describe('the rule against Python (test/fixtures/audit/make-grounding-cases.py)', () => {
  it.each(cases.map((c, i) => [i, c] as const))('case %i', (_, c) => {
    expect(collapseLower(c.claim)).toBe(c.norm_claim);
    expect(normaliseWithOffsets(c.doc).text).toBe(c.norm_doc);
    const e = checkClaim(c.claim, prepareDoc('D', c.doc));
    expect(e.match === 'verbatim').toBe(c.verbatim);
    expect([e.tokensFound, e.tokensTotal]).toEqual([c.tokens_found, c.tokens_total]);
    expect(e.match !== 'none').toBe(c.grounded);
    expect(e.chars).toBe(c.doc_code_points);
  });
});

describe('normalisation keeps offsets into the original', () => {
  it('maps a verbatim match back across collapsed whitespace and case', () => {
    const text = 'Filed before the\n\tHON.  NOEMI   zeller-moss on 3 July.';
    const e = checkClaim('Hon. Noemi Zeller-Moss', prepareDoc('D', text));
    expect(e.match).toBe('verbatim');
    expect(text.slice(e.passage!.start16, e.passage!.end16)).toBe('HON.  NOEMI   zeller-moss');
  });

  it('counts code points as Python does before an astral character', () => {
    const text = '😀😀 x';
    expect(codePointOffset(text, text.length)).toBe(4);
    expect(utf16OffsetOfCodePoint(text, 2)).toBe(4);
    const e = checkClaim('x', prepareDoc('D', text));
    expect(e.passage).toMatchObject({ start: 3, end: 4, start16: 5, end16: 6 });
  });

  it('keeps the original span of a letter whose lowercase is longer (U+0130)', () => {
    const text = 'at İSTANBUL office';
    const e = checkClaim('istanbul office', prepareDoc('D', text));
    // "i̇stanbul" is not "istanbul": only the overlap rule can ground it, and "office" is one token of two.
    expect(e.match).toBe('none');
    const v = checkClaim('İstanbul office', prepareDoc('D', text));
    expect(v.match).toBe('verbatim');
    expect(text.slice(v.passage!.start16, v.passage!.end16)).toBe('İSTANBUL office');
  });

  it('takes tokens of two or more [a-z0-9] as a set', () => {
    expect([...distinctTokens('The 7 seas, THE seas; a b 42')]).toEqual(['the', 'seas', '42']);
  });
});

describe('overlap passages', () => {
  it('is the shortest stretch holding every found token, earliest on ties', () => {
    const text = 'alpha x x x x x x beta gamma. Later: gamma alpha beta, then alpha.';
    const e = checkClaim('alpha beta gamma delta epsilon', prepareDoc('D', text));
    expect(e.match).toBe('overlap');
    expect(e.overlap).toBeCloseTo(0.6, 12);
    expect(text.slice(e.passage!.start16, e.passage!.end16)).toBe('gamma alpha beta');
  });

  it('grounds at exactly 60% and not below', () => {
    expect(checkClaim('aa bb cc dd ee', prepareDoc('D', 'aa bb cc')).match).toBe('overlap');
    expect(checkClaim('aa bb cc dd ee', prepareDoc('D', 'aa bb zz')).match).toBe('none');
    // 3 of 5 is 0.6 in floating point as well; 0.6 of a claim of 10 tokens needs 6.
    expect(checkClaim('a1 a2 a3 a4 a5 a6 a7 a8 a9 b0', prepareDoc('D', 'a1 a2 a3 a4 a5 a6')).match).toBe('overlap');
    expect(checkClaim('a1 a2 a3 a4 a5 a6 a7 a8 a9 b0', prepareDoc('D', 'a1 a2 a3 a4 a5')).match).toBe('none');
  });
});

describe('tasks and types', () => {
  const d = docs({
    G1: 'The aircraft QX-PER carried her.',
    G2: 'Nothing relevant here at all.',
    G3: 'A long memo. '.repeat(10) + 'Payment of 500 dollars to Marrowby Land Company.',
    I1: 'Tobias Maddox-Vey dined at the Bellhaven Yacht Club.',
    I2: 'Minutes of a meeting.',
  });
  const tasks = [
    task('t1', 'single_hop', { answer: 'QX-PER', gold_docs: ['G2', 'G1'] }),
    task('t2', 'single_hop', { answer: 'QX-HDN', gold_docs: ['G2'] }),
    task('t3', 'timeline', { answer: 'Marrowby Land Company 500 dollars', gold_docs: ['G3'] }),
    task('t4', 'single_hop', { answer: 'QX-PER', gold_docs: ['G1', 'MISSING'] }),
    task('t5', 'single_hop', { answer: 'QX-ZZZ', gold_docs: ['G2', 'MISSING'] }),
    task('t6', 'aggregation', {
      gold_docs: ['I1', 'I2'],
      items: items(
        ['Tobias Maddox-Vey at the Bellhaven Yacht Club', ['I1']],
        ['Gideon Varga-Lind at the Marlowe Reading Room', []],
      ),
    }),
    task('t7', 'unanswerable'),
  ];
  const results = tasks.map((t) => groundTask('full', t, d));

  it('decides each task and picks the best document', () => {
    expect(results.map((r) => r.status)).toEqual([
      'grounded',
      'not_grounded',
      'grounded',
      'grounded',
      'unread',
      'not_grounded',
      'no_gold',
    ]);
    expect(results[0]!.claims[0]!.best?.doc_id).toBe('G1');
    expect(results[2]!.claims[0]!.best?.match).toBe('overlap');
    expect(results[4]!.claims[0]!).toMatchObject({ docsRead: 1, grounded: null });
    // an item without its own documents is checked against the task's gold documents
    expect(results[5]!.claims[1]!.doc_ids).toEqual(['I1', 'I2']);
    expect(results[5]!.claims.map((c) => c.grounded)).toEqual([true, false]);
  });

  it('counts per type as the card prints it: tasks for answers, items for lists', () => {
    const byType = groundingByType(results);
    expect(byType.map(formatTypeShare)).toEqual([
      'single_hop 66.7% (2/3)',
      'timeline 100.0% (1/1)',
      'aggregation 50.0% (1/2 items)',
    ]);
    expect(byType[0]).toMatchObject({ checked: 3, grounded: 2, verbatim: 2, unread: 1 });
  });

  it('orders the types as the card does whatever the task order: single_hop, timeline, then the item types', () => {
    expect(groundingByType([...results].reverse()).map((t) => t.type)).toEqual([
      'single_hop',
      'timeline',
      'aggregation',
    ]);
  });

  it('lists the documents it needs once each', () => {
    expect(documentsNeeded(tasks)).toEqual(['G2', 'G1', 'G3', 'MISSING', 'I1', 'I2']);
  });

  it("prints a share with Python's rounding", () => {
    expect(percent(815, 823)).toBe('99.0%');
    expect(percent(26, 27)).toBe('96.3%');
    // 0.0625 * 100 = 6.25 exactly: Python's format rounds half to even
    expect(percent(1, 16)).toBe('6.2%');
    expect(percent(0, 0)).toBe('n/a');
  });

  it('keeps the card’s published figures as the card prints them, shown on its own release only', () => {
    for (const c of CARD_GROUNDING.shares)
      expect(
        formatTypeShare({
          type: c.type,
          unit: 'tasks',
          checked: c.checked,
          grounded: c.grounded,
          verbatim: 0,
          unread: 0,
          noDocs: 0,
        }),
      ).toBe(c.line);
    expect(CARD_GROUNDING.shares.map((c) => c.line)).toEqual(['single_hop 99.0% (815/823)', 'timeline 96.3% (26/27)']);
    expect(cardShare('v1.0', 'timeline')).toBe('timeline 96.3% (26/27)');
    expect(cardShare('v1.0', 'aggregation')).toBeUndefined();
    expect(cardShare('sample-1', 'single_hop')).toBeUndefined();
  });
});
