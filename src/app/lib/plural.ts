import { formatCount } from './format-count.ts';

/** The noun for a count: singular for exactly one ("1 task", "0 tasks", "2 tasks"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** A count with its noun, the count written with thousands separators: "1 task", "1,204 tasks". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${plural(n, one, many)}`;
}
