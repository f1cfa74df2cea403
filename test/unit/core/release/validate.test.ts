import { describe, expect, it } from 'vitest';
import { IssueList } from '../../../../src/core/release/issues.ts';
import {
  arrayOf,
  bool,
  docId,
  DOC_ID_RE,
  int,
  nonEmptyString,
  nul,
  nullable,
  num,
  object,
  oneOf,
  optional,
  recordOf,
  refine,
  report,
  sha256HexString,
  str,
  tuple,
  uuid,
  type Validator,
} from '../../../../src/core/release/validate.ts';

function run<T>(v: Validator<T>, value: unknown) {
  const issues = new IssueList();
  const result = v(value, { file: 'f.jsonl', line: 3 }, issues);
  return { result, issues: issues.items, fields: issues.items.map((i) => i.field) };
}

describe('leaves', () => {
  it('accept their values and return them unchanged', () => {
    expect(run(str(), 'a').result).toBe('a');
    expect(run(num(), 1.5).result).toBe(1.5);
    expect(run(int({ min: 0 }), 0).result).toBe(0);
    expect(run(bool, false).result).toBe(false);
    expect(run(nul, null).result).toBe(null);
    expect(run(nullable(str()), null).result).toBe(null);
    expect(run(oneOf(['a', 'b']), 'b').result).toBe('b');
  });

  it('reject wrong types with expected and found', () => {
    const r = run(str(), 3);
    expect(r.result).toBeUndefined();
    expect(r.issues[0]).toMatchObject({ file: 'f.jsonl', line: 3, expected: 'a string', found: '3' });
    expect(run(int(), 1.5).issues[0]?.expected).toBe('an integer');
    expect(run(int({ min: 1, max: 5 }), 6).issues[0]?.expected).toBe('an integer between 1 and 5');
    expect(run(num(), Number.NaN).result).toBeUndefined();
    expect(run(bool, 'true').result).toBeUndefined();
    expect(run(nonEmptyString, '').result).toBeUndefined();
    expect(run(oneOf(['a', 'b']), 'c').issues[0]?.message).toBe('f.jsonl line 3: expected one of a|b, found "c"');
  });

  it('check identifier shapes', () => {
    expect(run(docId, 'EFTA00432308').result).toBe('EFTA00432308');
    expect(run(docId, 'SMPL00000017').result).toBe('SMPL00000017');
    for (const bad of [
      'EFTA0043230',
      'EFTA004323088',
      'efta00432308',
      'EFTA0043230x',
      'DOC00432308',
      'EFT400432308',
      12,
    ]) {
      expect(run(docId, bad).result).toBeUndefined();
      expect(DOC_ID_RE.test(String(bad))).toBe(false);
    }
    expect(run(uuid, '371ea2e0-1e09-4239-89a1-2586a3faa47c').result).toBeDefined();
    expect(run(uuid, '371ea2e0-1e09-4239-89a1').result).toBeUndefined();
    expect(run(sha256HexString, 'a'.repeat(64)).result).toBeDefined();
    expect(run(sha256HexString, 'A'.repeat(64)).result).toBeUndefined();
    expect(run(sha256HexString, 'a'.repeat(63)).result).toBeUndefined();
  });
});

describe('containers', () => {
  const item = object({ item: nonEmptyString, doc_ids: arrayOf(docId) });
  const task = object({ task_id: str(), items: arrayOf(item), note: optional(str()) });

  it('name the path of a bad nested field', () => {
    const r = run(task, {
      task_id: 'x',
      items: [
        { item: 'a', doc_ids: [] },
        { item: 'b', doc_ids: [] },
        { item: 'c', doc_ids: ['EFTA00000001', 'nope'] },
      ],
    });
    expect(r.result).toBeUndefined();
    expect(r.fields).toEqual(['items[2].doc_ids[1]']);
    expect(r.issues[0]?.message).toBe(
      'f.jsonl line 3, field "items[2].doc_ids[1]": expected a doc id like EFTA00432308 (4 capital letters + 8 digits), found "nope"',
    );
  });

  it('report missing required fields and accept missing optional ones', () => {
    const r = run(task, { items: [] });
    expect(r.fields).toEqual(['task_id']);
    expect(r.issues[0]?.found).toBe('nothing (field missing)');
    expect(run(task, { task_id: 'x', items: [] }).result).toBeDefined();
    expect(run(task, { task_id: 'x', items: [], note: 3 }).fields).toEqual(['note']);
  });

  it('keep unknown keys and key order unless strict', () => {
    const value = { extra: 1, task_id: 'x', items: [] };
    const r = run(task, value);
    expect(r.result).toBe(value);
    expect(Object.keys(r.result as object)).toEqual(['extra', 'task_id', 'items']);
    const strict = object({ a: int() }, { strict: true });
    expect(run(strict, { a: 1, b: 2 }).fields).toEqual(['b']);
  });

  it('reject non-objects and arrays where an object is expected', () => {
    expect(run(task, [1]).issues[0]?.expected).toBe('an object');
    expect(run(task, null).result).toBeUndefined();
    expect(run(arrayOf(int()), { length: 0 }).result).toBeUndefined();
  });

  it('check array lengths, tuples and records', () => {
    expect(run(arrayOf(int(), { minLength: 1 }), []).issues[0]?.expected).toBe('a non-empty array of an integer');
    expect(run(tuple(num(), num()), [1, 2]).result).toEqual([1, 2]);
    expect(run(tuple(num(), num()), [1]).result).toBeUndefined();
    expect(run(tuple(num(), num()), [1, 'x']).fields).toEqual(['[1]']);
    const byType = recordOf(int(), { keys: ['a', 'b'] });
    expect(run(byType, { a: 1 }).result).toEqual({ a: 1 });
    expect(run(byType, { c: 1 }).fields).toEqual(['c']);
    expect(run(recordOf(int()), { 'joichi ito': 'x' }).fields).toEqual(['["joichi ito"]']);
    expect(run(recordOf(int(), { minKeys: 1 }), {}).result).toBeUndefined();
  });

  it('quotes keys that are not identifiers in paths', () => {
    const v = object({ retrieval: object({ 'recall@5': num() }) });
    expect(run(v, { retrieval: { 'recall@5': 'x' } }).fields).toEqual(['retrieval["recall@5"]']);
  });

  it('refine runs only after the shape passed', () => {
    let calls = 0;
    const v = refine(object({ a: int(), b: int() }), (row, ctx, issues) => {
      calls++;
      if (row.a <= row.b) return true;
      report(issues, ctx, 'a <= b', row.a, 'a');
      return false;
    });
    expect(run(v, { a: 1, b: 2 }).result).toBeDefined();
    expect(run(v, { a: 3, b: 2 }).fields).toEqual(['a']);
    expect(run(v, { a: 'x', b: 2 }).fields).toEqual(['a']);
    expect(calls).toBe(2);
  });
});
