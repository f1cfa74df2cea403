/** A release folder in the benchmark's layout (manifest.json, full/), written for a test from tasks it edited. */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ReleaseTask {
  task_id: string;
  type: string;
  question: string;
  [key: string]: unknown;
}

/** `tasks` as the full split (questions and answer key), the questions pinned in manifest.json under `version`. */
export function writePinnedRelease(tasks: readonly ReleaseTask[], version: string, name = 'release'): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'pinned-release-')), name);
  mkdirSync(path.join(dir, 'full'), { recursive: true });
  const questions = tasks
    .map((t) => `${JSON.stringify({ task_id: t.task_id, type: t.type, question: t.question })}\n`)
    .join('');
  writeFileSync(path.join(dir, 'full/questions.jsonl'), questions);
  writeFileSync(path.join(dir, 'full/tasks.jsonl'), tasks.map((t) => `${JSON.stringify(t)}\n`).join(''));
  const byType: Record<string, number> = {};
  for (const t of tasks) byType[t.type] = (byType[t.type] ?? 0) + 1;
  const manifest = {
    version,
    splits: {
      full: {
        n_tasks: tasks.length,
        by_type: byType,
        questions_sha256: createHash('sha256').update(questions).digest('hex'),
      },
    },
  };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}
