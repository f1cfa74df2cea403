/**
 * `audit`: the benchmark's own weak points, measured on a release (README, "Auditing"):
 * grounding of gold answers in gold documents, evidence past the judges' excerpt, and the pool
 * bias of each submission; with --labels, the spot-check error rates and agreement.
 * Exit: 0 done, 1 an input could not be read, or the Hugging Face source refused (a token needed
or refused, a rate limit too long to wait out: the report is still written), 2 wrong usage.
 */
import { errorMessage } from '../../core/error-message.ts';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import {
  FileRefusedError,
  MAX_INPUT_FILE_BYTES,
  readRegularFileSync,
  readRegularText,
} from '../../adapters/node/regular-file.ts';
import path from 'node:path';
import { FolderSource } from '../../adapters/node/folder-source.ts';
import { JudgeCacheError, openJudgeCache } from '../../adapters/node/judge-cache-fs.ts';
import { loadAuditInputs, type AuditInputs } from '../../core/audit/inputs.ts';
import { auditReport, runAudit, summaryLines, type AuditSubmission } from '../../core/audit/report.ts';
import { JUDGE_EXCERPT_CHARS } from '../../core/audit/rules.ts';
import { parseLabelsJsonl } from '../../core/audit/spot-check/labels.ts';
import { spotCheckStats, type SpotCheckStats } from '../../core/audit/spot-check/stats.ts';
import { ReleaseRefused } from '../../core/release/load.ts';
import { SPLITS, type SplitName, type Task } from '../../core/release/types.ts';
import { keySignalLines, keySignals, type KeySignalsReport } from '../../core/audit/key-signals.ts';
import { parsePredictions } from '../../core/scoring/predictions.ts';
import { parseArgs, UsageError, refuseUnknownSwitches } from '../args.ts';
import {
  hubConnection,
  rateNote,
  SOURCE_OPTIONS_HELP,
  SOURCE_SWITCHES,
  SOURCE_VALUED_FLAGS,
  sourceOptions,
} from '../source-options.ts';
import { chainProviders } from '../../core/audit/doc-text.ts';
import { hfSourceProvider } from '../../core/audit/source-provider.ts';
import { parseLocator, type SourceLocator } from '../../core/source-docs/locator.ts';
import { HfSourceDocs } from '../../core/source-docs/lookup.ts';

const USAGE = `usage: npm run cli -- audit <release-folder> [--split full|dev] [--submissions DIR]
         [--judge-cache FILE|DIR] [--labels FILE] [--excerpt-chars N] [--submission FOLDER] [--out report.json]
         [--source hf [--hf-endpoint URL] [--dataset REPO] [--revision REV] [--hf-token-env VAR] [--locator FILE]
                      [--cache DIR | --no-cache]]

Audits a release as README "Auditing" describes, over one split (default: full):
  grounding   each single_hop/timeline answer and each aggregation/dossier item against its gold
              documents: verbatim (lowercased, whitespace runs collapsed) or >= 60% of its distinct
              [a-z0-9]{2,} tokens among the document's tokens; the share per type as the card prints it
  cut-off     gold documents whose evidence starts at or after the judges' excerpt (2,500 characters)
  pool bias   for every submission of the release (and those under --submissions DIR): citations
              outside the gold set; with judge verdicts (the release's judge-cache.json and
              --judge-cache), answers judged correct whose gate held no gold document
Documents are read from the release's corpus (docs.parquet or docs.jsonl); with --source hf,
those it lacks are read from the Hugging Face source by doc_id (range reads, see source-doc), as
one batch (each row group's text read once; texts kept in the cache, so a second run reads none).
On v1.0 the card's published figures are printed beside the measured ones.
Without text (v1.0 offline) the audit runs over zero documents, and the report says so.
  --submissions DIR   a submission folder (predictions.jsonl [+ metadata.json]) or a folder of them
  --judge-cache       a verdicts.json map or the benchmark's cache folder, besides the release's own
  --submission FOLDER key-reading signals of one submission (predictions.jsonl): gold documents cited
                      but not retrieved, citation sets equal to multi-document gold sets, answers equal
                      to the reference answer, credit no published system gets; each beside the same
                      figure for every published system of the release. Signals to review, not a verdict.
  --labels FILE       spot-check labels JSONL (exported from the Spot-check page): error rates with
                      Wilson 95% intervals, Cohen's kappa vs the judge and between reviewers
  --out FILE          write the report as JSON (the summary is printed either way)
  --source hf         read documents the release lacks from the Hugging Face source (--source-docs
                      says the same):
${SOURCE_OPTIONS_HELP}
  --locator FILE      a source-locate output: go straight to each document's row
Exit: 0 done, 1 an input could not be read, or the Hugging Face source refused (a token needed
or refused, a rate limit too long to wait out: the report is still written), 2 wrong usage.
`;

class InputError extends Error {}

interface Options {
  folder: string;
  split?: SplitName;
  submissionsDir?: string;
  judgeCache?: string;
  labels?: string;
  submission?: string;
  excerptChars: number;
  out?: string;
  source?: { docs: HfSourceDocs; cacheLabel: string };
}

function options(args: string[]): Options | 'help' {
  const parsed = parseArgs(args, [
    'split',
    'submissions',
    'judge-cache',
    'labels',
    'submission',
    'excerpt-chars',
    'out',
    'locator',
    'source',
    ...SOURCE_VALUED_FLAGS,
  ]);
  if (parsed.switches.has('help')) return 'help';
  refuseUnknownSwitches(parsed.switches, ['source-docs', ...SOURCE_SWITCHES]);
  const sourceFlags = [...SOURCE_VALUED_FLAGS, 'locator'].filter((f) => parsed.flags.has(f));
  const from = parsed.flags.get('source');
  if (from !== undefined && from !== 'hf')
    throw new UsageError(`--source must be hf (the Hugging Face source), found ${JSON.stringify(from)}`);
  const fromSource = from === 'hf' || parsed.switches.has('source-docs');
  if (!fromSource && (sourceFlags.length || parsed.switches.has('no-cache')))
    throw new UsageError(`--${sourceFlags[0] ?? 'no-cache'} needs --source hf`);
  if (parsed.positional.length !== 1) throw new UsageError('expected one release folder');
  const folder = parsed.positional[0]!;
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${folder} is not a folder`);
  const split = parsed.flags.get('split');
  if (split !== undefined && !SPLITS.includes(split as SplitName))
    throw new UsageError(`--split must be one of ${SPLITS.join(', ')}, found ${JSON.stringify(split)}`);
  const excerpt = parsed.flags.get('excerpt-chars') ?? String(JUDGE_EXCERPT_CHARS);
  if (!/^\d{1,7}$/.test(excerpt) || Number(excerpt) < 1)
    throw new UsageError(`--excerpt-chars must be a positive integer, found ${JSON.stringify(excerpt)}`);
  const opt: Options = { folder, excerptChars: Number(excerpt) };
  if (split) opt.split = split as SplitName;
  for (const [flag, key] of [
    ['submissions', 'submissionsDir'],
    ['judge-cache', 'judgeCache'],
    ['labels', 'labels'],
    ['submission', 'submission'],
    ['out', 'out'],
  ] as const) {
    const v = parsed.flags.get(flag);
    if (v !== undefined) opt[key] = v;
  }
  if (fromSource) {
    const source = sourceOptions(parsed);
    const { settings, cache, cacheLabel } = source;
    const locatorFile = parsed.flags.get('locator');
    let locator: SourceLocator | undefined;
    if (locatorFile) {
      try {
        locator = parseLocator(
          new TextDecoder().decode(readRegularFileSync(locatorFile, MAX_INPUT_FILE_BYTES)),
          locatorFile,
        );
      } catch (e) {
        throw new UsageError(`--locator ${locatorFile}: ${errorMessage(e)}`);
      }
    }
    opt.source = {
      docs: new HfSourceDocs({ settings, fetch: (u, i) => fetch(u, i), cache, locator, ...hubConnection(source) }),
      cacheLabel,
    };
  }
  return opt;
}

async function readUtf8(file: string, what: string): Promise<string> {
  try {
    return await readRegularText(file, MAX_INPUT_FILE_BYTES);
  } catch (e) {
    if (e instanceof FileRefusedError) throw new InputError(`cannot read ${what} ${e.message}`);
    throw new InputError(`cannot read ${what} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** A submission folder, or a folder of submission folders. */
async function extraSubmissions(dir: string): Promise<AuditSubmission[]> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError(`--submissions ${dir} is not a folder`);
  const folders = existsSync(path.join(dir, 'predictions.jsonl'))
    ? [dir]
    : readdirSync(dir)
        .map((n) => path.join(dir, n))
        .filter((p) => existsSync(path.join(p, 'predictions.jsonl')))
        .sort();
  if (folders.length === 0)
    throw new InputError(`--submissions ${dir}: no predictions.jsonl in it or in its subfolders`);
  const out: AuditSubmission[] = [];
  for (const f of folders) {
    const metaPath = path.join(f, 'metadata.json');
    let meta: { system_name?: unknown; split?: unknown } = {};
    if (existsSync(metaPath)) {
      try {
        meta = JSON.parse(await readUtf8(metaPath, 'metadata')) as typeof meta;
      } catch (e) {
        if (e instanceof InputError) throw e;
        throw new InputError(`${metaPath}: invalid JSON (${(e as Error).message})`);
      }
    }
    const sub: AuditSubmission = {
      slug: path.basename(path.resolve(f)),
      predictionsText: await readUtf8(path.join(f, 'predictions.jsonl'), 'predictions'),
    };
    if (typeof meta.system_name === 'string') sub.system_name = meta.system_name;
    if (meta.split === 'full' || meta.split === 'dev') sub.split = meta.split;
    out.push(sub);
  }
  return out;
}

/** Key-reading signals of one submission folder, beside the release's published systems of the split. */
async function submissionSignals(
  folder: string,
  inputs: AuditInputs,
  split: SplitName,
  tasks: Task[],
): Promise<KeySignalsReport> {
  const file = existsSync(folder) && statSync(folder).isDirectory() ? path.join(folder, 'predictions.jsonl') : folder;
  const predictions = parsePredictions(await readUtf8(file, '--submission predictions'), tasks, { mode: 'score' });
  if (predictions.byTaskId.size === 0)
    throw new InputError(`--submission ${file}: no prediction answers a task of the ${split} split`);
  const published = inputs.submissions
    .filter((s) => (s.metadata?.split ?? split) === split)
    .map((s) => ({ slug: s.slug, predictions: parsePredictions(s.predictionsText!, tasks, { mode: 'score' }) }));
  const slug = path.basename(path.resolve(file === folder ? path.dirname(file) : folder));
  return keySignals({
    tasks,
    submission: { slug, predictions },
    published,
    gateSize: inputs.profile?.gate_max_citations ?? 3,
  });
}

async function labelStats(file: string, inputs: AuditInputs): Promise<{ stats: SpotCheckStats; other: number }> {
  const { labels, issues } = parseLabelsJsonl(await readUtf8(file, 'labels file'), file);
  if (issues.length)
    throw new InputError(
      issues
        .slice(0, 10)
        .map((i) => i.message)
        .join('\n'),
    );
  const mine = labels.filter((l) => l.release_id === inputs.releaseId && l.dataset_version === inputs.datasetVersion);
  return { stats: spotCheckStats(mine), other: labels.length - mine.length };
}

export async function run(args: string[]): Promise<number> {
  let opt: Options;
  try {
    const o = options(args);
    if (o === 'help') {
      process.stdout.write(USAGE);
      return 0;
    }
    opt = o;
  } catch (e) {
    process.stderr.write(`${errorMessage(e)}\n\n${USAGE}`);
    return 2;
  }

  try {
    const inputs = await loadAuditInputs(new FolderSource(opt.folder));
    const badKey = inputs.invalid.find((f) => f.kind === 'tasks');
    if (badKey)
      throw new InputError(
        `${path.join(opt.folder, badKey.path)} is invalid; the audit needs the whole answer key:\n  ${badKey.problems.join('\n  ')}`,
      );
    const split = opt.split ?? (inputs.tasks.full ? 'full' : (Object.keys(inputs.tasks)[0] as SplitName | undefined));
    if (!split || !inputs.tasks[split])
      throw new InputError(
        `${opt.folder}: no answer key (tasks.jsonl) for ${opt.split ?? 'any split'}; nothing to audit`,
      );
    const extraCache = opt.judgeCache ? await openJudgeCache(opt.judgeCache) : undefined;
    const submissions: AuditSubmission[] = inputs.submissions.map((s) => ({
      slug: s.slug,
      system_name: s.metadata?.system_name ?? s.scores?.system_name ?? null,
      ...(s.metadata?.split ? { split: s.metadata.split } : {}),
      predictionsText: s.predictionsText!,
    }));
    if (opt.submissionsDir) submissions.push(...(await extraSubmissions(opt.submissionsDir)));
    const labels = opt.labels ? await labelStats(opt.labels, inputs) : undefined;
    const hasCache = inputs.shippedCache.size > 0 || extraCache !== undefined;
    const hf = opt.source ? hfSourceProvider(opt.source.docs) : undefined;
    const docs = hf ? chainProviders([inputs.releaseDocs, hf.provider]) : inputs.releaseDocs;
    const run = await runAudit({
      release: { id: inputs.releaseId, title: inputs.title, dataset_version: inputs.datasetVersion },
      split,
      tasks: inputs.tasks,
      docs,
      ...(inputs.profile ? { profile: inputs.profile } : {}),
      submissions,
      ...(hasCache
        ? { lookup: async (key: string) => inputs.shippedCache.get(key) ?? (await extraCache?.get(key)) }
        : {}),
      excerptChars: opt.excerptChars,
    });
    const audited = auditReport(
      { id: inputs.releaseId, title: inputs.title, dataset_version: inputs.datasetVersion },
      run,
      labels?.stats,
    );
    const signals = opt.submission
      ? await submissionSignals(opt.submission, inputs, split, inputs.tasks[split]!)
      : undefined;
    const report = signals ? { ...audited, key_signals: signals } : audited;
    const lines = summaryLines(audited);
    if (signals) lines.push('', ...keySignalLines(signals));
    if (inputs.shippedCacheError) lines.push(`note: ${inputs.shippedCacheError}`);
    if (hf && opt.source) {
      const t = opt.source.docs.totals;
      lines.push(
        `source documents: ${t.requests} requests, ${(t.bytes / 1e6).toFixed(1)} MB${rateNote(opt.source.docs.rateStats)}; cache ${opt.source.cacheLabel}${hf.failures.count ? `; ${hf.failures.count} could not be read (first: ${hf.failures.first})` : ''}${hf.failures.gaveUp ? '; the source could not be reached, so the other documents were not asked for' : ''}`,
      );
    }
    for (const f of inputs.invalid)
      lines.push(`note: ${f.path} failed its checks (${f.problems[0] ?? 'invalid'}); its valid rows were used`);
    if (labels?.other)
      lines.push(`note: ${labels.other} label(s) in ${opt.labels} are for another release or version; left out`);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (opt.out) {
      await writeFile(opt.out, `${JSON.stringify(report, null, 2)}\n`);
      process.stdout.write(`\nreport written to ${opt.out}\n`);
    }
    // The Hub refused (no access, a rate limit too long to wait out): the audit is incomplete.
    if (hf?.failures.refused) {
      process.stderr.write(`audit: cannot read the source documents: ${hf.failures.refused.message}\n`);
      return 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof InputError || e instanceof ReleaseRefused || e instanceof JudgeCacheError) {
      process.stderr.write(`audit: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
