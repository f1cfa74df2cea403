import { describe, expect, it } from 'vitest';
import { checkPin, compareManifestCounts, manifestCountsFromTasks } from '../../../../src/core/release/manifest.ts';
import { sha256Hex } from '../../../../src/core/release/sha256.ts';

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vectors for strings and bytes', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('é')).toBe(await sha256Hex(new Uint8Array([0xc3, 0xa9])));
  });
});

describe('checkPin', () => {
  const a = 'a'.repeat(64);
  const b = 'b'.repeat(64);
  it('passes equal hashes (any hex case)', () => {
    expect(checkPin('dev/questions.jsonl', a, a.toUpperCase())).toBeUndefined();
  });
  it('names the file and both hashes on a mismatch', () => {
    const issue = checkPin('dev/questions.jsonl', a, b);
    expect(issue?.file).toBe('dev/questions.jsonl');
    expect(issue?.message).toContain('dev/questions.jsonl');
    expect(issue?.message).toContain(a);
    expect(issue?.message).toContain(b);
    expect(issue?.expected).toContain(b);
    expect(issue?.found).toContain(a);
  });
});

describe('manifest counts', () => {
  const rows = [
    { type: 'single_hop' },
    { type: 'unanswerable' },
    { type: 'single_hop' },
    { type: 'false_premise' },
  ] as const;
  it('counts by type in first-seen order', () => {
    const counts = manifestCountsFromTasks(rows);
    expect(counts.n_tasks).toBe(4);
    expect(Object.entries(counts.by_type)).toEqual([
      ['single_hop', 2],
      ['unanswerable', 1],
      ['false_premise', 1],
    ]);
  });
  it('reports each difference', () => {
    const computed = manifestCountsFromTasks(rows);
    expect(
      compareManifestCounts({ n_tasks: 4, by_type: { single_hop: 2, unanswerable: 1, false_premise: 1 } }, computed),
    ).toEqual([]);
    const issues = compareManifestCounts(
      { n_tasks: 5, by_type: { single_hop: 3, unanswerable: 1, dossier: 1 } },
      computed,
      { split: 'dev' },
    );
    expect(issues.map((i) => i.field)).toEqual([
      'splits.dev.n_tasks',
      'splits.dev.by_type.single_hop',
      'splits.dev.by_type.dossier',
      'splits.dev.by_type.false_premise',
    ]);
    expect(issues[0]?.message).toBe(
      'manifest.json, field "splits.dev.n_tasks": the manifest says 5 but the file has 4',
    );
  });
});
