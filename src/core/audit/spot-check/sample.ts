/**
 * The spot-check sample: seeded, stratified by type, of a chosen size (allocate says how many of
 * each type). Tasks are drawn by a seeded shuffle within each type, then the sample is shuffled
 * so that types are mixed.
 */
import { mulberry32, type Random } from '../../random.ts';
import type { TaskType } from '../../release/types.ts';

export interface SampleTask {
  task_id: string;
  type: TaskType;
}

/** The spot-check seed of the benchmark's own scripts/make_spotcheck.py. */
export const DEFAULT_SPOT_SEED = 20260705;
export const DEFAULT_SPOT_SIZE = 20;

function shuffle<T>(items: T[], rng: Random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * How many tasks each type gets (types in first-appearance order): the largest-remainder share
 * of `size` in proportion to the type's count, with at least one task of every type when the
 * sample has room for them all.
 */
export function allocate(counts: ReadonlyArray<readonly [TaskType, number]>, size: number): Map<TaskType, number> {
  const total = counts.reduce((s, [, n]) => s + n, 0);
  const want = Math.max(0, Math.min(Math.floor(size), total));
  const present = counts.filter(([, n]) => n > 0);
  const quota = new Map(counts.map(([t, n]) => [t, total ? (want * n) / total : 0]));
  const room = new Map(counts.map(([t, n]) => [t, n]));
  const alloc = new Map(counts.map(([t, n]) => [t, Math.min(n, Math.floor(quota.get(t)!))]));
  const floor = want >= present.length ? 1 : 0;
  for (const [t] of present) alloc.set(t, Math.max(alloc.get(t)!, floor));
  const sum = () => [...alloc.values()].reduce((s, n) => s + n, 0);
  const excess = (t: TaskType) => alloc.get(t)! - quota.get(t)!;
  while (sum() > want) {
    // the type furthest above its quota gives one back (the last one on ties)
    let pick: TaskType | undefined;
    for (const [t] of present) if (alloc.get(t)! > floor && (pick === undefined || excess(t) >= excess(pick))) pick = t;
    if (pick === undefined) break;
    alloc.set(pick, alloc.get(pick)! - 1);
  }
  while (sum() < want) {
    // the type furthest below its quota gets one more (the first one on ties)
    let pick: TaskType | undefined;
    for (const [t] of present)
      if (alloc.get(t)! < room.get(t)! && (pick === undefined || excess(t) < excess(pick))) pick = t;
    if (pick === undefined) break;
    alloc.set(pick, alloc.get(pick)! + 1);
  }
  return alloc;
}

export function stratifiedSample(tasks: readonly SampleTask[], size: number, seed: number): SampleTask[] {
  const byType = new Map<TaskType, SampleTask[]>();
  for (const t of tasks) {
    const list = byType.get(t.type) ?? [];
    list.push(t);
    byType.set(t.type, list);
  }
  const alloc = allocate(
    [...byType].map(([type, list]) => [type, list.length] as const),
    size,
  );
  const rng = mulberry32(seed);
  const picked: SampleTask[] = [];
  for (const [type, list] of byType) picked.push(...shuffle([...list], rng).slice(0, alloc.get(type) ?? 0));
  return shuffle(picked, rng);
}
