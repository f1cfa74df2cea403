/** The public v1.0 files: every one validates, and the writer gives back their exact bytes. */
import { describe, expect, it } from 'vitest';
import { IssueList } from '../../../../src/core/release/issues.ts';
import {
  parseJsonFileBytes,
  parseJsonlBytes,
  pyFloat,
  pyJsonDumpsIndent,
  writeJsonl,
} from '../../../../src/core/release/jsonl.ts';
import { compareManifestCounts, manifestCountsFromTasks } from '../../../../src/core/release/manifest.ts';
import {
  judgeProfileValidator,
  leaderboardValidator,
  manifestValidator,
  questionValidator,
  submissionMetadataValidator,
  submissionScoresValidator,
  taskValidator,
} from '../../../../src/core/release/schemas.ts';
import { sha256Hex } from '../../../../src/core/release/sha256.ts';
import type { Manifest, ScoreReport, SplitName } from '../../../../src/core/release/types.ts';
import type { Validator } from '../../../../src/core/release/validate.ts';
import { hasShared, releaseBytes, sharedNote } from '../../../support/shared.ts';

const decoder = new TextDecoder();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function readJson<T>(file: string, validator: Validator<T>): T {
  const issues = new IssueList();
  const value = parseJsonFileBytes(releaseBytes(file), file, validator, issues);
  expect(issues.items.map((i) => i.message)).toEqual([]);
  expect(value).toBeDefined();
  return value as T;
}

const JSONL_FILES = [
  { file: 'dev/questions.jsonl', validator: questionValidator, rows: 50 },
  { file: 'full/questions.jsonl', validator: questionValidator, rows: 1038 },
  { file: 'dev/tasks.jsonl', validator: taskValidator, rows: 50 },
  { file: 'full/tasks-sample.jsonl', validator: taskValidator, rows: 147 },
] as const;

/** The float-valued keys of a score report (Python floats even when integral, e.g. 1.0). */
const FLOAT_KEYS = new Set([
  'overall_cited_correctness',
  'overall_cited_correctness_ci95',
  'overall_cited_correctness_micro',
  'per_type',
  'overall_uncited_correctness',
  'overall_uncited_correctness_ci95',
  'overall_uncited_correctness_micro',
  'per_type_uncited',
  'citation_precision',
  'citation_recall',
  'retrieval',
  'premise_id_rate',
  'tokens_per_task',
  'cost_usd_total',
  'cost_usd_per_task',
]);

function asPythonFloats(value: unknown): unknown {
  if (typeof value === 'number') return pyFloat(value);
  if (Array.isArray(value)) return value.map(asPythonFloats);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asPythonFloats(v)]));
  return value;
}

function reportWithFloats(report: ScoreReport): Record<string, unknown> {
  return Object.fromEntries(Object.entries(report).map(([k, v]) => [k, FLOAT_KEYS.has(k) ? asPythonFloats(v) : v]));
}

describe.skipIf(!hasShared)(`real v1.0 release files (${sharedNote})`, () => {
  it.each(JSONL_FILES)(
    '$file validates with zero issues and re-writes to identical bytes',
    ({ file, validator, rows }) => {
      const bytes = releaseBytes(file);
      const result = parseJsonlBytes(bytes, file, validator as Validator<unknown>);
      expect(result.issues.items.map((i) => i.message)).toEqual([]);
      expect(result.issues.count).toBe(0);
      expect(result.rows).toHaveLength(rows);
      expect(result.totalLines).toBe(rows);
      expect(writeJsonl(result.rows)).toBe(decoder.decode(bytes));
      expect(sameBytes(new TextEncoder().encode(writeJsonl(result.rows)), bytes)).toBe(true);
    },
  );

  it('questions files hash to the manifest pins, and match its counts', async () => {
    const manifest = readJson<Manifest>('manifest.json', manifestValidator);
    for (const split of ['dev', 'full'] as SplitName[]) {
      const file = `${split}/questions.jsonl`;
      const bytes = releaseBytes(file);
      expect(await sha256Hex(bytes)).toBe(manifest.splits[split]?.questions_sha256);
      const questions = parseJsonlBytes(bytes, file, questionValidator).rows;
      const counts = manifestCountsFromTasks(questions);
      expect(compareManifestCounts(manifest.splits[split]!, counts, { split })).toEqual([]);
      expect(Object.keys(counts.by_type)).toEqual(Object.keys(manifest.splits[split]!.by_type));
    }
  });

  it('the questions derived from dev/tasks.jsonl hash to the dev pin', async () => {
    const manifest = readJson<Manifest>('manifest.json', manifestValidator);
    const tasks = parseJsonlBytes(releaseBytes('dev/tasks.jsonl'), 'dev/tasks.jsonl', taskValidator).rows;
    const questions = tasks.map((t) => ({ task_id: t.task_id, type: t.type, question: t.question }));
    expect(await sha256Hex(writeJsonl(questions))).toBe(manifest.splits.dev?.questions_sha256);
  });

  it('manifest.json re-written with indent=2 equals the file bytes (no final newline)', () => {
    const manifest = readJson<Manifest>('manifest.json', manifestValidator);
    expect(pyJsonDumpsIndent(manifest)).toBe(decoder.decode(releaseBytes('manifest.json')));
  });

  it('submission metadata validates and re-writes to identical bytes', () => {
    const metadata = readJson('submissions/bm25-reference/metadata.json', submissionMetadataValidator);
    expect(pyJsonDumpsIndent(metadata)).toBe(decoder.decode(releaseBytes('submissions/bm25-reference/metadata.json')));
  });

  it.each(['submissions/bm25-reference/scores.json', 'submissions/dense-reference/scores.json'])(
    '%s validates and re-writes to identical bytes with its floats marked',
    (file) => {
      const scores = readJson(file, submissionScoresValidator);
      expect(pyJsonDumpsIndent(reportWithFloats(scores))).toBe(decoder.decode(releaseBytes(file)));
    },
  );

  it('leaderboard.json validates (7 entries) and re-writes to identical bytes with its floats marked', () => {
    const board = readJson('leaderboard.json', leaderboardValidator);
    expect(board.entries).toHaveLength(7);
    const text = pyJsonDumpsIndent({ entries: board.entries.map(reportWithFloats) });
    expect(text).toBe(decoder.decode(releaseBytes('leaderboard.json')));
  });

  it('judge-profile.json validates', () => {
    const profile = readJson('judge-profile.json', judgeProfileValidator);
    expect(profile.gate_max_citations).toBe(3);
    expect(profile.bootstrap.seed).toBe(20260705);
  });

  it('parses 1,038 tasks (time printed)', () => {
    const sample = decoder.decode(releaseBytes('full/tasks-sample.jsonl')).split('\n').filter(Boolean);
    const text = `${Array.from({ length: 1038 }, (_, i) => sample[i % sample.length]).join('\n')}\n`;
    const bytes = new TextEncoder().encode(text);
    let best = Infinity;
    for (let k = 0; k < 8; k++) {
      const t0 = performance.now();
      const r = parseJsonlBytes(bytes, 'tasks.jsonl', taskValidator);
      best = Math.min(best, performance.now() - t0);
      expect(r.rows).toHaveLength(1038);
    }
    // Printed, not asserted (typically about 10 ms for 1.5 MB).
    console.info(
      `parse+validate of 1,038 tasks (${(bytes.length / 1e6).toFixed(2)} MB): best of 8 = ${best.toFixed(1)} ms`,
    );
  });
});
