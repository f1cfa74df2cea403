import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.ts';
import { hasShared, projectRoot, sharedNote, v10Dir } from '../../support/shared.ts';

const root = projectRoot;
const v10 = v10Dir;

async function releaseCheck(...args: string[]): Promise<{ code: number; out: string }> {
  const r = await cli(['release-check', ...args]);
  return { code: r.code, out: r.stdout + r.stderr };
}

describe('release-check', () => {
  it('exits 2 on wrong usage', async () => {
    expect((await releaseCheck()).code).toBe(2);
    expect((await releaseCheck('/nonexistent-folder')).code).toBe(2);
  });

  it('passes the embedded sample release', async () => {
    const { code, out } = await releaseCheck('static-data/sample');
    expect(out).toContain('release-check: ok');
    expect(code).toBe(0);
  });

  it('hashes the pinned files the explorer does not parse, and exits 1 naming a changed index file', async () => {
    const passed = await releaseCheck('static-data/sample');
    expect(passed.out).toMatch(/pinned +index\/dense\.bin {2}sha256 ok/);
    expect(passed.out).toMatch(/pinned +judge-cache\.json {2}sha256 ok/);
    expect(passed.out).not.toMatch(/ignored/);
    const copy = path.join(mkdtempSync(path.join(os.tmpdir(), 'ebx-')), 'sample');
    cpSync(path.join(root, 'static-data/sample'), copy, { recursive: true });
    const file = path.join(copy, 'index/dense.bin');
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
    writeFileSync(file, bytes);
    rmSync(path.join(copy, 'models/sample-static/training.json'));
    const { code, out } = await releaseCheck(copy);
    expect(code).toBe(1);
    expect(out).toMatch(/invalid +index\/dense\.bin {2}sha256 [0-9a-f]{64}, release\.json pins/);
    expect(out).toMatch(/missing +models\/sample-static\/training\.json/);
    expect(out).toContain('release-check: FAILED');
  });

  describe.skipIf(!hasShared)(`on the real v1.0 files (${sharedNote})`, () => {
    it('prints 1,038 full and 50 dev tasks with the manifest counts and exits 0', async () => {
      const { code, out } = await releaseCheck(v10);
      expect(out).toContain(
        'full: 1038 tasks (aggregation 111, single_hop 823, timeline 27, dossier 7, unanswerable 32, false_premise 38)',
      );
      expect(out).toContain('dev: 50 tasks (single_hop 12, unanswerable 32, false_premise 6)');
      expect(out).toContain('manifest: counts match');
      expect(code).toBe(0);
    });

    it('names the leaderboard entries without a submission folder, and the sample has none', async () => {
      const { out } = await releaseCheck(v10);
      const listed = out.split('leaderboard entries without a submission folder:\n')[1]?.split('\n\n')[0];
      expect(listed?.split('\n').map((l) => l.trim())).toEqual([
        'agentic-sonnet-5 (reference)  (submissions/agentic-sonnet-5-reference/)',
        'hybrid (reference)  (submissions/hybrid-reference/)',
        'agentic-opus-4-8 (reference)  (submissions/agentic-opus-4-8-reference/)',
        'closed_book (reference)  (submissions/closed-book-reference/)',
        'parametric (reference)  (submissions/parametric-reference/)',
      ]);
      expect((await releaseCheck('static-data/sample')).out).not.toContain('without a submission');
    });

    it('exits 1 naming full/questions.jsonl when one byte changed', async () => {
      const copy = path.join(mkdtempSync(path.join(os.tmpdir(), 'ebx-')), 'v1.0');
      cpSync(v10, copy, { recursive: true });
      const file = path.join(copy, 'full/questions.jsonl');
      const bytes = readFileSync(file);
      bytes[500] = bytes[500]! ^ 1;
      writeFileSync(file, bytes);
      const { code, out } = await releaseCheck(copy);
      expect(code).toBe(1);
      expect(out).toContain('full/questions.jsonl');
      expect(out).toContain('baeacb246318e6f51ec5d7dc2ce11074435e3a09d9454da2bc7956622b6921f9');
    });
  });
});
