/**
 * The audit run behind the CLI and the Audit view: grounding, excerpt cut-offs and pool bias
 * over one split, as a JSON report (stable key order) and a human summary.
 */
import { pyRound } from '../python/round.ts';
import type { JudgeProfile, SplitName, Task } from '../release/types.ts';
import { cardShare } from './card-figures.ts';
import { parsePredictions } from '../scoring/predictions.ts';
import { excerptCutoffs, type CutoffSummary } from './cutoff.ts';
import type { DocTextProvider, DocTextProgress } from './doc-text.ts';
import {
  documentsNeeded,
  groundingByType,
  groundTask,
  prepareDoc,
  type PreparedDoc,
  type TaskGrounding,
  type TypeGrounding,
} from './grounding.ts';
import type { ReplyLookup } from './judged.ts';
import { poolBias, type PoolBias } from './pool-bias.ts';
import { JUDGE_EXCERPT_CHARS, RULES } from './rules.ts';
import type { SpotCheckStats } from './spot-check/stats.ts';

export interface AuditSubmission {
  slug: string;
  system_name?: string | null;
  split?: SplitName;
  predictionsText: string;
}

export interface AuditRunInput {
  release: { id: string; title: string; dataset_version: string };
  split: SplitName;
  tasks: Partial<Record<SplitName, Task[]>>;
  docs: DocTextProvider;
  profile?: JudgeProfile;
  submissions?: readonly AuditSubmission[];
  /** Judge replies by cache key (a shipped cache, the Score page's, a --judge-cache file). */
  lookup?: ReplyLookup;
  excerptChars?: number;
  onDocProgress?: DocTextProgress;
}

export interface AuditRun {
  split: SplitName;
  documents: { source: string; wanted: number; read: number };
  grounding: TaskGrounding[];
  byType: TypeGrounding[];
  cutoff: CutoffSummary;
  poolBias: PoolBias[];
  /** Submissions that could not be audited, and why. */
  skipped: Array<{ slug: string; reason: string }>;
}

export async function runAudit(input: AuditRunInput): Promise<AuditRun> {
  const tasks = input.tasks[input.split] ?? [];
  const wanted = documentsNeeded(tasks);
  const texts = await input.docs.read(wanted, input.onDocProgress);
  const prepared = new Map<string, PreparedDoc>();
  for (const [id, text] of texts) prepared.set(id, prepareDoc(id, text));
  const grounding = tasks.map((t) => groundTask(input.split, t, prepared));
  const cutoff = excerptCutoffs(grounding, input.excerptChars ?? JUDGE_EXCERPT_CHARS);

  const bias: PoolBias[] = [];
  const skipped: AuditRun['skipped'] = [];
  for (const sub of input.submissions ?? []) {
    const split = sub.split ?? input.split;
    const splitTasks = input.tasks[split];
    if (!splitTasks) {
      skipped.push({ slug: sub.slug, reason: `its split ${split} has no answer key in this release` });
      continue;
    }
    const predictions = parsePredictions(sub.predictionsText, splitTasks, { requireAnswerKey: false });
    bias.push(
      await poolBias({
        slug: sub.slug,
        system_name: sub.system_name ?? null,
        split,
        tasks: splitTasks,
        predictions,
        ...(input.profile ? { profile: input.profile } : {}),
        ...(input.lookup ? { lookup: input.lookup } : {}),
      }),
    );
  }
  return {
    split: input.split,
    documents: { source: input.docs.label, wanted: wanted.length, read: texts.size },
    grounding,
    byType: groundingByType(grounding),
    cutoff,
    poolBias: bias,
    skipped,
  };
}

/** Python's f"{100 * k / n:.1f}%". */
export function percent(k: number, n: number): string {
  return n === 0 ? 'n/a' : `${pyRound((100 * k) / n, 1).toFixed(1)}%`;
}

/** The card's way of printing a share: `single_hop 99.0% (815/823)`, items counted as items. */
export function formatTypeShare(t: TypeGrounding): string {
  return `${t.type} ${percent(t.grounded, t.checked)} (${t.grounded}/${t.checked}${t.unit === 'items' ? ' items' : ''})`;
}

const SNIPPET = 240;

/** A passage with some context, on one line, for lists (at most about 240 characters). */
export function passageSnippet(text: string, start16: number, end16: number): string {
  const from = Math.max(0, start16 - 40);
  const to = Math.min(text.length, Math.max(end16, start16) + 40, from + SNIPPET);
  return `${from > 0 ? '…' : ''}${text.slice(from, to).replace(/\s+/g, ' ')}${to < text.length ? '…' : ''}`;
}

export interface AuditReport {
  release: { id: string; title: string; dataset_version: string };
  split: SplitName;
  rules: typeof RULES;
  documents: AuditRun['documents'];
  grounding: {
    /** `card`: the dataset card's published line for the type (its own release only). */
    per_type: Array<TypeGrounding & { share: number | null; line: string; card?: string }>;
    tasks: { checked: number; grounded: number; not_grounded: number; unread: number; no_gold: number };
    failures: Array<{
      task_id: string;
      type: string;
      question: string;
      claims: Array<{
        item: number | null;
        claim: string;
        best_doc: string | null;
        best_overlap: number | null;
        passage: { start: number; end: number } | null;
      }>;
    }>;
  };
  cutoff: Omit<CutoffSummary, 'flagged'> & {
    flagged: Array<{
      task_id: string;
      type: string;
      none_inside: boolean;
      docs: Array<{ doc_id: string; item: number | null; start: number; chars: number }>;
    }>;
  };
  pool_bias: Array<
    Omit<PoolBias, 'rows'> & {
      rows: Array<{
        task_id: string;
        type: string;
        outside: string[];
        outside_in_gate: string[];
        correct_without_gold: boolean;
      }>;
    }
  >;
  skipped_submissions: AuditRun['skipped'];
  spot_check?: SpotCheckStats;
}

export function auditReport(release: AuditReport['release'], run: AuditRun, spotCheck?: SpotCheckStats): AuditReport {
  const count = (s: TaskGrounding['status']) => run.grounding.filter((g) => g.status === s).length;
  const report: AuditReport = {
    release,
    split: run.split,
    rules: RULES,
    documents: run.documents,
    grounding: {
      per_type: run.byType.map((t) => {
        const card = cardShare(release.dataset_version, t.type);
        return {
          ...t,
          share: t.checked ? t.grounded / t.checked : null,
          line: formatTypeShare(t),
          ...(card ? { card } : {}),
        };
      }),
      tasks: {
        checked: count('grounded') + count('not_grounded'),
        grounded: count('grounded'),
        not_grounded: count('not_grounded'),
        unread: count('unread'),
        no_gold: count('no_gold'),
      },
      failures: run.grounding
        .filter((g) => g.status === 'not_grounded')
        .map((g) => ({
          task_id: g.task_id,
          type: g.type,
          question: g.question,
          claims: g.claims
            .filter((c) => c.grounded === false)
            .map((c) => ({
              item: c.item,
              claim: c.claim,
              best_doc: c.best?.doc_id ?? null,
              best_overlap: c.best?.overlap ?? null,
              passage: c.best?.passage ? { start: c.best.passage.start, end: c.best.passage.end } : null,
            })),
        })),
    },
    cutoff: {
      ...run.cutoff,
      flagged: run.cutoff.flagged.map((f) => ({
        task_id: f.task_id,
        type: f.type,
        none_inside: f.nonePassed,
        docs: f.past.map((d) => ({ doc_id: d.doc_id, item: d.item, start: d.start, chars: d.chars })),
      })),
    },
    pool_bias: run.poolBias.map((b) => ({
      ...b,
      rows: b.rows.map((r) => ({
        task_id: r.task_id,
        type: r.type,
        outside: r.outside,
        outside_in_gate: r.outsideInGate,
        correct_without_gold: r.correctWithoutGold,
      })),
    })),
    skipped_submissions: run.skipped,
  };
  if (spotCheck) report.spot_check = spotCheck;
  return report;
}

/** The human summary the CLI prints. */
export function summaryLines(report: AuditReport): string[] {
  const out: string[] = [];
  const d = report.documents;
  out.push(`${report.release.title} (${report.release.id}, ${report.release.dataset_version}), split ${report.split}`);
  out.push(`documents: ${d.read} of ${d.wanted} gold and item documents read (${d.source})`);
  out.push('');
  out.push("grounding (verbatim, or >= 60% of the answer's distinct [a-z0-9]{2,} tokens in a gold document):");
  for (const t of report.grounding.per_type) {
    const extra = [
      t.checked ? `${t.verbatim} verbatim` : '',
      t.unread ? `${t.unread} not read` : '',
      t.noDocs ? `${t.noDocs} without documents` : '',
    ].filter(Boolean);
    out.push(`  ${t.line}${extra.length ? `  [${extra.join(', ')}]` : ''}${t.card ? `  (the card: ${t.card})` : ''}`);
  }
  const g = report.grounding.tasks;
  out.push(`  tasks: ${g.grounded}/${g.checked} grounded, ${g.not_grounded} not, ${g.unread} not read`);
  for (const f of report.grounding.failures.slice(0, 20)) {
    const c = f.claims[0];
    out.push(
      `    not grounded: ${f.type} ${f.task_id}${c ? `  best ${c.best_doc ?? '-'} overlap ${c.best_overlap === null ? '-' : percent(c.best_overlap, 1)}` : ''}`,
    );
  }
  if (report.grounding.failures.length > 20)
    out.push(`    ... and ${report.grounding.failures.length - 20} more (see the report)`);
  out.push('');
  const c = report.cutoff;
  out.push(`excerpt cut-off (${c.excerptChars.toLocaleString('en')} characters):`);
  out.push(
    `  ${c.tasksFlagged} tasks with evidence past the cut-off in a gold document (${c.pastPairs} of ${c.evidencePairs} document-claim pairs); ${c.tasksAllPast} with no evidence inside any excerpt; ${c.straddlingPairs} passages straddle it`,
  );
  out.push('');
  out.push('pool bias (citations outside the gold set, answerable tasks):');
  if (report.pool_bias.length === 0) out.push('  no submissions audited');
  for (const b of report.pool_bias) {
    out.push(
      `  ${b.slug}${b.split === report.split ? '' : ` (split ${b.split})`}: ${b.outsidePairs} cited documents outside the gold set on ${b.tasksWithOutside} of ${b.tasks} tasks (${b.outsideDocs} distinct); gate citing only non-gold documents on ${b.tasksGateAllOutside} tasks`,
    );
    if (b.judge)
      out.push(
        `    judge cache: ${b.judge.covered}/${b.tasks} tasks covered; judged correct with cited score 0: ${b.judge.correctGateZero}, of which citing outside the gold set: ${b.judge.correctWithoutGold}`,
      );
    else out.push(`    judge verdicts: none (${b.judgeNote ?? 'no judge cache'})`);
    if (b.predictionIssues)
      out.push(
        `    predictions: ${b.predictionIssues} problem(s), the valid lines were audited; first: ${b.firstPredictionIssue ?? ''}`,
      );
  }
  for (const s of report.skipped_submissions) out.push(`  ${s.slug}: skipped, ${s.reason}`);
  if (report.spot_check) {
    out.push('');
    out.push(...spotCheckLines(report.spot_check));
  }
  return out;
}

function spotCheckLines(s: SpotCheckStats): string[] {
  const out = [
    `spot-check: ${s.tasks} tasks labelled by ${s.reviewerCount} reviewer(s) (${s.labels} label sets); rates count tasks`,
  ];
  for (const q of s.questions) {
    const ci = q.wilson ? `[${percent(q.wilson[0], 1)}, ${percent(q.wilson[1], 1)}]` : '';
    out.push(
      `  ${q.question}: error rate ${percent(q.errors, q.answered)} (${q.errors}/${q.answered}) ${ci}`.trimEnd(),
    );
  }
  for (const a of s.agreement)
    if (a.tasks)
      out.push(
        `  agreement ${a.question}: ${percent(a.agreeingPairs, a.pairs)} of ${a.pairs} reviewer pairs agree; ${a.split} of ${a.tasks} tasks split`,
      );
  if (s.judgeKappa) out.push(`  kappa vs judge: ${fmtKappa(s.judgeKappa.kappa)} over ${s.judgeKappa.n} verdicts`);
  for (const p of s.reviewerKappa)
    out.push(`  kappa ${p.a} vs ${p.b} (${p.question}): ${fmtKappa(p.kappa)} over ${p.n} tasks`);
  return out;
}

const fmtKappa = (k: number | null) => (k === null ? 'undefined' : k.toFixed(3));
