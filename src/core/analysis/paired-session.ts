/**
 * The score worker's engine: the Score page's session (scoring/session) plus the paired comparison
 * of its scored file with a system of the release. A subclass here, so that scoring does not
 * depend on analysis (which reads the scorer's metrics).
 */
import { errorMessage } from '../error-message.ts';
import { ScoreSession } from '../scoring/session/index.ts';
import type { PairedMetric } from './paired-metrics.ts';
import { pairedAgainstSystem, type PairedOutcome } from './paired-submission.ts';

export class PairedScoreSession extends ScoreSession {
  /**
   * The primary predictions against a system of the release on one metric, as the CLI's `paired`
   * compares them (A = this file, B = the system); verdict metrics from the judge cache only.
   */
  async paired(system: string, metric: PairedMetric): Promise<PairedOutcome> {
    let ctx: ReturnType<ScoreSession['ready']>;
    try {
      ctx = this.ready('primary');
    } catch (error) {
      return { ok: false, why: errorMessage(error) };
    }
    const sub = this.inputsOf.release?.submissions.find((s) => s.slug === system);
    if (sub?.predictionsText === undefined) return { ok: false, why: `the release has no predictions for ${system}` };
    return pairedAgainstSystem({
      metric,
      tasks: ctx.tasks,
      profile: ctx.profile,
      submission: ctx.state.result,
      system: { name: system, predictionsText: sub.predictionsText },
      lookup: (key) => this.cache.get(key),
    });
  }
}
