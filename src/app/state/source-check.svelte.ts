import * as Comlink from 'comlink';
import { errorMessage } from '../../core/error-message.ts';
import type { SourceCheckOutcome, SourceCheckProgress } from '../../core/source-docs/service.ts';
import { settingsKey } from '../../core/source-docs/settings.ts';
import { sourceWorker } from '../data/source-client.ts';
import { sourceDocs } from './source-docs.svelte.ts';

type CheckRun =
  | { status: 'running'; key: string; progress?: SourceCheckProgress }
  | { status: 'done'; key: string; outcome: SourceCheckOutcome };

/**
 * "Check this source" of the Source settings panel: the last check (source-check.ts, in the
 * source worker, with the token in use) and where it is. Kept here, not in a panel, because the
 * panel that started it is replaced when the document it sits under starts loading; loaded with
 * the panel, so pages that never open it carry none of it.
 */
class SourceCheckState {
  run = $state<CheckRun | undefined>();

  /** The last check when it was of the settings shown (a check of others is not theirs). */
  get shown(): CheckRun | undefined {
    return this.run?.key === settingsKey(sourceDocs.shown) ? this.run : undefined;
  }

  /** Checks the source the settings name; the button that calls it names the origin, so the press allows it. */
  async start(): Promise<void> {
    const s = sourceDocs.settings;
    if (!s.ok || this.run?.status === 'running') return;
    if (!sourceDocs.allowed) sourceDocs.allow();
    const key = settingsKey(s.value);
    this.run = { status: 'running', key };
    let outcome: SourceCheckOutcome;
    try {
      const worker = await sourceDocs.worker();
      outcome = await worker.check(
        { ...s.value },
        undefined,
        Comlink.proxy((progress: SourceCheckProgress) => {
          if (this.run?.status === 'running') this.run = { status: 'running', key, progress };
        }),
      );
    } catch (e) {
      outcome = { ok: false, kind: 'internal', error: errorMessage(e) };
    }
    this.run = { status: 'done', key, outcome };
  }

  cancel(): Promise<void> {
    return sourceWorker().cancelCheck();
  }
}

export const sourceCheck = new SourceCheckState();
