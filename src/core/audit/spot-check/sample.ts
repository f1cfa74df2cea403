/**
 * The spot-check sample: seeded, stratified by type, of a chosen size. Each type gets a share
 * proportional to its size (at least one task when the sample has room for every type), the
 * remainders going to the largest fractions; tasks are drawn by a seeded shuffle within each
 * type, then the sample is shuffled so that types are mixed.
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

/** How many tasks each type gets (types in first-appearance order). */
export function allocate(counts: ReadonlyArray<readonly [TaskType, number]>, size: number): Map<TaskType, number> {
  const total = counts.reduce((s, [, n]) => s + n, 0);
  let left = Math.max(0, Math.min(Math.floor(size), total));
  const alloc = new Map<TaskType, number>(counts.map(([t]) => [t, 0]));
  const present = counts.filter(([, n]) => n > 0);
  if (left >= present.length) {
    for (const [t] of present) alloc.set(t, 1);
    left -= present.length;
  }
  const room = (t: TaskType, n: number) => n - alloc.get(t)!;
  const weight = present.reduce((s, [t, n]) => s + room(t, n), 0);
  if (left > 0 && weight > 0) {
    const shares = present.map(([t, n]) => ({ t, n, exact: (left * room(t, n)) / weight }));
    let given = 0;
    for (const s of shares) {
      const whole = Math.min(Math.floor(s.exact), room(s.t, s.n));
      alloc.set(s.t, alloc.get(s.t)! + whole);
      given += whole;
    }
    left -= given;
    const order = shares
      .map((s, i) => ({ ...s, i, frac: s.exact - Math.floor(s.exact) }))
      .sort((a, b) => b.frac - a.frac || a.i - b.i);
    while (left > 0) {
      let moved = false;
      for (const s of order) {
        if (left === 0) break;
        if (room(s.t, s.n) > 0) {
          alloc.set(s.t, alloc.get(s.t)! + 1);
          left--;
          moved = true;
        }
      }
      if (!moved) break;
    }
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
