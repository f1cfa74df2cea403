import { describe, expect, it } from 'vitest';
import { chunkSpans } from '../../../../src/core/text/chunks.ts';
import { findSpans, segments } from '../../../../src/core/text/highlight.ts';
import { chunkDoc } from '../../../../src/core/sample/chunking.ts';

describe('findSpans', () => {
  it('finds every whole occurrence, case-insensitively, across line breaks', () => {
    const text = 'Filed: Motion to\nseal exhibits. Later a motion to seal exhibits again.';
    const spans = findSpans(text, 'motion to seal exhibits');
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual([
      'Motion to\nseal exhibits',
      'motion to seal exhibits',
    ]);
  });

  it('falls back to the longest run of answer words the text holds', () => {
    const text = 'The wire went to Amberline Private Bank on Tuesday.';
    const [span] = findSpans(text, 'an account at Amberline Private Bank, Geneva');
    expect(text.slice(span!.start, span!.end)).toBe('Amberline Private Bank');
  });

  it('does not highlight stop words alone, and treats regex characters as text', () => {
    expect(findSpans('of the and', 'the of')).toEqual([]);
    const text = 'rate 4.4% (NY) today';
    const [span] = findSpans(text, '4.4% (NY)');
    expect(text.slice(span!.start, span!.end)).toBe('4.4% (NY)');
  });
});

describe('segments', () => {
  it('splits text into plain and marked parts, merging overlaps', () => {
    expect(
      segments('abcdefgh', [
        { start: 1, end: 3 },
        { start: 2, end: 5 },
      ]),
    ).toEqual([
      { text: 'a', mark: false },
      { text: 'bcde', mark: true },
      { text: 'fgh', mark: false },
    ]);
    expect(
      segments('abc', [])
        .map((s) => s.text)
        .join(''),
    ).toBe('abc');
  });
});

describe('chunkSpans', () => {
  it('gives the benchmark chunk texts and locates each in the original text', () => {
    const words = Array.from({ length: 1200 }, (_, i) => `w${i}${i % 7 === 0 ? '\n' : ''}`);
    const doc = { doc_id: 'D1', text: words.map((w, i) => (i % 3 ? ` ${w}` : `  ${w}`)).join('') };
    const spans = chunkSpans(doc.doc_id, doc.text);
    const reference = chunkDoc(doc);
    expect(spans.map((s) => s.text)).toEqual(reference.map((c) => c.text));
    expect(spans.map((s) => s.chunk_id)).toEqual(reference.map((c) => c.chunk_id));
    for (const s of spans) expect(doc.text.slice(s.start, s.end).split(/\s+/).join(' ')).toBe(s.text);
    expect(spans[1]!.start).toBeLessThan(spans[0]!.end); // 50-token overlap
  });

  it('keeps a short document as one chunk with its original text', () => {
    const text = 'short  doc\nwith   odd spacing';
    expect(chunkSpans('D2', text)).toEqual([{ chunk_id: 'D2#0', start: 0, end: text.length, tokens: 5, text }]);
  });
});
