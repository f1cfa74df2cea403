import { questionLine, writeJsonl } from '../release/jsonl.ts';
import type { BlockPins } from '../release/block-pins.ts';
import { sha256Hex } from '../release/sha256.ts';
import { pyJsonDumps, pyJsonDumpsIndent } from '../python/json-dumps.ts';
import type { Manifest, ManifestSplit, ReleaseDescriptor, SplitName, Task } from '../release/types.ts';
import { datasetCard } from './card.ts';
import { sampleJudgeProfile } from './judge-profile.ts';
import type { SamplePipelineResult } from './pipeline.ts';
import { referenceSubmissions, scoreReferenceSubmissions, type ReferenceSubmission } from './submissions.ts';
import { SHIPPED_JUDGE_CACHE } from '../scoring/session/release-inputs.ts';

export const SAMPLE_DATASET_VERSION = 'v1.0-sample';
export const SAMPLE_RELEASE_ID = 'sample';

/** Column-wise tables for the parquet files (written by the CLI with hyparquet-writer). */
export interface SampleTables {
  docs: {
    doc_id: string[];
    text: string[];
    quality: string[];
    file_name: string[];
    file_type: string[];
    online_url: string[];
  };
  chunks: { chunk_id: string[]; doc_id: string[]; text: string[] };
}

export interface SampleFiles {
  /** Path (relative to the release folder) -> exact text of every JSON/JSONL/MD file except release.json. */
  text: Map<string, string>;
  tables: SampleTables;
  submissions: ReferenceSubmission[];
}

export const PATHS = {
  manifest: 'manifest.json',
  questions: (s: SplitName) => `${s}/questions.jsonl`,
  tasks: (s: SplitName) => `${s}/tasks.jsonl`,
  docs: 'docs.parquet',
  chunks: 'chunks.parquet',
  entities: 'entities.json',
  targets: 'targets.json',
  candidates: 'build/candidates.jsonl',
  verified: 'build/verified.jsonl',
  pooled: 'build/pooled.jsonl',
  rejected: 'build/rejected.jsonl',
  rejection_details: 'build/rejection-details.jsonl',
  pool_dropped: 'build/pool_dropped.jsonl',
  pool: 'build/pool.jsonl',
  judge_profile: 'judge-profile.json',
  leaderboard: 'leaderboard.json',
  dataset_card: 'DATASET_CARD.md',
  descriptor: 'release.json',
  /** The sample judge's replies (verdicts.json format), so the browser scores the sample offline. */
  judge_cache: SHIPPED_JUDGE_CACHE,
} as const;

function byType(tasks: Task[]): ManifestSplit['by_type'] {
  const out: ManifestSplit['by_type'] = {};
  for (const t of tasks) out[t.type] = (out[t.type] ?? 0) + 1;
  return out;
}

export async function renderSampleFiles(r: SamplePipelineResult): Promise<SampleFiles> {
  const text = new Map<string, string>();
  const splits: Record<SplitName, Task[]> = { full: r.full, dev: r.dev };
  const manifest: Manifest = { version: SAMPLE_DATASET_VERSION, splits: {} };
  for (const split of ['full', 'dev'] as const) {
    const questions = splits[split].map(questionLine).join('');
    text.set(PATHS.questions(split), questions);
    text.set(PATHS.tasks(split), writeJsonl(splits[split]));
    manifest.splits[split] = {
      n_tasks: splits[split].length,
      by_type: byType(splits[split]),
      questions_sha256: await sha256Hex(questions),
    };
  }
  text.set(PATHS.manifest, pyJsonDumpsIndent(manifest));
  text.set(PATHS.entities, pyJsonDumps(r.entities));
  text.set(PATHS.targets, pyJsonDumps(r.targets));
  text.set(PATHS.candidates, writeJsonl(r.candidates));
  text.set(PATHS.verified, writeJsonl(r.verified));
  text.set(PATHS.pooled, writeJsonl(r.pooled));
  text.set(PATHS.rejected, writeJsonl(r.rejected));
  text.set(PATHS.rejection_details, writeJsonl(r.details));
  text.set(PATHS.pool_dropped, writeJsonl(r.dropped));
  text.set(PATHS.pool, writeJsonl(r.pool));
  text.set(PATHS.judge_profile, pyJsonDumpsIndent(sampleJudgeProfile()));
  const docText = new Map(r.docs.map((d) => [d.doc_id, d.text]));
  const submissions = referenceSubmissions(r.full, manifest.splits.full!.questions_sha256, SAMPLE_DATASET_VERSION, {
    retriever: r.retriever,
    reader: r.gauntletReader,
    gauntlet: r.gauntlet,
    docText: (id) => docText.get(id) ?? '',
  });
  for (const s of submissions) {
    text.set(`submissions/${s.slug}/metadata.json`, pyJsonDumpsIndent(s.metadata));
    text.set(`submissions/${s.slug}/predictions.jsonl`, writeJsonl(s.predictions));
  }
  const scored = await scoreReferenceSubmissions(r.full, submissions);
  for (const s of scored.submissions) text.set(`submissions/${s.slug}/scores.json`, s.scoresJson);
  text.set(PATHS.leaderboard, scored.leaderboard);
  text.set(PATHS.judge_cache, scored.judgeCache);
  text.set(PATHS.dataset_card, datasetCard(r, submissions, SAMPLE_DATASET_VERSION));

  const tables: SampleTables = {
    docs: {
      doc_id: r.docs.map((d) => d.doc_id),
      text: r.docs.map((d) => d.text),
      quality: r.docs.map((d) => d.quality),
      file_name: r.docs.map((d) => d.meta.file_name),
      file_type: r.docs.map((d) => d.meta.file_type),
      online_url: r.docs.map((d) => d.meta.online_url),
    },
    chunks: {
      chunk_id: r.chunks.map((c) => c.chunk_id),
      doc_id: r.chunks.map((c) => c.doc_id),
      text: r.chunks.map((c) => c.text),
    },
  };
  return { text, tables, submissions };
}

/**
 * release.json: our descriptor, pinning the sha256 of every other file of the release, and of each
 * block of its parquet files (`blocks`, for embeds that read a few ranges).
 */
export function sampleDescriptor(
  pins: Record<string, string>,
  submissionSlugs: string[],
  blocks?: Record<string, BlockPins>,
): ReleaseDescriptor {
  const sorted: Record<string, string> = {};
  for (const path of Object.keys(pins).sort()) sorted[path] = pins[path]!;
  return {
    id: SAMPLE_RELEASE_ID,
    title: 'Epstein Bench sample release (fictional world, generated from a seed)',
    dataset_version: SAMPLE_DATASET_VERSION,
    splits: {
      full: { questions: PATHS.questions('full'), tasks: PATHS.tasks('full') },
      dev: { questions: PATHS.questions('dev'), tasks: PATHS.tasks('dev') },
    },
    manifest: PATHS.manifest,
    files: {
      leaderboard: PATHS.leaderboard,
      judge_profile: PATHS.judge_profile,
      docs: PATHS.docs,
      chunks: PATHS.chunks,
      entities: PATHS.entities,
      targets: PATHS.targets,
      candidates: PATHS.candidates,
      verified: PATHS.verified,
      pooled: PATHS.pooled,
      rejected: PATHS.rejected,
      rejection_details: PATHS.rejection_details,
      pool_dropped: PATHS.pool_dropped,
      pool: PATHS.pool,
      dataset_card: PATHS.dataset_card,
    },
    submissions: submissionSlugs,
    sha256: sorted,
    ...(blocks ? { blocks } : {}),
  };
}
