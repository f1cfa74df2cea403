import { describe, expect, it } from 'vitest';
import { IssueList } from '../../../../src/core/release/issues.ts';
import {
  parseJsonFile,
  parseJsonFileBytes,
  parseJsonl,
  parseJsonlBytes,
  writeJsonl,
} from '../../../../src/core/release/jsonl.ts';
import { manifestValidator, questionValidator } from '../../../../src/core/release/schemas.ts';

const ID = (i: number) => `371ea2e0-1e09-4239-89a1-${String(i).padStart(12, '0')}`;
const line = (i: number, type = 'single_hop') => JSON.stringify({ task_id: ID(i), type, question: `Q${i}?` });
const lines = (n: number) => Array.from({ length: n }, (_, i) => line(i + 1));

describe('parseJsonl', () => {
  it('reads valid lines with their line numbers', () => {
    const r = parseJsonl(`${lines(3).join('\n')}\n`, 'q.jsonl', questionValidator);
    expect(r.rows.map((q) => q.question)).toEqual(['Q1?', 'Q2?', 'Q3?']);
    expect(r.lines).toEqual([1, 2, 3]);
    expect(r.totalLines).toBe(3);
    expect(r.issues.count).toBe(0);
  });

  it('reports invalid JSON on line 7 as line 7 and goes on', () => {
    const rows = lines(9);
    rows[6] = '{"task_id": "x", ';
    const r = parseJsonl(rows.join('\n'), 'full/questions.jsonl', questionValidator);
    expect(r.rows).toHaveLength(8);
    expect(r.lines).toEqual([1, 2, 3, 4, 5, 6, 8, 9]);
    expect(r.totalLines).toBe(9);
    expect(r.issues.count).toBe(1);
    const issue = r.issues.items[0]!;
    expect(issue.line).toBe(7);
    expect(issue.file).toBe('full/questions.jsonl');
    expect(issue.expected).toBe('valid JSON');
    expect(issue.message).toMatch(/^full\/questions\.jsonl line 7: invalid JSON \(.+\)$/);
  });

  it('ends lines where Python and the predictions reader do: \\n, \\r\\n and a lone \\r', () => {
    const r = parseJsonl(`${line(1)}\r${line(2)}\r\n${line(3)}\n{bad\r${line(5)}`, 'q.jsonl', questionValidator);
    expect(r.lines).toEqual([1, 2, 3, 5]);
    expect(r.issues.items.map((i) => i.line)).toEqual([4]);
    // U+2028 does not end a line in Python's file iteration (str.splitlines() would end it there).
    const odd = JSON.stringify({ task_id: ID(1), type: 'single_hop', question: 'a\u2028b?' });
    const inside = parseJsonl(`${odd}\n${line(2)}`, 'q.jsonl', questionValidator);
    expect(inside.issues.items).toEqual([]);
    expect(inside.rows[0]?.question).toBe('a\u2028b?');
    expect(inside.lines).toEqual([1, 2]);
  });

  it('reports a schema error with line and field', () => {
    const rows = lines(7);
    rows[6] = line(7, 'foo');
    const r = parseJsonl(rows.join('\n'), 'full/questions.jsonl', questionValidator);
    expect(r.issues.items[0]?.message).toBe(
      'full/questions.jsonl line 7, field "type": expected one of single_hop|aggregation|timeline|dossier|unanswerable|false_premise, found "foo"',
    );
  });

  it('accepts a UTF-8 BOM and CRLF line ends', () => {
    const r = parseJsonl(`\uFEFF${lines(3).join('\r\n')}\r\n`, 'q.jsonl', questionValidator);
    expect(r.issues.items).toEqual([]);
    expect(r.rows).toHaveLength(3);
    expect(r.rows[2]?.question).toBe('Q3?');
  });

  it('skips blank lines, as the Python reader does, keeping physical line numbers', () => {
    const r = parseJsonl(`${line(1)}\n\n   \n${line(2)}\n\n`, 'q.jsonl', questionValidator);
    expect(r.issues.count).toBe(0);
    expect(r.lines).toEqual([1, 4]);
    expect(r.totalLines).toBe(2);
  });

  it('caps kept issues but counts them all', () => {
    const text = Array.from({ length: 500 }, () => 'not json').join('\n');
    const r = parseJsonl(text, 'q.jsonl', questionValidator, { maxIssues: 10 });
    expect(r.issues.items).toHaveLength(10);
    expect(r.issues.count).toBe(500);
    expect(r.issues.items[9]?.line).toBe(10);
  });

  it('adds to a given IssueList', () => {
    const issues = new IssueList(5);
    const r = parseJsonl('[]\n', 'q.jsonl', questionValidator, issues);
    expect(r.issues).toBe(issues);
    expect(issues.items[0]?.expected).toBe('an object');
  });

  it('never throws on odd input', () => {
    for (const text of ['', '\n', '\uFEFF', 'null', '"x"', '{"__proto__": {"a": 1}}', '1e999', '\u2028']) {
      expect(() => parseJsonl(text, 'q.jsonl', questionValidator)).not.toThrow();
    }
  });
});

describe('parseJsonlBytes', () => {
  const enc = new TextEncoder();
  it('decodes UTF-8 (and drops a BOM)', () => {
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...enc.encode(`${JSON.stringify({ task_id: ID(1), type: 'single_hop', question: 'Café ☕?' })}\n`),
    ]);
    const r = parseJsonlBytes(bytes, 'q.jsonl', questionValidator);
    expect(r.issues.items).toEqual([]);
    expect(r.rows[0]?.question).toBe('Café ☕?');
  });

  it('reports invalid UTF-8 on its line and reads the other lines', () => {
    const good = enc.encode(`${line(1)}\n`);
    const bad = new Uint8Array([...enc.encode('{"task_id": "'), 0xc3, 0x28, ...enc.encode('"}\n')]);
    const tail = enc.encode(`${line(3)}\n`);
    const bytes = new Uint8Array([...good, ...bad, ...tail]);
    const r = parseJsonlBytes(bytes, 'q.jsonl', questionValidator);
    expect(r.lines).toEqual([1, 3]);
    expect(r.issues.count).toBe(1);
    const issue = r.issues.items[0]!;
    expect(issue.line).toBe(2);
    expect(issue.expected).toBe('UTF-8 text');
    expect(issue.found).toBe(`byte 0xc3 at byte offset ${good.length + 13}`);
  });

  it('numbers lines ended by a lone \\r the same way when a line is not UTF-8', () => {
    const bad = new Uint8Array([...enc.encode('{"task_id": "'), 0xc3, 0x28, ...enc.encode('"}')]);
    const bytes = new Uint8Array([...enc.encode(`${line(1)}\r`), ...bad, ...enc.encode(`\r\n${line(3)}\r${line(4)}`)]);
    const r = parseJsonlBytes(bytes, 'q.jsonl', questionValidator);
    expect(r.lines).toEqual([1, 3, 4]);
    expect(r.issues.items.map((i) => i.line)).toEqual([2]);
  });
});

describe('parseJsonFile', () => {
  const manifest = {
    version: 'v1.0',
    splits: { dev: { n_tasks: 1, by_type: { single_hop: 1 }, questions_sha256: 'a'.repeat(64) } },
  };

  it('returns the validated value', () => {
    const issues = new IssueList();
    expect(parseJsonFile(JSON.stringify(manifest, null, 2), 'manifest.json', manifestValidator, issues)).toEqual(
      manifest,
    );
    expect(issues.count).toBe(0);
  });

  it('reports a syntax error with its line when the engine gives a position', () => {
    const issues = new IssueList();
    const text = '{\n  "version": "v1.0",\n  "splits": {\n    "dev": \n  }\n}';
    expect(parseJsonFile(text, 'manifest.json', manifestValidator, issues)).toBeUndefined();
    expect(issues.count).toBe(1);
    expect(issues.items[0]?.message).toMatch(/^manifest\.json( line \d+)?: invalid JSON \(/);
  });

  it('reports schema issues without a line', () => {
    const issues = new IssueList();
    parseJsonFile('{"version": 1, "splits": {}}', 'manifest.json', manifestValidator, issues);
    expect(issues.items.map((i) => i.field)).toEqual(['version', 'splits']);
    expect(issues.items[0]?.line).toBeUndefined();
  });

  it('accepts a BOM and reports invalid UTF-8 bytes', () => {
    const issues = new IssueList();
    expect(
      parseJsonFile(`\uFEFF${JSON.stringify(manifest)}`, 'manifest.json', manifestValidator, issues),
    ).toBeDefined();
    expect(
      parseJsonFileBytes(new Uint8Array([0x7b, 0xff, 0x7d]), 'manifest.json', manifestValidator, issues),
    ).toBeUndefined();
    expect(issues.items[0]?.message).toBe('manifest.json: not valid UTF-8 (byte 0xff at byte offset 1)');
  });
});

describe('writeJsonl', () => {
  it('writes one Python-style line per row, newline after the last', () => {
    expect(writeJsonl([{ a: 1, b: [1, 2] }, { c: null }])).toBe('{"a": 1, "b": [1, 2]}\n{"c": null}\n');
    expect(writeJsonl([])).toBe('');
  });
});
