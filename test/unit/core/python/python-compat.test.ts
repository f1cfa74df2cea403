import { describe, expect, it } from 'vitest';
import { pyRound } from '../../../../src/core/python/round.ts';
import { PyJsonDecodeError, pyJsonLoads } from '../../../../src/core/python/json-loads.ts';
import { pyReprStr, pyReprStrList } from '../../../../src/core/python/repr.ts';
import { CanonicalScorerCrash, pyInt, pyList, pyTruthy } from '../../../../src/core/python/semantics.ts';

describe('pyReprStr (values printed by CPython 3.11 repr())', () => {
  const cases: [string, string][] = [
    ['a', "'a'"],
    ["b's", '"b\'s"'],
    ['say "hi"', '\'say "hi"\''],
    ['both \' and "', "'both \\' and \"'"],
    ['back\\slash', "'back\\\\slash'"],
    ['tab\tnl\ncr\r', "'tab\\tnl\\ncr\\r'"],
    ['\u0000\u001f\u007f', "'\\x00\\x1f\\x7f'"],
    ['\u0080\u009f\u00a0\u00ad\u00e9', "'\\x80\\x9f\\xa0\\xad\u00e9'"],
    ['\u2028\u200b\u3000\ufeff\ue000', "'\\u2028\\u200b\\u3000\\ufeff\\ue000'"],
    ['\ud83d\ude00\udb40\udc01', "'\ud83d\ude00\\U000e0001'"],
    ['\u00e9\u2014\u00fc \u65e5\u672c', "'\u00e9\u2014\u00fc \u65e5\u672c'"],
    ['\ud800x', "'\\ud800x'"],
    ['\udbff\udfff', "'\\U0010ffff'"],
    ['\u0378', "'\\u0378'"],
  ];
  it.each(cases)('repr(%j) = %s', (input, expected) => {
    expect(pyReprStr(input)).toBe(expected);
  });

  it('joins a list like repr(list): single spaces after commas, [] when empty', () => {
    expect(pyReprStrList(['a', "b's"])).toBe(`['a', "b's"]`);
    expect(pyReprStrList([])).toBe('[]');
  });
});

describe('pyRound (Python round(x, n): exact binary value, ties to even)', () => {
  it.each([
    [0.0078125, 6, 0.007812], // an exact binary tie rounds to even
    [2.675, 2, 2.67], // 2.675 is stored just below the tie
    [0.0000125, 6, 0.000013], // stored just above the tie
    [958.35, 1, 958.4],
    [0.3473000000001, 4, 0.3473],
    [1.00000049999999, 6, 1],
    [0.1 + 0.2, 6, 0.3],
    [123, 4, 123],
  ])('round(%d, %d) = %d', (x, n, expected) => {
    expect(pyRound(x, n)).toBe(expected);
  });

  it('keeps the sign of a result that rounds to zero', () => {
    expect(Object.is(pyRound(-0.0000004, 6), -0)).toBe(true);
  });

  it('differs from Math.round(x * 1e6) / 1e6 where Python does', () => {
    expect(Math.round(0.0078125 * 1e6) / 1e6).toBe(0.007813);
    expect(pyRound(0.0078125, 6)).toBe(0.007812);
  });
});

describe('pyJsonLoads (json.loads with Python value kinds)', () => {
  it('keeps int and float apart and accepts NaN / Infinity like Python', () => {
    const v = pyJsonLoads('{"a": 2, "b": 2.0, "c": 1e2, "d": NaN, "e": -Infinity, "f": [true, null, "x"]}') as Map<
      string,
      unknown
    >;
    expect(v.get('a')).toBe(2n);
    expect(v.get('b')).toBe(2);
    expect(v.get('c')).toBe(100);
    expect(Number.isNaN(v.get('d'))).toBe(true);
    expect(v.get('e')).toBe(-Infinity);
    expect(v.get('f')).toEqual([true, null, 'x']);
  });

  it('keeps the first position and the last value of a duplicated key', () => {
    const v = pyJsonLoads('{"a": 1, "b": 2, "a": 3}') as Map<string, unknown>;
    expect([...v.entries()]).toEqual([
      ['a', 3n],
      ['b', 2n],
    ]);
  });

  it.each(['', 'yes', '{"a": 1} x', '\ufeff{}', '{"a": "line\nbreak"}', "{'a': 1}", '[1,]', '{"a": "\\q"}', '01'])(
    'rejects %j',
    (text) => {
      expect(() => pyJsonLoads(text)).toThrow(PyJsonDecodeError);
    },
  );

  it('decodes escapes and surrogate pairs', () => {
    expect(pyJsonLoads('"\\u00e9\\ud83d\\ude00\\n\\/"')).toBe('é😀\n/');
  });
});

describe('Python truthiness, int() and list()', () => {
  it('treats "false" as truthy and 0, 0.0, "", [], {} and null as falsy', () => {
    expect(pyTruthy('false')).toBe(true);
    expect(pyTruthy(NaN)).toBe(true);
    for (const v of [0n, 0, '', [], new Map(), null, false]) expect(pyTruthy(v)).toBe(false);
  });

  it('converts like int(): strings with spaces and underscores, floats truncate, bools count', () => {
    expect(pyInt(' 2 ')).toBe(2n);
    expect(pyInt('-1_000')).toBe(-1000n);
    expect(pyInt(2.7)).toBe(2n);
    expect(pyInt(-2.7)).toBe(-2n);
    expect(pyInt(true)).toBe(1n);
    for (const bad of ['2.7', 'two', '', [1], new Map(), NaN, Infinity])
      expect(() => pyInt(bad)).toThrow(CanonicalScorerCrash);
  });

  it('lists like list(): a str yields its characters, a dict its keys, a number fails', () => {
    expect(pyList('ab😀')).toEqual(['a', 'b', '😀']);
    expect(pyList(new Map([['k', 1n]]))).toEqual(['k']);
    expect(() => pyList(3n)).toThrow(CanonicalScorerCrash);
    expect(() => pyList(true)).toThrow(CanonicalScorerCrash);
  });
});
