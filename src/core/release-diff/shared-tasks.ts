/**
 * Scoring on only the tasks two releases share: the answer key and the predictions cut down to
 * the shared ids, each line kept as written. The canonical scorer refuses predictions for tasks
 * its answer key lacks, so both files are cut the same way.
 */
import type { SplitName } from '../release/types.ts';
import type { ReleaseDiff } from './diff.ts';
import type { DiffSide } from './side.ts';

export interface SharedTasks {
  split: SplitName;
  ids: string[];
  /** tasks.jsonl text of the shared tasks (from B's answer key, else A's), or undefined without a key. */
  tasksJsonl?: string;
  /** Which release the answer key came from. */
  keyFrom?: 'A' | 'B';
}

/** The tasks of `split` kept with the same question, type and (where both publish one) answer key. */
export function sharedTasks(diff: ReleaseDiff, a: DiffSide, b: DiffSide, split: SplitName): SharedTasks {
  const s = diff.splits.find((x) => x.split === split);
  const ids = s?.unchanged ?? [];
  const out: SharedTasks = { split, ids };
  const keySide = b.splits[split]?.key ? 'B' : a.splits[split]?.key ? 'A' : undefined;
  if (!keySide) return out;
  const key = (keySide === 'B' ? b : a).splits[split]!.key!;
  const shared = new Set(ids);
  const lines = key.rows.filter((r) => shared.has(r.task_id)).map((r) => `${r.line}\n`);
  return { ...out, tasksJsonl: lines.join(''), keyFrom: keySide };
}

export interface FilteredPredictions {
  text: string;
  kept: number;
  dropped: number;
  /** Lines whose task_id could not be read (kept, so the scorer reports them with its own wording). */
  unreadable: number[];
}

/** The lines of a predictions.jsonl whose task_id is one of `ids`, as written; unreadable lines are kept. */
export function filterPredictions(text: string, ids: ReadonlySet<string>): FilteredPredictions {
  const out: string[] = [];
  const unreadable: number[] = [];
  let kept = 0;
  let dropped = 0;
  text.split(/\r\n|\n|\r/).forEach((line, i) => {
    if (line.trim() === '') return;
    let id: unknown;
    try {
      const value: unknown = JSON.parse(line);
      id = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['task_id'] : undefined;
    } catch {
      id = undefined;
    }
    if (typeof id !== 'string') {
      unreadable.push(i + 1);
      out.push(line);
    } else if (ids.has(id)) {
      kept++;
      out.push(line);
    } else dropped++;
  });
  return { text: out.map((l) => `${l}\n`).join(''), kept, dropped, unreadable };
}
