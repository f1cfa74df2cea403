/** Python's json.dumps byte format (expected texts printed by CPython 3.11) and the writers built on it. */
import { describe, expect, it } from 'vitest';
import { questionLine, writeJsonl } from '../../../../src/core/release/jsonl.ts';
import {
  pyFloat,
  pyFloatRepr,
  pyJsonDumps,
  pyJsonDumpsIndent,
  pyJsonString,
  pyJsonStringAscii,
} from '../../../../src/core/python/json-dumps.ts';
import type { Task } from '../../../../src/core/release/types.ts';
import { hasShared, releaseText, sharedNote } from '../../../support/shared.ts';

describe('pyJsonDumps escaping (json.dumps(ensure_ascii=False))', () => {
  it('uses the short escapes for quote, backslash and \\b \\f \\n \\r \\t', () => {
    expect(pyJsonDumps('a"b\\c\bd\fe\nf\rg\th')).toBe('"a\\"b\\\\c\\bd\\fe\\nf\\rg\\th"');
  });

  it('writes other control characters as lowercase \\u00XX, DEL raw', () => {
    expect(pyJsonDumps('\u0000\u0001\u001f\u001b\u007f')).toBe('"\\u0000\\u0001\\u001f\\u001b\u007f"');
  });

  it('keeps non-ASCII, emoji, U+2028/2029, lone surrogates and "/" raw', () => {
    expect(pyJsonDumps('Café — “quoted” 東京 😀 \u2028\u2029 \ud800 a/b')).toBe(
      '"Café — “quoted” 東京 😀 \u2028\u2029 \ud800 a/b"',
    );
  });

  it('escapes keys the same way and keeps insertion order', () => {
    expect(pyJsonDumps({ 'k"\n': 1, z: 2, a: 3 })).toBe('{"k\\"\\n": 1, "z": 2, "a": 3}');
  });

  it('uses ", " and ": " separators and Python literals', () => {
    expect(pyJsonDumps({ a: [1, true, false, null, 'x'], b: {}, c: [] })).toBe(
      '{"a": [1, true, false, null, "x"], "b": {}, "c": []}',
    );
  });

  it('pyJsonString is the string form of the same encoder', () => {
    expect(pyJsonString('é "q" \\ \n\t\u0001')).toBe('"é \\"q\\" \\\\ \\n\\t\\u0001"');
  });
});

describe('ensureAscii: true (json.dumps default, scores.json and the judge cache)', () => {
  it('escapes DEL, non-ASCII per UTF-16 unit (astral as a surrogate pair, a lone surrogate as itself)', () => {
    const s = 'é😀\ud800\u007f\u001f"\\ ~';
    expect(pyJsonDumps(s, { ensureAscii: true })).toBe('"\\u00e9\\ud83d\\ude00\\ud800\\u007f\\u001f\\"\\\\ ~"');
    expect(pyJsonDumps(s)).toBe('"é😀\ud800\u007f\\u001f\\"\\\\ ~"');
    expect(pyJsonStringAscii(s)).toBe(pyJsonDumps(s, { ensureAscii: true }));
  });

  it('uses the short escapes for control characters too', () => {
    expect(pyJsonStringAscii('\u0000\u001f\b\f\r\t\n\\')).toBe('"\\u0000\\u001f\\b\\f\\r\\t\\n\\\\"');
  });

  it('escapes keys as well', () => {
    expect(pyJsonDumps(new Map([['ü', 'ß']]), { ensureAscii: true })).toBe('{"\\u00fc": "\\u00df"}');
  });
});

describe('numbers', () => {
  const mixed = [-0, 0, 1, 1e16, 1e21, 1e-7, 1e-5, 0.5, Number.NaN, Infinity, -Infinity, 10n];

  it('int-if-integral (default): integral numbers are Python ints, others float repr', () => {
    expect(pyJsonDumps(mixed)).toBe(
      '[0, 0, 1, 10000000000000000, 1000000000000000000000, 1e-07, 1e-05, 0.5, NaN, Infinity, -Infinity, 10]',
    );
    expect(pyJsonDumps([7, -12, 2 ** 53])).toBe('[7, -12, 9007199254740992]');
  });

  it("'float': every number is a Python float, bigint an int", () => {
    expect(pyJsonDumps(mixed, { numbers: 'float' })).toBe(
      '[-0.0, 0.0, 1.0, 1e+16, 1e+21, 1e-07, 1e-05, 0.5, NaN, Infinity, -Infinity, 10]',
    );
  });

  it('prints integral floats as Python floats when wrapped, in either style', () => {
    const wrapped = [pyFloat(1), pyFloat(0), pyFloat(-0), pyFloat(1e16), pyFloat(123), pyFloat(Number.NaN)];
    expect(pyJsonDumps(wrapped)).toBe('[1.0, 0.0, -0.0, 1e+16, 123.0, NaN]');
    expect(pyJsonDumps(wrapped, { numbers: 'float' })).toBe('[1.0, 0.0, -0.0, 1e+16, 123.0, NaN]');
  });
});

describe('pyFloatRepr (Python repr(float))', () => {
  it.each([
    [0.5, '0.5'],
    [0.1 + 0.2, '0.30000000000000004'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [1e15, '1000000000000000.0'],
    [1234567890123456.8, '1234567890123456.8'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [12345678901234568, '1.2345678901234568e+16'],
    [0, '0.0'],
    [-0, '-0.0'],
    [123, '123.0'],
    [-2.5, '-2.5'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [0.5379811722335331, '0.5379811722335331'],
    [14786.7, '14786.7'],
  ])('repr(%d) = %s', (x, expected) => {
    expect(pyFloatRepr(x)).toBe(expected);
  });

  it('writes non-finite values as repr does (json.dumps writes NaN / Infinity instead)', () => {
    expect([Number.NaN, Infinity, -Infinity].map(pyFloatRepr)).toEqual(['nan', 'inf', '-inf']);
  });
});

describe('containers, key order and undefined', () => {
  it('writes a Map in insertion order, where an object lists integer-like keys first', () => {
    expect(pyJsonDumps({ b: 1, '10': 2 })).toBe('{"10": 2, "b": 1}');
    expect(
      pyJsonDumps(
        new Map([
          ['b', 1],
          ['10', 2],
        ]),
      ),
    ).toBe('{"b": 1, "10": 2}');
    expect(pyJsonDumps(new Map())).toBe('{}');
  });

  it('skips undefined object and Map values, writes undefined array items as null', () => {
    expect(pyJsonDumps({ a: undefined, b: 1 })).toBe('{"b": 1}');
    expect(pyJsonDumps({ a: undefined })).toBe('{}');
    expect(pyJsonDumps(new Map([['a', undefined]]))).toBe('{}');
    expect(pyJsonDumps([undefined])).toBe('[null]');
  });

  it('rejects values Python could not have written', () => {
    expect(() => pyJsonDumps(undefined)).toThrow(TypeError);
    expect(() => pyJsonDumps(() => 1)).toThrow(TypeError);
    expect(() => pyJsonDumps(new Date(0))).toThrow(TypeError);
    expect(() => pyJsonDumps(new (class Point {})())).toThrow(TypeError);
    expect(() => pyJsonDumps(new Map([[1, 'x']]))).toThrow(/Map key must be a string/);
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(() => pyJsonDumps(cycle)).toThrow(RangeError);
  });
});

describe('indent (json.dumps(indent=N))', () => {
  it('lays out nested containers like Python', () => {
    const value = { a: [1, { b: 'x' }], e: {}, f: [], g: { h: null } };
    expect(pyJsonDumpsIndent(value)).toBe(
      '{\n  "a": [\n    1,\n    {\n      "b": "x"\n    }\n  ],\n  "e": {},\n  "f": [],\n  "g": {\n    "h": null\n  }\n}',
    );
    expect(pyJsonDumps(value, { indent: 2 })).toBe(pyJsonDumpsIndent(value));
    expect(pyJsonDumpsIndent([], 4)).toBe('[]');
    expect(pyJsonDumpsIndent([1, 2], 4)).toBe('[\n    1,\n    2\n]');
  });

  it('indent 0 and 1 as Python writes them', () => {
    expect(pyJsonDumps({ a: [1, {}], b: [] }, { indent: 0 })).toBe('{\n"a": [\n1,\n{}\n],\n"b": []\n}');
    expect(pyJsonDumps(new Map([['k', 'é']]), { indent: 1, ensureAscii: true })).toBe('{\n "k": "\\u00e9"\n}');
    expect(() => pyJsonDumps([], { indent: -1 })).toThrow(RangeError);
  });

  it('writes scores.json values (float numbers, bigint ints, ASCII escapes) like Python', () => {
    const value = new Map<string, unknown>(Object.entries({ a: 0, b: 1n, c: [0.5, 1], d: {}, e: [], f: 'é"\n\u007f' }));
    expect(pyJsonDumps(value, { indent: 2, ensureAscii: true, numbers: 'float' })).toBe(
      '{\n  "a": 0.0,\n  "b": 1,\n  "c": [\n    0.5,\n    1.0\n  ],\n  "d": {},\n  "e": [],\n  "f": "\\u00e9\\"\\n\\u007f"\n}',
    );
  });
});

describe('JSONL writers (release/jsonl.ts)', () => {
  it('writeJsonl ends every line, the last too, with "\\n"', () => {
    expect(writeJsonl([{ a: 1 }, { b: 2 }])).toBe('{"a": 1}\n{"b": 2}\n');
    expect(writeJsonl([])).toBe('');
  });

  it('questionLine keeps task_id, type, question in that order, raw UTF-8', () => {
    const task = { question: 'Qué "dijo"?\t', type: 'single_hop', task_id: 'x', answer: 'y' } as unknown as Task;
    expect(questionLine(task)).toBe('{"task_id": "x", "type": "single_hop", "question": "Qué \\"dijo\\"?\\t"}\n');
  });
});

describe.skipIf(!hasShared)(`real v1.0 files re-written byte for byte (${sharedNote})`, () => {
  const rows = (text: string): unknown[] =>
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown);

  it('dev tasks and both questions files', () => {
    const devTasks = releaseText('dev/tasks.jsonl');
    expect(writeJsonl(rows(devTasks))).toBe(devTasks);
    expect((rows(devTasks) as Task[]).map(questionLine).join('')).toBe(releaseText('dev/questions.jsonl'));
    const fullQuestions = releaseText('full/questions.jsonl');
    expect(writeJsonl(rows(fullQuestions))).toBe(fullQuestions);
  });

  it('the manifest (indent=2)', () => {
    const manifest = releaseText('manifest.json');
    expect(pyJsonDumpsIndent(JSON.parse(manifest))).toBe(manifest);
  });
});
