import { describe, expect, it } from 'vitest';
import { formatQrels, formatRun, parseQrels, parseRun, TrecFormatError } from '../../../../src/core/retrieval/trec.ts';

describe('TREC run files', () => {
  it('round-trips rankings with exact scores', () => {
    const rankings: [string, { doc_id: string; score: number }[]][] = [
      [
        'q1',
        [
          { doc_id: 'EFTA00000001', score: 12.345678901234567 },
          { doc_id: 'EFTA00000002', score: 1e-7 },
        ],
      ],
      ['q2', [{ doc_id: 'EFTA00000003', score: -0.5 }]],
    ];
    const text = formatRun(rankings, 'bm25');
    expect(text.split('\n')[0]).toBe('q1 Q0 EFTA00000001 1 12.345678901234567 bm25');
    const run = parseRun(text);
    expect(run.tag).toBe('bm25');
    expect(
      [...run.queries.entries()].map(([q, e]) => [q, e.map((x) => ({ doc_id: x.docid, score: x.score }))]),
    ).toEqual(rankings);
    expect(run.queries.get('q1')![1]!.rank).toBe(2);
  });

  it('accepts tabs, runs of spaces, CRLF and blank lines; takes the tag of the last line', () => {
    const run = parseRun('q1\tQ0  d1 0 4238 a\r\n\n q1 Q0 d2 1 1.5e2 b\n');
    expect(run.queries.get('q1')!.map((e) => e.score)).toEqual([4238, 150]);
    expect(run.tag).toBe('b');
  });

  it('names the line and the field of a bad line', () => {
    expect(() => parseRun('q1 Q0 d1 1 2.0 t\nq1 Q0 d2 1 t\n', { source: 'run.txt' })).toThrow(
      'run.txt line 2: expected 6 fields "qid Q0 docid rank score tag", found 5',
    );
    expect(() => parseRun('q1 Q0 d1 1 high t')).toThrow(
      /run line 1: field 5 \(score\) must be a finite number, found "high"/,
    );
    expect(() => parseRun('q1 Q0 d1 x 1 t')).toThrow(/field 4 \(rank\)/);
    expect(() => parseRun('q1 Q0 d1 1 1 t\n\nq1 Q0 d1 2 0.5 t')).toThrow(
      /line 3: document "d1" repeated for query "q1" \(first on line 1\)/,
    );
    expect(() => parseRun('q1 Q0 d1 1 1 t\nq1 Q0 d1 2 0.5 t')).toThrow(TrecFormatError);
  });

  it('refuses oversized inputs', () => {
    expect(() => parseRun(['a', 'b', 'c', 'd', 'e'].map((d) => `q Q0 ${d} 1 1 t`).join('\n'), { maxLines: 3 })).toThrow(
      /more than 3 lines/,
    );
  });
});

describe('qrels', () => {
  it('round-trips', () => {
    const qrels = new Map([
      [
        'q1',
        new Map([
          ['d1', 1],
          ['d2', 0],
        ]),
      ],
      ['q2', new Map([['d3', 2]])],
    ]);
    const text = formatQrels(qrels);
    expect(text).toBe('q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n');
    expect(parseQrels(text)).toEqual(qrels);
  });

  it('names the line of a bad or duplicate judgement', () => {
    expect(() => parseQrels('q1 0 d1 1\nq1 0 d2\n', { source: 'qrels.txt' })).toThrow(
      'qrels.txt line 2: expected 4 fields "qid iter docid rel", found 3',
    );
    expect(() => parseQrels('q1 0 d1 yes')).toThrow(/line 1: field 4 \(rel\) must be a number, found "yes"/);
    expect(() => parseQrels('q1 0 d1 1\nq1 0 d1 0')).toThrow(/line 2: document "d1" judged twice/);
  });

  it('refuses ids with whitespace when writing', () => {
    expect(() => formatRun([['q 1', [{ doc_id: 'd', score: 1 }]]], 't')).toThrow(/qid "q 1"/);
  });
});

describe('parsing as trec_eval 10 (HEAD) parses', () => {
  // expected values printed by trec_eval HEAD (built from usnistgov/trec_eval f425365) on these files
  const qrels = '# a comment\nq1 0 d1 2.0\nq1 0 d\u00a0x 1\nq1 0 d3 0\nq2 0 d4 1\n';
  const run =
    '  # run comment\nq1 Q0 d1 1 3.0 tagA extra text here\nq1 Q0 d\u00a0x 2 2.0 tagA\nq1 Q0 d3 3 1.0 tagA\nq2 Q0 d5 1 1.0 tagB\n';

  it('skips # comment lines in qrels (first column) and in runs (first non-blank character)', () => {
    expect([...parseQrels(qrels).keys()]).toEqual(['q1', 'q2']);
    expect([...parseRun(run).queries.keys()]).toEqual(['q1', 'q2']);
    // an indented '#' in qrels is not a comment to trec_eval: it is a qid
    expect(parseQrels(' # 0 d 1\n').get('#')?.get('d')).toBe(1);
  });

  it('ignores text after the run tag and takes the tag of the last line', () => {
    const parsed = parseRun(run);
    expect(parsed.queries.get('q1')!.map((e) => e.docid)).toEqual(['d1', 'd\u00a0x', 'd3']);
    expect(parsed.tag).toBe('tagB');
  });

  it('reads rel like atol(): "2.0" is 2, "2.7" is 2, "-1" is -1; a word is refused', () => {
    expect(parseQrels(qrels).get('q1')!.get('d1')).toBe(2);
    const r = parseQrels('q 0 a 2.7\nq 0 b -1\nq 0 c +3\nq 0 d 1e3\n').get('q')!;
    expect([...r.values()]).toEqual([2, -1, 3, 1]);
    expect(() => parseQrels('q 0 a yes\n')).toThrow(/field 4 \(rel\) must be a number, found "yes"/);
  });

  it('splits fields on ASCII whitespace only: a no-break space inside a docid is part of it', () => {
    expect([...parseQrels(qrels).get('q1')!.keys()]).toContain('d\u00a0x');
    expect(parseQrels('q\u00a0 0 d 1\n').has('q\u00a0')).toBe(true);
    expect(() => parseQrels('q 0 d\u00a01\n')).toThrow(/expected 4 fields "qid iter docid rel", found 3/);
    expect(parseRun('q Q0 d\u2003e 1 1 t\u3000x\n').queries.get('q')![0]!.docid).toBe('d\u2003e');
    expect(parseRun('q Q0 d 1 1 t\u3000x\n').tag).toBe('t\u3000x');
  });

  it('refuses a BOM at the start instead of stripping it silently from the first qid', () => {
    expect(() => parseQrels('\ufeffq1 0 d1 1\n', { source: 'qrels.txt' })).toThrow(
      'qrels.txt line 1: starts with a UTF-8 byte-order mark; trec_eval would read it as part of the first qid',
    );
    expect(() => parseRun('\ufeffq1 Q0 d1 1 1 t\n')).toThrow(/byte-order mark/);
  });

  it('writes ids with Unicode spaces as they are, and refuses ASCII whitespace and a qid read as a comment', () => {
    const text = formatQrels(new Map([['q', new Map([['d\u00a0x', 1]])]]));
    expect(parseQrels(text).get('q')!.has('d\u00a0x')).toBe(true);
    expect(() => formatQrels(new Map([['#q', new Map([['d', 1]])]]))).toThrow(/qid "#q"/);
  });
});
