import type { CallLock } from '../../core/judge/runner.ts';

/**
 * Judge calls held under Web Locks, shared by every tab of this origin: a tab that wants a call
 * another tab is making waits, then finds the reply in the shared IndexedDB cache.
 * Undefined where the browser has no Web Locks (the calls then go out uncoordinated).
 */
export function webLocksCallLock(locks: LockManager | undefined = globalThis.navigator?.locks): CallLock | undefined {
  if (!locks) return undefined;
  return <T>(key: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> =>
    locks.request(`ebx-judge-call:${key}`, { signal }, work) as Promise<T>;
}
