import { describe, expect, it } from 'vitest';
import { deferred } from '../../support/deferred.ts';
import { AsyncState } from '../../../src/app/lib/async-state.svelte.ts';

describe('AsyncState', () => {
  it('is pending while a load runs, then holds its value', async () => {
    const state = new AsyncState<number>();
    const answer = deferred<number>();
    const settled = state.run(() => answer.promise);
    expect(state).toMatchObject({ pending: true, settled: false, value: undefined, error: undefined });
    answer.resolve(7);
    await settled;
    expect(state).toMatchObject({ pending: false, settled: true, value: 7, error: undefined });
  });

  it('keeps the latest run: an earlier answer arriving late is dropped', async () => {
    const state = new AsyncState<string>();
    const first = deferred<string>();
    const second = deferred<string>();
    const firstSettled = state.run(() => first.promise);
    const secondSettled = state.run(() => second.promise);
    second.resolve('for the latest filter');
    await secondSettled;
    first.resolve('for an old filter');
    await firstSettled;
    expect(state.value).toBe('for the latest filter');
    expect(state.pending).toBe(false);
  });

  it("drops an earlier run's failure too", async () => {
    const state = new AsyncState<string>();
    const first = deferred<string>();
    const firstSettled = state.run(() => first.promise);
    await state.run(async () => 'fine');
    first.reject(new Error('stale failure'));
    await firstSettled;
    expect(state).toMatchObject({ value: 'fine', error: undefined, pending: false });
  });

  it("keeps a worker's error message, also for a load that throws before returning a promise", async () => {
    const state = new AsyncState<number>();
    await state.run(() => Promise.reject(new Error('Catalog Error: Table with name entities does not exist')));
    expect(state).toMatchObject({
      pending: false,
      value: undefined,
      error: 'Catalog Error: Table with name entities does not exist',
    });
    await state.run(() => {
      throw 'not an Error';
    });
    expect(state.error).toBe('not an Error');
  });

  it('keeps the value on show while refreshing when asked, and clears it otherwise', async () => {
    const state = new AsyncState<number[]>();
    await state.run(async () => [1, 2]);
    const next = deferred<number[]>();
    const kept = state.run(() => next.promise, { keep: true });
    expect(state.value).toEqual([1, 2]);
    expect(state.pending).toBe(true);
    next.resolve([3]);
    await kept;
    void state.run(() => new Promise(() => undefined));
    expect(state.value).toBeUndefined();
  });

  it('retries the last load after a failure; reset forgets everything, including a load under way', async () => {
    const state = new AsyncState<string>();
    let calls = 0;
    await state.run(async () => {
      calls++;
      if (calls === 1) throw new Error('worker restarted');
      return 'second time lucky';
    });
    expect(state).toMatchObject({ error: 'worker restarted', settled: true });
    await state.retry();
    expect(state).toMatchObject({ value: 'second time lucky', error: undefined });
    const late = deferred<string>();
    const settled = state.run(() => late.promise);
    state.reset();
    late.resolve('too late');
    await settled;
    expect(state).toMatchObject({ value: undefined, pending: false, settled: false, error: undefined });
    await state.retry();
    expect(calls).toBe(2);
  });
});
