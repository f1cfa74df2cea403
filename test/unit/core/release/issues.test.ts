import { describe, expect, it } from 'vitest';
import { IssueList, makeIssue, renderFound } from '../../../../src/core/release/issues.ts';

describe('IssueList', () => {
  it('keeps the first max issues and counts all', () => {
    const list = new IssueList(3);
    for (let i = 1; i <= 10; i++) list.add(makeIssue('f.jsonl', i, 'type', 'x', 'y'));
    expect(list.count).toBe(10);
    expect(list.items.map((i) => i.line)).toEqual([1, 2, 3]);
  });

  it('defaults to 200', () => {
    const list = new IssueList();
    for (let i = 0; i < 250; i++) list.add(makeIssue('f', i, undefined, 'x', 'y'));
    expect(list.items).toHaveLength(200);
    expect(list.count).toBe(250);
  });
});

describe('makeIssue', () => {
  it('writes one sentence with file, line, field, expected and found', () => {
    const issue = makeIssue('full/questions.jsonl', 7, 'type', 'one of single_hop|aggregation', renderFound('foo'));
    expect(issue.message).toBe(
      'full/questions.jsonl line 7, field "type": expected one of single_hop|aggregation, found "foo"',
    );
    expect(issue).toMatchObject({ file: 'full/questions.jsonl', line: 7, field: 'type', found: '"foo"' });
  });

  it('leaves out line and field when there are none', () => {
    const issue = makeIssue('manifest.json', undefined, undefined, 'an object', '3');
    expect(issue.message).toBe('manifest.json: expected an object, found 3');
    expect('line' in issue).toBe(false);
    expect('field' in issue).toBe(false);
  });
});

describe('renderFound', () => {
  it('renders values shortly', () => {
    expect(renderFound(undefined)).toBe('nothing (field missing)');
    expect(renderFound(null)).toBe('null');
    expect(renderFound(3.5)).toBe('3.5');
    expect(renderFound([])).toBe('array of 0 []');
    expect(renderFound(['a', 'b'])).toBe('array of 2 starting "a"');
    expect(renderFound({ a: 1, b: 2 })).toBe('object {a, b}');
  });

  it('truncates long values to about 80 characters on one line', () => {
    const found = renderFound('x'.repeat(10_000));
    expect(found.length).toBeLessThanOrEqual(80);
    expect(found.endsWith('…')).toBe(true);
    expect(renderFound('a\nb')).toBe('"a\\nb"');
  });
});
