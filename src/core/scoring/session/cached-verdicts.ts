/**
 * What the judge cache already says about a release's submissions (the Systems view): the
 * verdict-based scores of the tasks whose every call is cached. Nothing is sent to a judge.
 */
import type { JudgeCache } from '../../judge/types.ts';
import type { JudgeProfile, Task } from '../../release/types.ts';
import type { LoadedSubmission } from '../../release/load.ts';
import { parsePredictions } from '../predictions.ts';
import { JudgeCallMissingError, scoreCoveredTasks, type JudgeFn } from '../score.ts';

/** What the judge cache says about the release's submissions (see ScoreSession.cachedVerdicts). */
export interface CachedVerdicts {
  /** By submission slug: [cited, uncited] score by task id, for the tasks judged without error. */
  systems: Record<string, { scores: Record<string, [number, number]>; covered: number; errors: number; tasks: number }>;
  /** The judge the verdicts are of. */
  profile?: string;
  /** Why there are none. */
  reason?: string;
}

export async function cachedVerdicts(input: {
  cache: JudgeCache;
  tasks: readonly Task[];
  profile: JudgeProfile;
  submissions: readonly LoadedSubmission[];
  slugs: readonly string[];
  taskIds?: readonly string[];
}): Promise<CachedVerdicts> {
  const { tasks, profile } = input;
  const judge: JudgeFn = async (call) => {
    const reply = await input.cache.get(call.key);
    if (reply === undefined) throw new JudgeCallMissingError(call);
    return reply;
  };
  const systems: CachedVerdicts['systems'] = {};
  for (const slug of input.slugs) {
    const text = input.submissions.find((s) => s.slug === slug)?.predictionsText;
    if (text === undefined) continue;
    const predictions = parsePredictions(text, [...tasks], { mode: 'score', maxIssues: 1 });
    if (!predictions.ok) continue;
    const taskIds = input.taskIds;
    const judged = taskIds ? tasks.filter((t) => taskIds.includes(t.task_id)) : [...tasks];
    const outcomes = await scoreCoveredTasks({ tasks: judged, predictions, profile, judge });
    const scores: Record<string, [number, number]> = {};
    let errors = 0;
    for (const o of outcomes) {
      if (!o) continue;
      if (o.judge_error) errors++;
      else scores[o.task_id] = [o.cited, o.uncited];
    }
    systems[slug] = { scores, covered: Object.keys(scores).length, errors, tasks: judged.length };
  }
  return { systems, profile: `${profile.judge_model} (prompt ${profile.judge_prompt_version})` };
}
