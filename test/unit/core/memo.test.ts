import { describe, expect, it } from 'vitest';
import { Memo } from '../../../src/core/memo.ts';

describe('Memo', () => {
  it('makes the promise once while it holds', async () => {
    const memo = new Memo<number>();
    let made = 0;
    const make = () => Promise.resolve(++made);
    expect(await memo.get(make)).toBe(1);
    expect(await memo.get(make)).toBe(1);
    expect(made).toBe(1);
  });

  it('forgets a failure, so the next use makes it again', async () => {
    const memo = new Memo<number>();
    await expect(memo.get(() => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(memo.current).toBeUndefined();
    expect(await memo.get(() => Promise.resolve(2))).toBe(2);
  });

  it('a late failure of a replaced promise keeps its successor', async () => {
    const memo = new Memo<number>();
    let fail!: (e: Error) => void;
    const first = memo.get(() => new Promise<number>((_, reject) => (fail = reject)));
    memo.set(Promise.resolve(3));
    fail(new Error('late'));
    await expect(first).rejects.toThrow('late');
    expect(await memo.current).toBe(3);
    memo.set(undefined);
    expect(memo.current).toBeUndefined();
  });
});
