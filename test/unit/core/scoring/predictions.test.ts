import { describe, expect, it } from 'vitest';
import { parsePredictions, parsePredictionsStream } from '../../../../src/core/scoring/predictions.ts';
import { task } from './fixtures.ts';

const tasks = [task('a', 'single_hop'), task('b', 'single_hop')];
const enc = new TextEncoder();

async function* chunked(text: string, size: number): AsyncIterable<Uint8Array> {
  const bytes = enc.encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

describe('predictions.jsonl validation', () => {
  it('accepts CRLF and lone CR line ends and blank lines, and normalises fields (spec 2.1)', () => {
    const text =
      '{"task_id": "a", "answer": null, "citations": ["x", "x", "y"], "retrieved": ["r1", "r2", "r1", "r3"]}\r\n\r\n  \r{"task_id": "b", "answer": "B"}\r\n';
    const r = parsePredictions(text, tasks);
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.byTaskId.get('a')).toEqual({
      task_id: 'a',
      line: 1,
      answer: '',
      citations: ['x', 'x', 'y'],
      retrieved: ['r1', 'r2', 'r3'],
    });
    expect(r.byTaskId.get('b')!.line).toBe(4);
  });

  it('reads a missing answer as "" only when the answer key is not required', () => {
    const text = '{"task_id": "a"}\n{"task_id": "b", "answer": "x"}\n';
    expect(parsePredictions(text, tasks, { requireAnswerKey: false }).ok).toBe(true);
    const strict = parsePredictions(text, tasks);
    expect(strict.issues[0]).toMatchObject({ code: 'missing_field', line: 1, field: 'answer' });
  });

  it('reports every bad line with its line, field, what was expected and what was found', () => {
    const lines = [
      '{"task_id": "a", "answer": 5}',
      'not json',
      '[1, 2]',
      '{"task_id": 7, "answer": "x"}',
      '{"task_id": "b", "answer": "x", "citations": "d1", "retrieved": ["ok", 3]}',
      `{"task_id": "b", "answer": "x", "citations": ${JSON.stringify(Array.from({ length: 21 }, (_, i) => `d${i}`))}}`,
      '{"task_id": "b", "answer": "x", "usage": [1], "cost_usd": "0.1"}',
      '{"task_id": "b", "answer": "x", "usage": {"input_tokens": null}}',
      '{"task_id": "b", "answer": "\\ud800"}',
    ];
    const r = parsePredictions(lines.join('\n'), tasks);
    const found = r.issues.map((i) => [i.code, i.line, i.field]);
    expect(found).toEqual([
      ['wrong_type', 1, 'answer'],
      ['invalid_json', 2, null],
      ['not_an_object', 3, null],
      ['wrong_type', 4, 'task_id'],
      ['wrong_type', 5, 'citations'],
      ['wrong_type', 5, 'retrieved[1]'],
      ['too_many_entries', 6, 'citations'],
      ['duplicate_task_id', 6, 'task_id'],
      ['wrong_type', 7, 'usage'],
      ['wrong_type', 7, 'cost_usd'],
      ['duplicate_task_id', 7, 'task_id'],
      ['wrong_type', 8, 'usage.input_tokens'],
      ['duplicate_task_id', 8, 'task_id'],
      ['invalid_text', 9, 'answer'],
      ['duplicate_task_id', 9, 'task_id'],
    ]);
    expect(r.issues[0]!.message).toBe('line 1, field answer: expected a string or null, found integer 5');
    expect(r.issues[6]!.message).toBe(
      'line 6, field citations: expected at most 20 entries (validation caps it at 20), found 21',
    );
    // "a" was never validly predicted, but it did appear (line 1), so it is not reported missing
    expect(r.summary).toEqual(["predictions contain 1 duplicate task_id(s), e.g. ['b']"]);
  });

  it('caps stored problems but counts them all', () => {
    const text = Array.from({ length: 500 }, () => 'oops').join('\n');
    const r = parsePredictions(text, tasks, { maxIssues: 200 });
    expect(r.issues.length).toBe(200);
    expect(r.issueCount).toBe(502); // 500 bad lines + 2 missing tasks
  });

  it('keeps the int/float kind of telemetry sums like Python (7504 vs 7504.0; 0 vs 0.0)', () => {
    const intText =
      '{"task_id": "a", "answer": "x", "usage": {"input_tokens": 10, "output_tokens": 5}, "cost_usd": 0}\n{"task_id": "b", "answer": "y", "cost_usd": 0}\n';
    const r1 = parsePredictions(intText, tasks);
    expect(r1.telemetry).toEqual({ tokens: 15n, cost: 0n });
    const floatText =
      '{"task_id": "a", "answer": "x", "usage": {"input_tokens": 10.0, "output_tokens": 5}, "cost_usd": 0.0}\n{"task_id": "b", "answer": "y", "usage": {}}\n';
    const r2 = parsePredictions(floatText, tasks);
    expect(r2.telemetry).toEqual({ tokens: 15, cost: 0 });
  });

  it('gives the same result from a byte stream cut at every awkward place (CRLF split, multi-byte characters)', async () => {
    const text = '{"task_id": "a", "answer": "é😀 ünï"}\r\n{"task_id": "b", "answer": "日本"}\r\n';
    const whole = parsePredictions(text, tasks);
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const streamed = await parsePredictionsStream(chunked(text, size), tasks);
      expect(streamed.byTaskId).toEqual(whole.byTaskId);
      expect(streamed.issues).toEqual([]);
    }
  });

  it('rejects an over-long line without buffering it', async () => {
    const text = `{"task_id": "a", "answer": "${'x'.repeat(5000)}"}\n{"task_id": "b", "answer": "y"}\n`;
    const r = await parsePredictionsStream(chunked(text, 100), tasks, { maxLineChars: 1000 });
    expect(r.issues[0]).toMatchObject({ code: 'line_too_long', line: 1 });
    expect(r.byTaskId.has('b')).toBe(true);
  });

  it('streams a 100 MB file with bounded memory', async () => {
    const line = `{"task_id": "a", "answer": "${'z'.repeat(1000)}", "citations": ["d1"]}\n`;
    const lineBytes = enc.encode(line);
    const target = 100 * 1024 * 1024;
    let produced = 0;
    async function* big(): AsyncIterable<Uint8Array> {
      const block = new Uint8Array(lineBytes.length * 256);
      for (let i = 0; i < 256; i++) block.set(lineBytes, i * lineBytes.length);
      while (produced < target) {
        produced += block.length;
        yield block;
      }
    }
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 5);
    const r = await parsePredictionsStream(big(), tasks);
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    expect(produced).toBeGreaterThanOrEqual(target);
    expect(r.issueCount).toBeGreaterThan(90_000); // every repeated line is a duplicate, plus task b missing
    expect(r.issues.length).toBe(200);
    expect(peak - before).toBeLessThan(80 * 1024 * 1024);
  }, 60_000);
});

describe('predictions as score.py reads them (mode "score") and as validate refuses them', () => {
  const line = (fields: string) => `{"task_id": "a", ${fields}}\n{"task_id": "b", "answer": "y"}\n`;

  it('scores what validation refuses, naming line and field, and says what the scorer does', () => {
    const text = line('"answer": 1995, "citations": [1, null], "retrieved": "ab", "cost_usd": true');
    const scored = parsePredictions(text, tasks, { mode: 'score' });
    expect(scored.ok).toBe(true);
    expect(scored.byTaskId.get('a')).toMatchObject({ answer: '1995', citations: ['1', 'None'], retrieved: ['a', 'b'] });
    expect(scored.telemetry.cost).toBe(1n);
    expect(scored.warnings.map((w) => [w.line, w.field])).toEqual([
      [1, 'answer'],
      [1, 'citations[0]'],
      [1, 'citations[1]'],
      [1, 'retrieved'],
      [1, 'cost_usd'],
    ]);
    expect(scored.warnings[0]!.message).toBe(
      'line 1, field answer: expected a string or null, found integer 1995; score.py reads it as the string "1995" (str(answer))',
    );
    const validated = parsePredictions(text, tasks, { mode: 'validate' });
    expect(validated.ok).toBe(false);
    expect(validated.issues.map((i) => i.field)).toEqual([
      'answer',
      'citations[0]',
      'citations[1]',
      'retrieved',
      'cost_usd',
    ]);
    expect(validated.warnings).toEqual([]);
  });

  it('reads 0 and false as empty answers and skips a falsy usage, but stops where Python raises', () => {
    const empty = parsePredictions(line('"answer": false, "usage": [], "citations": 0'), tasks, { mode: 'score' });
    expect(empty.ok).toBe(true);
    expect(empty.byTaskId.get('a')).toMatchObject({ answer: '', citations: [] });
    expect(empty.telemetry.tokens).toBeNull();
    const crash = parsePredictions(line('"answer": "x", "citations": 5, "usage": {"input_tokens": null}'), tasks, {
      mode: 'score',
    });
    expect(crash.ok).toBe(false);
    expect(crash.issues.map((i) => [i.code, i.field])).toEqual([
      ['canonical_crash', 'citations'],
      ['canonical_crash', 'usage.input_tokens'],
    ]);
    expect(crash.issues[0]!.message).toContain(
      "the canonical scorer would stop here with TypeError: 'int' object is not iterable",
    );
    expect(crash.issues[1]!.message).toContain("TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'");
  });

  it('sums token counts beyond 2^53 exactly, as Python ints', () => {
    const text =
      '{"task_id": "a", "answer": "x", "usage": {"input_tokens": 36028797019007400, "output_tokens": 5}}\n' +
      '{"task_id": "b", "answer": "y", "usage": {"input_tokens": 18446744073709551617, "output_tokens": -18446744073709551616}}\n';
    const r = parsePredictions(text, tasks, { mode: 'score' });
    expect(r.telemetry.tokens).toBe(36028797019007406n);
    // a double sum would end in ...408
    expect(BigInt(36028797019007400 + 5 + 1)).toBe(36028797019007408n);
  });

  it('refuses a BOM (plain UTF-8 reading makes json.loads stop at line 1) but still reads the line', () => {
    const r = parsePredictions(`\ufeff${line('"answer": "x"')}`, tasks, { mode: 'score' });
    expect(r.ok).toBe(false);
    expect(r.issues.map((i) => [i.line, i.code])).toEqual([[1, 'invalid_json']]);
    expect(r.issues[0]!.message).toContain('JSONDecodeError: Unexpected UTF-8 BOM');
  });

  it('accepts lines ending in NBSP or U+001C and lines made only of such whitespace, with a warning', () => {
    const text = '{"task_id": "a", "answer": "x"}\u00a0\n\u00a0\u001c\n\u2028{"task_id": "b", "answer": "y"}\u001c\n';
    for (const mode of ['score', 'validate'] as const) {
      const r = parsePredictions(text, tasks, { mode });
      expect(r.ok).toBe(true);
      expect(r.warnings.map((w) => [w.line, w.code])).toEqual([
        [1, 'odd_whitespace'],
        [2, 'odd_whitespace'],
        [3, 'odd_whitespace'],
      ]);
    }
    // U+001C inside the JSON is not whitespace to json.loads, nor a line end to Python's file reader
    const inside = parsePredictions('{"task_id": "a",\u001c"answer": "x"}\n{"task_id": "b", "answer": "y"}\n', tasks);
    expect(inside.issues[0]).toMatchObject({ line: 1, code: 'invalid_json' });
  });

  it('stops at invalid UTF-8 in a stream, naming the line and byte offset', async () => {
    const bytes = new Uint8Array([
      ...enc.encode('{"task_id": "a", "answer": "x"}\n{"task_id": "b", "answer": "'),
      0xff,
      ...enc.encode('"}\n'),
    ]);
    const r = await parsePredictionsStream(
      (async function* () {
        yield bytes;
      })(),
      tasks,
      { mode: 'score' },
    );
    expect(r.ok).toBe(false);
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]).toMatchObject({ code: 'invalid_utf8', line: 2 });
    expect(r.issues[0]!.message).toContain('byte 0xff at byte offset 60');
  });
});
