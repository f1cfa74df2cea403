/** The console's CSV and JSON exports: quoting, formula guards, duplicate column names. */
import { describe, expect, it } from 'vitest';
import { resultCsv, resultJson } from '../../../../src/core/explorer/console-export.ts';

const columns = [
  { name: 'a', type: 'Utf8' },
  { name: 'b', type: 'Int32' },
  { name: 'a', type: 'Utf8' },
];

describe('console exports', () => {
  it('CSV quotes commas, quotes and line breaks, leaves nulls empty and defuses formulas', () => {
    const csv = resultCsv(columns, [
      ['x, "y"', -1, null],
      ['line\nbreak', 2, '=HYPERLINK("http://example.invalid")'],
    ]);
    expect(csv).toBe('a,b,a\r\n"x, ""y""",-1,\r\n"line\nbreak",2,"\'=HYPERLINK(""http://example.invalid"")"\r\n');
  });

  it('JSON keeps every value, a repeated column name gets a suffix', () => {
    expect(JSON.parse(resultJson(columns, [['=1', 3, null]]))).toEqual([{ a: '=1', b: 3, a_2: null }]);
  });
});
