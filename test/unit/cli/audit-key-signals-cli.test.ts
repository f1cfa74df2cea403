/** `audit --submission`: key-reading signals of one submission beside the release's published systems. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { KeySignalsReport } from '../../../src/core/audit/key-signals.ts';
import type { Task } from '../../../src/core/release/types.ts';
import { keyBuiltPredictions } from '../../support/key-built.ts';
import { projectRoot } from '../../support/shared.ts';

const exec = promisify(execFile);

async function audit(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await exec('npx', ['tsx', 'src/cli/main.ts', 'audit', ...args], {
      cwd: projectRoot,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout, err: x.stderr };
  }
}

describe('audit --submission (CLI)', () => {
  it('a submission built from the sample answer key: every signal to review, in the text and the JSON report', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'ebx-key-'));
    const folder = path.join(tmp, 'from-the-key');
    mkdirSync(folder);
    const tasks = readFileSync(path.join(projectRoot, 'static-data/sample/full/tasks.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Task);
    writeFileSync(path.join(folder, 'predictions.jsonl'), `${keyBuiltPredictions(tasks)}\n`);
    const out = path.join(tmp, 'report.json');
    const r = await audit('static-data/sample', '--submission', folder, '--out', out);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('key-reading signals for from-the-key (signals to review, not a verdict');
    expect(r.out.match(/^ {2}REVIEW /gm)).toHaveLength(4);
    expect(r.out).toContain('beside bm25-top-doc-sample:');
    const report = JSON.parse(readFileSync(out, 'utf8')) as { key_signals: KeySignalsReport };
    expect(report.key_signals.raised).toBe(4);
    expect([...report.key_signals.published].sort()).toEqual([
      'always-refuse-sample-control',
      'bm25-top-doc-sample',
      'closed-book-sample-control',
    ]);
  }, 120_000);

  it('exit 1 naming the file when the submission answers no task of the split', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'ebx-key-'));
    writeFileSync(
      path.join(tmp, 'predictions.jsonl'),
      '{"task_id": "nope", "answer": "", "citations": [], "retrieved": []}\n',
    );
    const r = await audit('static-data/sample', '--submission', tmp);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--submission .*predictions\.jsonl: no prediction answers a task of the full split/);
  }, 120_000);
});
