import { describe, expect, it } from 'vitest';
import type { Leaderboard, Manifest } from '../../../../src/core/release/types.ts';
import { compareScores, toleranceFor } from '../../../../src/core/scoring/compare.ts';
import { checkLeaderboard } from '../../../../src/core/scoring/leaderboard-check.ts';
import { hasShared, readShared, sharedNote } from '../../../support/shared.ts';

describe('compareScores (scripts/compare_scores.py)', () => {
  it('applies the CI tolerances by path', () => {
    expect(toleranceFor('scores.per_type.dossier')).toBe(0.15);
    expect(toleranceFor('scores.per_type_uncited.dossier')).toBe(0.15);
    expect(toleranceFor('scores.premise_id_rate')).toBe(0.15);
    expect(toleranceFor('scores.overall_cited_correctness_ci95[1]')).toBe(0.02);
    expect(toleranceFor('scores.overall_uncited_correctness_micro')).toBe(0.02);
    expect(toleranceFor('scores.retrieval.recall@5')).toBe(1e-6);
    expect(toleranceFor('scores.premise_refused_n')).toBe(1e-6);
  });

  it('reports keys in one file only, list lengths, numbers beyond tolerance and strings; ignores judge_errors', () => {
    const committed = {
      b: 1,
      per_type: { x: 0.5 },
      overall_cited_correctness: 0.5,
      ci: [1, 2],
      name: 'a',
      judge_errors: 0,
      only: 1,
    };
    const recomputed = {
      b: 1.0000001,
      per_type: { x: 0.64 },
      overall_cited_correctness: 0.53,
      ci: [1],
      name: 'b',
      judge_errors: 3,
    };
    expect(compareScores(committed, recomputed).map((m) => m.message)).toEqual([
      'scores.ci: list lengths differ',
      "scores.name: committed 'a' vs recomputed 'b'",
      'scores.only: present in only one file',
      'scores.overall_cited_correctness: committed 0.5 vs recomputed 0.53 (tolerance 0.02)',
    ]);
    expect(compareScores({ a: true }, { a: 1 })).toEqual([]); // Python: True == 1
  });
});

describe.runIf(hasShared)(`published leaderboard and submissions${hasShared ? '' : ` (${sharedNote})`}`, () => {
  it('holds macro = mean(per_type) and micro = manifest-weighted mean to 1e-9 for all 7 rows', () => {
    const lb = JSON.parse(readShared('epstein-bench-v1.0', 'leaderboard.json')) as Leaderboard;
    const manifest = JSON.parse(readShared('epstein-bench-v1.0', 'manifest.json')) as Manifest;
    const rows = checkLeaderboard(lb, manifest, 1e-9);
    expect(rows.length).toBe(7);
    for (const row of rows) {
      expect(row.problems, row.system_name).toEqual([]);
      expect(row.checks.length).toBe(4);
    }
    // a tampered row is caught
    const tampered = structuredClone(lb);
    tampered.entries[0]!.per_type.dossier = 0.5;
    expect(checkLeaderboard(tampered, manifest)[0]!.ok).toBe(false);
  });

  it('finds a committed scores.json equal to itself and different from another system', () => {
    const bm25 = JSON.parse(
      readShared('epstein-bench-v1.0', 'submissions', 'bm25-reference', 'scores.json'),
    ) as unknown;
    const dense = JSON.parse(
      readShared('epstein-bench-v1.0', 'submissions', 'dense-reference', 'scores.json'),
    ) as unknown;
    expect(compareScores(bm25, bm25)).toEqual([]);
    expect(compareScores(bm25, dense).map((m) => m.path)).toContain('scores.retrieval.recall@5');
  });
});
