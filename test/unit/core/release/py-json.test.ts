import { describe, expect, it } from 'vitest';
import { pyFloat, pyFloatRepr, pyJsonDumps, pyJsonDumpsIndent } from '../../../../src/core/release/py-json.ts';

describe('pyJsonDumps escaping (json.dumps(ensure_ascii=False))', () => {
  it('uses the short escapes for quote, backslash and \\b \\f \\n \\r \\t', () => {
    expect(pyJsonDumps('a"b\\c\bd\fe\nf\rg\th')).toBe('"a\\"b\\\\c\\bd\\fe\\nf\\rg\\th"');
  });

  it('writes other control characters as lowercase \\u00XX, DEL raw', () => {
    expect(pyJsonDumps('\u0000\u0001\u001f\u001b\u007f')).toBe('"\\u0000\\u0001\\u001f\\u001b\u007f"');
  });

  it('keeps non-ASCII, emoji, U+2028/2029 and "/" raw', () => {
    expect(pyJsonDumps('Café — “quoted” 東京 😀 \u2028\u2029 a/b')).toBe('"Café — “quoted” 東京 😀 \u2028\u2029 a/b"');
  });

  it('escapes keys the same way and keeps insertion order', () => {
    expect(pyJsonDumps({ 'k"\n': 1, z: 2, a: 3 })).toBe('{"k\\"\\n": 1, "z": 2, "a": 3}');
  });

  it('uses ", " and ": " separators and Python literals', () => {
    expect(pyJsonDumps({ a: [1, true, false, null, 'x'], b: {}, c: [] })).toBe(
      '{"a": [1, true, false, null, "x"], "b": {}, "c": []}',
    );
  });

  it('skips undefined keys, writes undefined array items as null, rejects non-JSON values', () => {
    expect(pyJsonDumps({ a: undefined, b: 1 })).toBe('{"b": 1}');
    expect(pyJsonDumps([undefined])).toBe('[null]');
    expect(() => pyJsonDumps(new Map())).toThrow(TypeError);
    expect(() => pyJsonDumps(() => 1)).toThrow(TypeError);
  });
});

describe('numbers', () => {
  it('prints integral numbers as Python ints', () => {
    expect(pyJsonDumps([0, -0, 7, -12, 1e21, 2 ** 53])).toBe(
      '[0, 0, 7, -12, 1000000000000000000000, 9007199254740992]',
    );
  });

  it('prints other numbers as Python float repr', () => {
    const cases: [number, string][] = [
      [0.5, '0.5'],
      [0.1 + 0.2, '0.30000000000000004'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1.5e-7, '1.5e-07'],
      [1234567890123456.8, '1234567890123456.8'],
      [1.5e16, '1.5e+16'],
      [-2.5, '-2.5'],
      [5e-324, '5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
      [0.5379811722335331, '0.5379811722335331'],
      [14786.7, '14786.7'],
    ];
    for (const [x, py] of cases) expect(pyFloatRepr(x)).toBe(py);
    expect(pyJsonDumps([Number.NaN, Infinity, -Infinity])).toBe('[NaN, Infinity, -Infinity]');
  });

  it('prints integral floats as Python floats when wrapped', () => {
    expect(pyJsonDumps([pyFloat(1), pyFloat(0), pyFloat(-0), pyFloat(1e16), pyFloat(123)])).toBe(
      '[1.0, 0.0, -0.0, 1e+16, 123.0]',
    );
  });
});

describe('pyJsonDumpsIndent (json.dumps(indent=2))', () => {
  it('lays out nested containers like Python', () => {
    const value = { a: [1, { b: 'x' }], e: {}, f: [], g: { h: null } };
    expect(pyJsonDumpsIndent(value)).toBe(
      '{\n  "a": [\n    1,\n    {\n      "b": "x"\n    }\n  ],\n  "e": {},\n  "f": [],\n  "g": {\n    "h": null\n  }\n}',
    );
    expect(pyJsonDumpsIndent([], 4)).toBe('[]');
    expect(pyJsonDumpsIndent([1, 2], 4)).toBe('[\n    1,\n    2\n]');
  });
});
