/**
 * The audit worker's engine: opens a release once, runs the audits over a split (document text
 * from the release, then any injected provider), and answers the Audit and Spot-check pages with
 * plain rows. Judge verdicts come from the judge cache the release ships and from the Score
 * page's cache, looked up by key; no judge is ever called here.
 */
import type { LoadProgress } from '../release/load.ts';
import { sourceKey, sourceOf, type SourceSpec } from '../release/source-spec.ts';
import type { SplitName, Task, TaskType } from '../release/types.ts';
import { parsePredictions, parsePredictionsStream, type PredictionsResult } from '../scoring/predictions.ts';
import { chunksOf } from '../scoring/blob-chunks.ts';
import { keySignals, type KeySignalsReport } from './key-signals.ts';
import { ABSENCE_TYPES, questionNames, targetNeedles, targetOf } from './absence.ts';
import { chainProviders, type DocTextProvider } from './doc-text.ts';
import { documentsNeeded } from './grounding.ts';
import { cardShare } from './card-figures.ts';
import { batchSourceProvider, type SourceBatchRead, type SourceReadFailures } from './source-provider.ts';
import type { PoolBias } from './pool-bias.ts';
import { loadAuditInputs, type AuditInputs } from './inputs.ts';
import { judgedScore, type ReplyLookup } from './judged.ts';
import { passageSnippet, runAudit, formatTypeShare, type AuditRun } from './report.ts';
import { stratifiedSample } from './spot-check/sample.ts';
import type { JudgeVerdict } from './spot-check/labels.ts';

export interface AuditServiceDeps {
  /** Where the worker is (relative release URLs resolve against it). */
  here: string;
  /** Another judge cache (the Score page's IndexedDB), consulted after the release's own. */
  judgeCache?: () => Promise<ReplyLookup | undefined>;
  /** More document text, for documents the release does not ship (a Hugging Face reader). */
  extraDocs?: () => DocTextProvider[];
}

export interface AuditReleaseInfo {
  releaseId: string;
  datasetVersion: string;
  title: string;
  splits: Array<{ split: SplitName; tasks: number }>;
  submissions: Array<{ slug: string; system_name: string | null; split: SplitName }>;
  docsSource: string;
  shippedCacheEntries: number;
  hasProfile: boolean;
}

/** Documents the release lacks, read as one batch (the Hugging Face source, once the user allows it). */
export interface RemoteDocs {
  label: string;
  readMany: SourceBatchRead;
}

export interface AuditOverview {
  split: SplitName;
  documents: AuditRun['documents'];
  /** Reads from the remote source that failed, when one was used. */
  remoteFailures?: SourceReadFailures;
  /** Each type's share as the card prints it, and the card's own published line when it has one. */
  byType: Array<AuditRun['byType'][number] & { line: string; card?: string }>;
  tasks: { checked: number; grounded: number; notGrounded: number; unread: number; noGold: number };
  cutoff: Omit<AuditRun['cutoff'], 'flagged'>;
  poolBias: Array<Omit<PoolBias, 'rows'>>;
  skipped: AuditRun['skipped'];
  millis: number;
}

export interface GroundingRow {
  task_id: string;
  split: SplitName;
  type: TaskType;
  question: string;
  status: 'grounded' | 'not_grounded' | 'unread' | 'no_gold';
  claims: Array<{
    item: number | null;
    claim: string;
    grounded: boolean | null;
    docsRead: number;
    docs: number;
    best: {
      doc_id: string;
      match: 'verbatim' | 'overlap' | 'none';
      overlap: number | null;
      tokensFound: number;
      tokensTotal: number;
      start: number | null;
      snippet: string | null;
      passageText: string | null;
    } | null;
  }>;
}

export interface CutoffRow {
  task_id: string;
  split: SplitName;
  type: TaskType;
  question: string;
  nonePassed: boolean;
  docs: Array<{
    doc_id: string;
    item: number | null;
    claim: string;
    start: number;
    chars: number;
    passageText: string;
  }>;
}

export interface AbsenceTask {
  task_id: string;
  split: SplitName;
  type: TaskType;
  question: string;
  false_element: string | null;
  target: string | null;
  /** The target and its aliases (false_premise): what the mention counts count. */
  needles: string[];
  /** Names in the question, also highlighted (all an unanswerable task has). */
  names: string[];
  absence_doc_ids: string[];
}

export interface SpotTask {
  task_id: string;
  split: SplitName;
  type: TaskType;
  question: string;
  answer: string | null;
  items: Array<{ item: string; doc_ids: string[] }> | null;
  false_element: string | null;
  gold_docs: string[];
  /** One judged answer to ask the reviewer about, when a cache holds its verdict. */
  judge: { submission: string; answer: string; verdict: JudgeVerdict; citations: string[] } | null;
}

/** The submission whose key-reading signals are asked for: a published system, or a predictions file. */
export type SignalsSubmission = { slug: string } | { name: string; file: Blob };

export interface SignalsView extends KeySignalsReport {
  split: SplitName;
  /** The question and type of every task a figure lists, for the task links. */
  tasks: Record<string, { question: string; type: TaskType }>;
  /** Lines of an uploaded file the scorer would not read (left out of the figures). */
  unreadLines: number;
}

const MAX_PASSAGE_TEXT = 600;

export class AuditService {
  private key: string | undefined;
  private inputs: Promise<AuditInputs> | undefined;
  /** Per split, and whether the remote source was used. */
  private runs = new Map<string, Promise<{ run: AuditRun; remote?: SourceReadFailures }>>();
  /** The run key the lists of each split read. */
  private latest = new Map<SplitName, string>();
  private texts = new Map<string, string>();
  private predictions = new Map<string, PredictionsResult>();
  /** Published systems read as the scorer reads them (score mode), per split and slug. */
  private scored = new Map<string, PredictionsResult>();

  constructor(private readonly deps: AuditServiceDeps) {}

  async open(spec: SourceSpec, onProgress?: (p: LoadProgress) => void): Promise<AuditReleaseInfo> {
    const key = sourceKey(spec);
    if (key !== this.key || !this.inputs) {
      this.key = key;
      this.runs = new Map();
      this.latest = new Map();
      this.texts = new Map();
      this.predictions = new Map();
      this.scored = new Map();
      this.inputs = loadAuditInputs(sourceOf(spec, this.deps.here), onProgress);
      this.inputs.catch(() => {
        if (this.key === key) this.inputs = undefined;
      });
    }
    const i = await this.inputs;
    return {
      releaseId: i.releaseId,
      datasetVersion: i.datasetVersion,
      title: i.title,
      splits: (Object.entries(i.tasks) as Array<[SplitName, Task[]]>).map(([split, t]) => ({ split, tasks: t.length })),
      submissions: i.submissions.map((s) => ({
        slug: s.slug,
        system_name: s.metadata?.system_name ?? s.scores?.system_name ?? null,
        split: s.metadata?.split ?? 'full',
      })),
      docsSource: this.provider(i).label,
      shippedCacheEntries: i.shippedCache.size,
      hasProfile: i.profile !== undefined,
    };
  }

  private async ready(): Promise<AuditInputs> {
    if (!this.inputs) throw new Error('no release is open in the audit worker');
    return this.inputs;
  }

  private provider(i: AuditInputs): DocTextProvider {
    return chainProviders([i.releaseDocs, ...(this.deps.extraDocs?.() ?? [])]);
  }

  private async lookup(i: AuditInputs): Promise<ReplyLookup | undefined> {
    const other = await this.deps.judgeCache?.();
    if (i.shippedCache.size === 0 && !other) return undefined;
    return async (key) => i.shippedCache.get(key) ?? (await other?.(key));
  }

  private run(
    split: SplitName,
    onProgress?: (done: number, total: number) => void,
    remote?: RemoteDocs,
  ): Promise<{ run: AuditRun; remote?: SourceReadFailures }> {
    const key = remote ? `${split}|remote` : split;
    // Lists read the latest run of the split (with the remote source once it was used).
    this.latest.set(split, key);
    let r = this.runs.get(key);
    // A read from the source is asked for again (after a Stop, "Read the rest"): the texts kept by
    // the source make it cost only what is still missing.
    if (!r || remote) {
      r = (async () => {
        const i = await this.ready();
        const fromRemote = remote ? batchSourceProvider(remote.label, remote.readMany) : undefined;
        const provider = fromRemote ? chainProviders([this.provider(i), fromRemote.provider]) : this.provider(i);
        // Texts are kept so that lists can show passages without reading them again.
        const keeping: DocTextProvider = {
          label: provider.label,
          read: async (ids, progress) => {
            const got = await provider.read(ids, progress);
            for (const [k, v] of got) this.texts.set(k, v);
            return got;
          },
        };
        const lookup = await this.lookup(i);
        const run = await runAudit({
          release: { id: i.releaseId, title: i.title, dataset_version: i.datasetVersion },
          split,
          tasks: i.tasks,
          docs: keeping,
          ...(i.profile ? { profile: i.profile } : {}),
          submissions: i.submissions.map((s) => ({
            slug: s.slug,
            system_name: s.metadata?.system_name ?? s.scores?.system_name ?? null,
            ...(s.metadata?.split ? { split: s.metadata.split } : {}),
            predictionsText: s.predictionsText!,
          })),
          ...(lookup ? { lookup } : {}),
          ...(onProgress ? { onDocProgress: onProgress } : {}),
        });
        return { run, ...(fromRemote ? { remote: fromRemote.failures } : {}) };
      })();
      r.catch(() => this.runs.delete(key));
      this.runs.set(key, r);
    }
    return r;
  }

  /** The split's latest run (for the lists), running it when there is none. */
  private async current(split: SplitName): Promise<AuditRun> {
    const key = this.latest.get(split);
    const r = key ? this.runs.get(key) : undefined;
    return (await (r ?? this.run(split))).run;
  }

  /** Runs again on next use (the Score page's judge cache may have grown). */
  forget(): void {
    this.runs = new Map();
    this.latest = new Map();
  }

  async overview(
    split: SplitName,
    onProgress?: (done: number, total: number) => void,
    remote?: RemoteDocs,
  ): Promise<AuditOverview> {
    const started = performance.now();
    const { run, remote: remoteFailures } = await this.run(split, onProgress, remote);
    const { datasetVersion } = await this.ready();
    const count = (s: GroundingRow['status']) => run.grounding.filter((g) => g.status === s).length;
    const { flagged: _, ...cutoff } = run.cutoff;
    return {
      split,
      documents: run.documents,
      byType: run.byType.map((t) => {
        const card = cardShare(datasetVersion, t.type);
        return { ...t, line: formatTypeShare(t), ...(card ? { card } : {}) };
      }),
      tasks: {
        checked: count('grounded') + count('not_grounded'),
        grounded: count('grounded'),
        notGrounded: count('not_grounded'),
        unread: count('unread'),
        noGold: count('no_gold'),
      },
      cutoff,
      poolBias: run.poolBias.map(({ rows: _rows, ...rest }) => rest),
      skipped: run.skipped,
      millis: performance.now() - started,
      ...(remoteFailures ? { remoteFailures: { ...remoteFailures } } : {}),
    };
  }

  /** The documents the split's audits need whose text the latest run could not read. */
  async unread(split: SplitName): Promise<string[]> {
    const i = await this.ready();
    await this.current(split);
    return documentsNeeded(i.tasks[split] ?? []).filter((id) => !this.texts.has(id));
  }

  async grounding(split: SplitName): Promise<GroundingRow[]> {
    const run = await this.current(split);
    return run.grounding
      .filter((g) => g.status !== 'no_gold')
      .map((g) => ({
        task_id: g.task_id,
        split: g.split,
        type: g.type,
        question: g.question,
        status: g.status,
        claims: g.claims.map((c) => {
          const text = c.best ? this.texts.get(c.best.doc_id) : undefined;
          const p = c.best?.passage ?? null;
          return {
            item: c.item,
            claim: c.claim,
            grounded: c.grounded,
            docsRead: c.docsRead,
            docs: c.doc_ids.length,
            best: c.best
              ? {
                  doc_id: c.best.doc_id,
                  match: c.best.match,
                  overlap: c.best.overlap,
                  tokensFound: c.best.tokensFound,
                  tokensTotal: c.best.tokensTotal,
                  start: p?.start ?? null,
                  snippet: p && text !== undefined ? passageSnippet(text, p.start16, p.end16) : null,
                  passageText:
                    p && text !== undefined ? text.slice(p.start16, p.end16).slice(0, MAX_PASSAGE_TEXT) : null,
                }
              : null,
          };
        }),
      }));
  }

  async cutoffs(split: SplitName): Promise<CutoffRow[]> {
    const run = await this.current(split);
    return run.cutoff.flagged.map((f) => ({
      task_id: f.task_id,
      split: f.split,
      type: f.type,
      question: f.question,
      nonePassed: f.nonePassed,
      docs: f.past.map((d) => {
        const text = this.texts.get(d.doc_id) ?? '';
        const g = run.grounding.find((x) => x.task_id === f.task_id);
        const e = g?.claims.find((c) => c.item === d.item)?.perDoc.find((x) => x.doc_id === d.doc_id);
        const passage = e?.passage ? text.slice(e.passage.start16, e.passage.end16).slice(0, MAX_PASSAGE_TEXT) : '';
        return { doc_id: d.doc_id, item: d.item, claim: d.claim, start: d.start, chars: d.chars, passageText: passage };
      }),
    }));
  }

  async poolBiasRows(split: SplitName, slug: string): Promise<PoolBias['rows']> {
    const run = await this.current(split);
    return run.poolBias.find((b) => b.slug === slug)?.rows ?? [];
  }

  async absenceTasks(split: SplitName): Promise<AbsenceTask[]> {
    const i = await this.ready();
    return (i.tasks[split] ?? [])
      .filter((t) => ABSENCE_TYPES.has(t.type))
      .map((t) => {
        const target = targetOf(t);
        return {
          task_id: t.task_id,
          split,
          type: t.type,
          question: t.question,
          false_element: t.false_element ?? null,
          target,
          needles: target ? targetNeedles(target, i.targetAliases.get(target.toLowerCase()) ?? []) : [],
          names: questionNames(t.question),
          absence_doc_ids: Array.isArray(t.provenance.absence_doc_ids) ? t.provenance.absence_doc_ids : [],
        };
      });
  }

  private async predictionsOf(
    i: AuditInputs,
    slug: string,
    tasks: readonly Task[],
  ): Promise<PredictionsResult | undefined> {
    let p = this.predictions.get(slug);
    if (!p) {
      const sub = i.submissions.find((s) => s.slug === slug);
      if (!sub?.predictionsText) return undefined;
      p = parsePredictions(sub.predictionsText, tasks, { requireAnswerKey: false });
      this.predictions.set(slug, p);
    }
    return p;
  }

  /**
   * Key-reading signals of one submission beside every published system of the split, read as
   * the scorer reads predictions (as `audit --submission` does).
   */
  async keySignals(split: SplitName, submission: SignalsSubmission): Promise<SignalsView> {
    const i = await this.ready();
    const tasks = i.tasks[split];
    if (!tasks) throw new Error(`this release has no answer key for the ${split} split`);
    const published: Array<{ slug: string; predictions: PredictionsResult }> = [];
    for (const s of i.submissions.filter((x) => (x.metadata?.split ?? split) === split && x.predictionsText)) {
      const key = `${split}|${s.slug}`;
      let p = this.scored.get(key);
      if (!p) {
        p = parsePredictions(s.predictionsText!, tasks, { mode: 'score' });
        this.scored.set(key, p);
      }
      published.push({ slug: s.slug, predictions: p });
    }
    let chosen: { slug: string; predictions: PredictionsResult };
    if ('slug' in submission) {
      const found = published.find((p) => p.slug === submission.slug);
      if (!found) throw new Error(`${submission.slug} is not a published system of the ${split} split`);
      chosen = found;
    } else {
      const predictions = await parsePredictionsStream(chunksOf(submission.file), tasks, { mode: 'score' });
      if (predictions.byTaskId.size === 0)
        throw new Error(`${submission.name}: no prediction answers a task of the ${split} split`);
      chosen = { slug: submission.name, predictions };
    }
    const report = keySignals({
      tasks,
      submission: chosen,
      published,
      gateSize: i.profile?.gate_max_citations ?? 3,
    });
    const listed = new Set(
      report.signals.flatMap((s) => [...s.submission.task_ids, ...s.published.flatMap((p) => p.figure.task_ids)]),
    );
    const shown: SignalsView['tasks'] = {};
    for (const t of tasks) if (listed.has(t.task_id)) shown[t.task_id] = { question: t.question, type: t.type };
    return { ...report, split, tasks: shown, unreadLines: chosen.predictions.issueCount };
  }

  /** The seeded stratified sample, each task with one judged answer when a cache holds one. */
  async spotSample(split: SplitName, size: number, seed: number): Promise<SpotTask[]> {
    const i = await this.ready();
    const tasks = i.tasks[split] ?? [];
    const picked = stratifiedSample(tasks, size, seed);
    const lookup = await this.lookup(i);
    const subs = i.submissions.filter((s) => (s.metadata?.split ?? 'full') === split);
    const out: SpotTask[] = [];
    for (const { task_id } of picked) {
      const task = tasks.find((t) => t.task_id === task_id)!;
      let judge: SpotTask['judge'] = null;
      if (lookup && i.profile) {
        const judged: NonNullable<SpotTask['judge']>[] = [];
        for (const s of subs) {
          const pred = (await this.predictionsOf(i, s.slug, tasks))?.byTaskId.get(task_id);
          if (!pred) continue;
          const score = await judgedScore(i.profile, task, pred, lookup);
          if (score.status !== 'scored') continue;
          judged.push({
            submission: s.slug,
            answer: pred.answer,
            verdict: score.uncited > 0 ? 'credit' : 'no_credit',
            citations: pred.citations.slice(0, 20),
          });
        }
        if (judged.length) judge = judged[pick(`${seed}:${task_id}`, judged.length)]!;
      }
      out.push({
        task_id,
        split,
        type: task.type,
        question: task.question,
        answer: task.answer,
        items: task.items,
        false_element: task.false_element ?? null,
        gold_docs: task.gold_docs,
        judge,
      });
    }
    return out;
  }
}

/** A stable choice among n from a string (FNV-1a), so the same sample shows the same answers. */
function pick(s: string, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h % n;
}
