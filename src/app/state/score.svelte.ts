import { errorMessage } from '../../core/error-message.ts';
import * as Comlink from 'comlink';
import type { JudgeProgress } from '../../core/judge/types.ts';
import type { SplitName, SubmissionMetadata } from '../../core/release/types.ts';
import type { ReportFields } from '../../core/scoring/report-fields.ts';
import type {
  CacheImportResult,
  CacheInfo,
  ComparisonView,
  InputsState,
  PlanView,
  PredictionSlot,
  ReleaseInfo,
  ScorecardView,
  ScoreRunResult,
  ValidationView,
} from '../../core/scoring/session/index.ts';
import { clearLiveRun, loadLiveRun, saveLiveRun, type LiveRunRecord } from '../../adapters/browser/idb-live-run.ts';
import { sourceKey } from '../../core/release/source-spec.ts';
import { scoreWorker } from '../data/score-client.ts';
import { judgeSettings } from './score-judge.svelte.ts';
import { release } from './release.svelte.ts';

export interface SlotState {
  name?: string;
  validation?: ValidationView;
  error?: string;
  busy: boolean;
  result?: ScoreRunResult;
  /** Page to worker and back for the last validation (file transfer, parsing, metrics), in ms. */
  roundTripMs?: number;
}

/** What the Score page shows; the work happens in the score worker. */
class ScoreState {
  releaseInfo = $state.raw<ReleaseInfo | undefined>();
  releaseError = $state<string | undefined>();
  loadedVersion = -1;
  tasksKind = $state<'release' | 'file'>('release');
  split = $state<SplitName>('full');
  profileKind = $state<'release' | 'file'>('release');
  tasksFileName = $state<string | undefined>();
  profileFileName = $state<string | undefined>();
  inputs = $state.raw<InputsState>({});
  inputError = $state<string | undefined>();
  systemName = $state('');
  splitExtra = $state('');
  datasetVersion = $state('');
  primary = $state<SlotState>({ busy: false });
  second = $state<SlotState>({ busy: false });
  plan = $state.raw<PlanView | undefined>();
  cache = $state.raw<CacheInfo>({ stored: 0, shipped: 0, distinct: 0, unsaved: 0, persistent: true });
  cacheMessage = $state<string | undefined>();
  progress = $state.raw<JudgeProgress | undefined>();
  running = $state(false);
  paused = $state(false);
  comparison = $state.raw<ComparisonView | undefined>();
  /** What scores.json gets for a report field left empty (the CLI's rule: metadata.json, else the split scored). */
  reportDefaults = $state.raw<ReportFields>({});
  /** A live run a reload interrupted: its predictions are kept in this browser, so it can go on. */
  resumable = $state.raw<{ name: string } | undefined>();
  resumeMessage = $state<string | undefined>();
  private interrupted?: LiveRunRecord;
  /** The primary predictions as picked: what a live run keeps so that a reload can resume it. */
  private primarySource?: LiveRunRecord['predictions'];

  slot(which: PredictionSlot): SlotState {
    return which === 'primary' ? this.primary : this.second;
  }

  /** Reads the loaded release's tasks, profile and shipped cache into the worker (once per load). */
  async syncRelease(): Promise<void> {
    if (!release.spec || this.loadedVersion === release.version) return;
    this.loadedVersion = release.version;
    try {
      this.releaseInfo = await scoreWorker().useRelease(release.spec);
      this.releaseError = undefined;
      const splits = this.releaseInfo.splits.map((s) => s.split);
      if (!splits.includes(this.split) && splits[0]) this.split = splits[0];
      if (!this.datasetVersion) this.datasetVersion = '';
    } catch (error) {
      this.releaseError = errorMessage(error);
    }
    await this.applyChoice();
    await this.refreshCache();
    await this.findInterruptedRun();
  }

  private async findInterruptedRun(): Promise<void> {
    const record = release.spec ? await loadLiveRun() : undefined;
    this.interrupted = record && record.release === sourceKey(release.spec!) ? record : undefined;
    const p = this.interrupted?.predictions;
    this.resumable = p ? { name: p.kind === 'file' ? p.name : `${p.slug}/predictions.jsonl` } : undefined;
  }

  /** Picks the interrupted run's predictions and tasks again, and goes on judging when a key is typed. */
  async resumeInterrupted(model: string | undefined): Promise<void> {
    const record = this.interrupted;
    if (!record) return;
    this.resumable = undefined;
    this.interrupted = undefined;
    const tasks = record.tasks;
    if (tasks.kind === 'release') {
      const split = this.releaseInfo?.splits.find((s) => s.split === tasks.split)?.split;
      if (split) {
        this.tasksKind = 'release';
        this.split = split;
        await this.applyChoice();
      }
    }
    const p = record.predictions;
    if (p.kind === 'file') await this.setPredictions('primary', new File([p.blob], p.name));
    else await this.useReleaseSubmission('primary', p.slug);
    if (!this.primary.validation?.ok) return;
    if (judgeSettings.apiKey.trim() === '') {
      this.resumeMessage = `${p.kind === 'file' ? p.name : p.slug} is picked again; type your API key and press "Judge and score" to go on (the replies already received are not asked again).`;
      return;
    }
    await this.score('primary', model);
  }

  async discardInterrupted(): Promise<void> {
    this.resumable = undefined;
    this.interrupted = undefined;
    await clearLiveRun();
  }

  async applyChoice(): Promise<void> {
    this.inputs = await scoreWorker().choose(
      this.tasksKind === 'release' ? { kind: 'release', split: this.split } : { kind: 'file' },
      this.profileKind,
    );
    await this.revalidate();
  }

  async useTasksFile(file: File): Promise<void> {
    this.inputError = undefined;
    try {
      this.inputs = await scoreWorker().useTasksFile(file.name, file);
      this.tasksKind = 'file';
      this.tasksFileName = file.name;
    } catch (error) {
      this.inputError = errorMessage(error);
    }
    await this.revalidate();
  }

  async useProfileFile(file: File): Promise<void> {
    this.inputError = undefined;
    try {
      this.inputs = await scoreWorker().useProfileFile(file.name, file);
      this.profileKind = 'file';
      this.profileFileName = file.name;
    } catch (error) {
      this.inputError = errorMessage(error);
    }
    await this.revalidate();
  }

  async useMetadataFile(file: File): Promise<void> {
    try {
      const meta = JSON.parse(await file.text()) as Partial<SubmissionMetadata>;
      this.applyMetadata(meta);
    } catch (error) {
      this.inputError = `${file.name}: expected a JSON metadata object (${errorMessage(error)})`;
    }
  }

  /** The report fields a submission's metadata filled in: cleared when other predictions are picked, unless edited. */
  private fromMetadata: ReportFields = {};

  private clearMetadataFields(): void {
    const m = this.fromMetadata;
    if (m.system_name !== undefined && this.systemName === m.system_name) this.systemName = '';
    if (m.split !== undefined && this.splitExtra === m.split) this.splitExtra = '';
    if (m.dataset_version !== undefined && this.datasetVersion === m.dataset_version) this.datasetVersion = '';
    this.fromMetadata = {};
  }

  /** Fills the report fields from a metadata.json; `ofSubmission`: a release submission's, which picking other predictions undoes. */
  applyMetadata(meta: Partial<SubmissionMetadata> | undefined, ofSubmission = false): void {
    if (!meta) return;
    if (ofSubmission)
      this.fromMetadata = {
        ...(typeof meta.system_name === 'string' ? { system_name: meta.system_name } : {}),
        ...(typeof meta.split === 'string' ? { split: meta.split } : {}),
        ...(typeof meta.dataset_version === 'string' ? { dataset_version: meta.dataset_version } : {}),
      };
    if (typeof meta.system_name === 'string') this.systemName = meta.system_name;
    if (typeof meta.split === 'string') this.splitExtra = meta.split;
    if (typeof meta.dataset_version === 'string') this.datasetVersion = meta.dataset_version;
  }

  private async revalidate(): Promise<void> {
    for (const which of ['primary', 'second'] as const) {
      const slot = this.slot(which);
      slot.result = undefined;
      if (!slot.name) continue;
      await this.runValidation(which, () => scoreWorker().validate(which));
    }
    this.comparison = undefined;
    await this.refreshPlan();
  }

  private async runValidation(which: PredictionSlot, work: () => Promise<ValidationView>): Promise<void> {
    const slot = this.slot(which);
    slot.busy = true;
    slot.error = undefined;
    slot.validation = undefined;
    slot.result = undefined;
    const started = performance.now();
    try {
      const view = await work();
      slot.roundTripMs = performance.now() - started;
      slot.validation = view;
    } catch (error) {
      slot.error = errorMessage(error);
    } finally {
      slot.busy = false;
    }
  }

  async setPredictions(which: PredictionSlot, file: File): Promise<void> {
    this.slot(which).name = file.name;
    if (which === 'primary') {
      this.clearMetadataFields();
      this.primarySource = { kind: 'file', name: file.name, blob: file };
    }
    await this.runValidation(which, () => scoreWorker().setPredictions(which, file.name, file));
    if (which === 'primary') await this.refreshPlan();
  }

  async useReleaseSubmission(which: PredictionSlot, slug: string): Promise<void> {
    this.slot(which).name = `${slug}/predictions.jsonl`;
    if (which === 'primary') this.primarySource = { kind: 'submission', slug };
    await this.runValidation(which, async () => {
      const view = await scoreWorker().useReleaseSubmission(which, slug);
      if (which === 'primary') this.applyMetadata(view.metadata, true);
      return view;
    });
    if (which === 'primary') await this.refreshPlan();
  }

  async refreshPlan(): Promise<void> {
    this.plan = undefined;
    this.reportDefaults = await scoreWorker().reportFieldDefaults('primary');
    if (!this.primary.validation?.ok) return;
    try {
      this.plan = await scoreWorker().plan('primary');
    } catch {
      this.plan = undefined;
    }
  }

  async refreshCache(): Promise<void> {
    this.cache = await scoreWorker().cacheInfo();
  }

  private importedMessage(r: CacheImportResult, from: string): string {
    const ignored = r.skipped ? ` (${r.skipped} other files ignored)` : '';
    const unsaved = r.unsavedReason
      ? ` This browser refused to store them (${r.unsavedReason}): they are used until you reload.`
      : '';
    return `Imported ${r.imported} replies from ${from}${ignored}.${unsaved}`;
  }

  async importCache(file: File): Promise<void> {
    this.cacheMessage = undefined;
    try {
      this.cacheMessage = this.importedMessage(await scoreWorker().importCache(file.name, file), file.name);
    } catch (error) {
      this.cacheMessage = `Import failed: ${errorMessage(error)}`;
    }
    await this.refreshCache();
    await this.refreshPlan();
  }

  async importCacheFolder(files: Array<{ path: string; file: File }>): Promise<void> {
    this.cacheMessage = undefined;
    try {
      this.cacheMessage = this.importedMessage(await scoreWorker().importCacheFolder(files), 'the folder');
    } catch (error) {
      this.cacheMessage = `Import failed: ${errorMessage(error)}`;
    }
    await this.refreshCache();
    await this.refreshPlan();
  }

  async clearCache(): Promise<void> {
    await scoreWorker().clearCache();
    this.cacheMessage = 'The judge cache of this browser is empty now.';
    await this.refreshCache();
    await this.refreshPlan();
  }

  private extras(): { system_name?: string; split?: string; dataset_version?: string } {
    const out: { system_name?: string; split?: string; dataset_version?: string } = {};
    if (this.systemName.trim()) out.system_name = this.systemName.trim();
    if (this.splitExtra.trim()) out.split = this.splitExtra.trim();
    if (this.datasetVersion.trim()) out.dataset_version = this.datasetVersion.trim();
    return out;
  }

  /** Scores a slot: live when a key is typed (only uncached calls go out), else from the cache. */
  async score(which: PredictionSlot, model: string | undefined): Promise<void> {
    const slot = this.slot(which);
    const key = judgeSettings.apiKey.trim();
    const live =
      key && model
        ? {
            endpoint: { provider: judgeSettings.provider, baseUrl: judgeSettings.baseUrl.trim(), model, apiKey: key },
            concurrency: judgeSettings.concurrency,
          }
        : undefined;
    this.running = true;
    this.paused = false;
    this.progress = undefined;
    this.resumeMessage = undefined;
    const kept = live && which === 'primary' ? await this.keepRun() : false;
    slot.result = undefined;
    slot.busy = true;
    try {
      const options = { extras: which === 'primary' ? this.extras() : {}, ...(live ? { live } : {}) };
      slot.result = await scoreWorker().score(
        which,
        options,
        Comlink.proxy((p: JudgeProgress) => {
          this.progress = p;
        }),
      );
      if (slot.result.status === 'scored' && slot.result.progress) this.progress = slot.result.progress;
    } catch (error) {
      slot.result = { status: 'error', message: errorMessage(error) };
    } finally {
      slot.busy = false;
      this.running = false;
      this.paused = false;
    }
    // the run ended in this page (scored, cancelled, refused): nothing is left to resume
    if (kept) await clearLiveRun();
    await this.refreshCache();
    await this.refreshPlan();
    this.comparison = (await scoreWorker().compare()) ?? undefined;
  }

  /** Keeps the run's predictions in IndexedDB until it ends, so that a reload can resume it. */
  private async keepRun(): Promise<boolean> {
    if (!release.spec || !this.primarySource) return false;
    return saveLiveRun({
      release: sourceKey(release.spec),
      tasks: this.tasksKind === 'release' ? { kind: 'release', split: this.split } : { kind: 'file' },
      predictions: this.primarySource,
      startedAt: new Date().toISOString(),
    });
  }

  async pause(): Promise<void> {
    await scoreWorker().pause();
    this.paused = true;
  }

  async resume(): Promise<void> {
    await scoreWorker().resume();
    this.paused = false;
  }

  async cancel(): Promise<void> {
    await scoreWorker().cancel();
  }

  scorecard(which: PredictionSlot): ScorecardView | undefined {
    const r = this.slot(which).result;
    return r?.status === 'scored' ? r.scorecard : undefined;
  }
}

export const scoreState = new ScoreState();
