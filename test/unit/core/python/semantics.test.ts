import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PY_JSON_MAX_NESTING, PyJsonLimitError, pyJsonLoads } from '../../../../src/core/python/json-loads.ts';
import type { PyValue } from '../../../../src/core/python/json-loads.ts';
import { CanonicalScorerCrash, pyAdd, pyInt, pyStrip } from '../../../../src/core/python/semantics.ts';
import { pyStr } from '../../../../src/core/python/str.ts';

type Outcome = { ok: string } | { error: string };
const fixture = JSON.parse(
  readFileSync(new URL('../../../fixtures/python-semantics/cases.json', import.meta.url), 'utf8'),
) as { python: string; int: [string, Outcome][]; str: [string, string][]; strip: [string, string][] };

function outcome(f: () => PyValue | bigint): Outcome {
  try {
    return { ok: String(f()) };
  } catch (error) {
    if (error instanceof CanonicalScorerCrash) return { error: error.pythonError };
    throw error;
  }
}

describe(`Python semantics equal CPython ${fixture.python} (test/fixtures/python-semantics)`, () => {
  it(`int() of ${fixture.int.length} strings and JSON values: Unicode digits, whitespace, underscores, limits`, () => {
    const jsonInputs = new Set(['2.7', '-2.7', '1e300', 'true', 'NaN', 'Infinity', '[1]', '{}', 'null']);
    for (const [input, expected] of fixture.int) {
      const value = jsonInputs.has(input) ? pyJsonLoads(input) : input;
      expect(
        outcome(() => pyInt(value!)),
        JSON.stringify(input).slice(0, 60),
      ).toEqual(expected);
    }
  });

  it('reads the digits the issue names: "١٢", "１２", "𝟓"', () => {
    expect(pyInt('١٢')).toBe(12n);
    expect(pyInt('１２')).toBe(12n);
    expect(pyInt('𝟓')).toBe(5n);
    // U+001C is whitespace to str.strip() but not to int()
    expect(() => pyInt('\u001c5')).toThrow(CanonicalScorerCrash);
  });

  it('str() of json.loads values (floats by repr, containers by repr of their items)', () => {
    for (const [json, expected] of fixture.str) expect(pyStr(pyJsonLoads(json)), json).toBe(expected);
  });

  it('str.strip() removes exactly the str.isspace() characters', () => {
    for (const [input, expected] of fixture.strip) expect(pyStrip(input)).toBe(expected);
  });

  it('adds JSON values like Python +, with its TypeErrors', () => {
    expect(pyAdd(2n, true)).toBe(3n);
    expect(pyAdd(2n, 0.5)).toBe(2.5);
    expect(pyAdd('a', 'b')).toBe('ab');
    expect(() => pyAdd(null, 3n)).toThrow("unsupported operand type(s) for +: 'NoneType' and 'int'");
    expect(() => pyAdd('5', 0n)).toThrow('can only concatenate str (not "int") to str');
  });
});

describe('json.loads limits of CPython 3.12', () => {
  const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  it(`reads ${PY_JSON_MAX_NESTING} nested containers and raises RecursionError (not JSONDecodeError) beyond`, () => {
    expect(() => pyJsonLoads(nested(PY_JSON_MAX_NESTING))).not.toThrow();
    expect(() => pyJsonLoads(nested(PY_JSON_MAX_NESTING + 1))).toThrow(PyJsonLimitError);
    expect(() => pyJsonLoads(nested(100_000))).toThrow(/RecursionError: maximum recursion depth exceeded/);
  });

  it('raises ValueError for an int literal over 4,300 digits', () => {
    expect(pyJsonLoads('9'.repeat(4300))).toBe(BigInt('9'.repeat(4300)));
    expect(() => pyJsonLoads(`-${'9'.repeat(4301)}`)).toThrow(
      'ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits',
    );
  });
});
