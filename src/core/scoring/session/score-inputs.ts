/**
 * What the Score page scores against: the loaded release (its splits' tasks, judge profile,
 * reference submissions, leaderboard, shipped judge cache) or a dropped tasks.jsonl and
 * judge-profile.json, and which of them is chosen.
 */
import { errorMessage } from '../../error-message.ts';
import { sourceOf, type SourceSpec } from '../../release/source-spec.ts';
import type { JudgeProfile, SplitName, Task } from '../../release/types.ts';
import type { TasksPlace } from '../report-fields.ts';
import { parseJudgeProfile, parseTasksJsonl } from '../scoring-inputs.ts';
import { loadReleaseScoringInputs, type ReleaseScoringInputs } from './release-inputs.ts';
import { readSiteJudgeProfile } from './site-profile.ts';

export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

export type TasksChoice = { kind: 'release'; split: SplitName } | { kind: 'file' };
export type ProfileChoice = 'release' | 'file';

export interface ReleaseInfo {
  label: string;
  datasetVersion: string;
  splits: Array<{ split: SplitName; tasks: number }>;
  hasProfile: boolean;
  profileModel?: string;
  /** Set when the profile is not the release's own file: where it comes from (the site's copy). */
  profileSource?: string;
  /** Why the site's copy of the judge profile was refused. */
  profileError?: string;
  submissions: Array<{ slug: string; system_name?: string; split?: string }>;
  shippedCacheEntries: number;
  shippedCacheError?: string;
  leaderboardEntries: number;
}

export interface InputsState {
  tasks?: { source: string; count: number };
  profile?: { source: string; model: string; promptVersion: string; responseFormat?: string };
  error?: string;
}

export async function readTextCapped(name: string, blob: Blob): Promise<string> {
  if (blob.size > MAX_INPUT_BYTES)
    throw new Error(`${name}: ${blob.size} bytes, more than the ${MAX_INPUT_BYTES} allowed`);
  return blob.text();
}

export class ScoreInputs {
  release?: ReleaseScoringInputs;
  private tasksFile?: { name: string; tasks: Task[] };
  private profileFile?: { name: string; profile: JudgeProfile };
  private tasksChoice: TasksChoice = { kind: 'release', split: 'full' };
  private profileChoice: ProfileChoice = 'release';

  constructor(private readonly baseHref: string) {}

  /** `fetchFn` reads the site's copy of a judge profile when the release has none of its own. */
  async useRelease(spec: SourceSpec, fetchFn?: typeof fetch): Promise<ReleaseInfo> {
    const release = await loadReleaseScoringInputs(sourceOf(spec, this.baseHref));
    if (!release.profile && spec.kind === 'url' && spec.judgeProfile) {
      const site = await readSiteJudgeProfile(
        { url: new URL(spec.judgeProfile.url, this.baseHref).href, sha256: spec.judgeProfile.sha256 },
        fetchFn,
      );
      if ('profile' in site) {
        release.profile = site.profile;
        release.profileSource = site.source;
      } else release.profileError = site.error;
    }
    this.release = release;
    return releaseInfo(release);
  }

  /** Reads a dropped tasks.jsonl and selects it; throws with the file, line and field at fault. */
  async useTasksFile(name: string, blob: Blob): Promise<void> {
    this.tasksFile = { name, tasks: parseTasksJsonl(await readTextCapped(name, blob), name) };
    this.tasksChoice = { kind: 'file' };
  }

  async useProfileFile(name: string, blob: Blob): Promise<void> {
    let value: unknown;
    try {
      value = JSON.parse(await readTextCapped(name, blob));
    } catch (error) {
      throw new Error(`${name}: expected a JSON judge profile, found invalid JSON (${errorMessage(error)})`, {
        cause: error,
      });
    }
    this.profileFile = { name, profile: parseJudgeProfile(value, name) };
    this.profileChoice = 'file';
  }

  choose(tasks: TasksChoice, profile: ProfileChoice): void {
    this.tasksChoice = tasks;
    this.profileChoice = profile;
  }

  state(): InputsState {
    const state: InputsState = {};
    const tasks = this.tasks();
    if (tasks) state.tasks = { source: tasks.source, count: tasks.tasks.length };
    const profile = this.profile();
    if (profile) {
      state.profile = {
        source: profile.source,
        model: profile.profile.judge_model,
        promptVersion: profile.profile.judge_prompt_version,
        ...(profile.profile.response_format ? { responseFormat: profile.profile.response_format.type } : {}),
      };
    }
    if (!tasks)
      state.error =
        this.tasksChoice.kind === 'file'
          ? 'Drop a tasks.jsonl.'
          : `The release has no tasks for the ${this.tasksChoice.split} split.`;
    else if (!profile)
      state.error =
        this.profileChoice === 'file'
          ? 'Drop a judge-profile.json.'
          : (this.release?.profileError ?? 'The release has no judge profile: pick its judge-profile.json.');
    return state;
  }

  /** Where the chosen tasks come from, for the report fields: a release split, or a dropped file (unknown). */
  tasksPlace(): TasksPlace {
    if (this.tasksChoice.kind === 'file' || !this.release) return {};
    return { split: this.tasksChoice.split, datasetVersion: this.release.datasetVersion };
  }

  tasks(): { source: string; tasks: Task[] } | undefined {
    if (this.tasksChoice.kind === 'file')
      return this.tasksFile ? { source: this.tasksFile.name, tasks: this.tasksFile.tasks } : undefined;
    const tasks = this.release?.tasks[this.tasksChoice.split];
    return tasks ? { source: `${this.release!.label}, ${this.tasksChoice.split} split`, tasks } : undefined;
  }

  profile(): { source: string; profile: JudgeProfile } | undefined {
    if (this.profileChoice === 'file')
      return this.profileFile ? { source: this.profileFile.name, profile: this.profileFile.profile } : undefined;
    const r = this.release;
    if (!r?.profile) return undefined;
    return { source: r.profileSource ? `${r.label}, ${r.profileSource}` : r.label, profile: r.profile };
  }
}

function releaseInfo(r: ReleaseScoringInputs): ReleaseInfo {
  return {
    label: r.label,
    datasetVersion: r.datasetVersion,
    splits: (Object.entries(r.tasks) as Array<[SplitName, Task[]]>).map(([split, tasks]) => ({
      split,
      tasks: tasks.length,
    })),
    hasProfile: r.profile !== undefined,
    ...(r.profile ? { profileModel: r.profile.judge_model } : {}),
    ...(r.profileSource ? { profileSource: r.profileSource } : {}),
    ...(r.profileError ? { profileError: r.profileError } : {}),
    submissions: r.submissions.map((s) => ({
      slug: s.slug,
      ...(s.metadata?.system_name !== undefined ? { system_name: s.metadata.system_name } : {}),
      ...(s.metadata?.split !== undefined ? { split: s.metadata.split } : {}),
    })),
    shippedCacheEntries: r.shippedCache.size,
    ...(r.shippedCacheError ? { shippedCacheError: r.shippedCacheError } : {}),
    leaderboardEntries: r.leaderboard?.entries.length ?? 0,
  };
}
