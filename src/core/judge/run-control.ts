import { JudgeError } from './errors.ts';

/**
 * Pause, resume and cancel for a judge run. Pausing stops new requests (retries included);
 * requests already sent finish. Cancelling aborts requests in flight and starts no more.
 */
export class JudgeRunControl {
  private readonly abortController = new AbortController();
  private pausedFlag = false;
  private waiters: Array<() => void> = [];

  constructor(parent?: AbortSignal) {
    if (parent !== undefined) {
      if (parent.aborted) this.cancel();
      else parent.addEventListener('abort', () => this.cancel(), { once: true });
    }
  }

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  get paused(): boolean {
    return this.pausedFlag;
  }

  get cancelled(): boolean {
    return this.abortController.signal.aborted;
  }

  pause(): void {
    this.pausedFlag = true;
  }

  resume(): void {
    this.pausedFlag = false;
    this.release();
  }

  cancel(): void {
    this.abortController.abort();
    this.release();
  }

  /** Resolves at once unless paused; rejects with a cancelled JudgeError once cancelled. */
  async whenRunnable(): Promise<void> {
    while (this.pausedFlag && !this.cancelled) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    if (this.cancelled) throw new JudgeError('Judge run cancelled', { kind: 'cancelled', retryable: false });
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
