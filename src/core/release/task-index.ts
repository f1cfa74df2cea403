/**
 * A release's task ids, shortened to their first 8 characters (the part the explorer shows),
 * so that a site can tell which of the releases it offers holds a task without loading any.
 * One prefix per line, sorted, each once; about 9 bytes per task.
 */
export const TASK_ID_PREFIX_LENGTH = 8;

export function taskIdIndex(ids: Iterable<string>): string {
  const prefixes = new Set<string>();
  for (const id of ids) prefixes.add(id.slice(0, TASK_ID_PREFIX_LENGTH).toLowerCase());
  return [...prefixes]
    .sort()
    .map((p) => `${p}\n`)
    .join('');
}

export function parseTaskIdIndex(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .map((l) => l.trim().toLowerCase())
      .filter((l) => l.length === TASK_ID_PREFIX_LENGTH),
  );
}

/** Whether the index may hold the task (a prefix match: certain for absence, near-certain for presence). */
export function indexHolds(index: ReadonlySet<string>, taskId: string): boolean {
  return taskId.length >= TASK_ID_PREFIX_LENGTH && index.has(taskId.slice(0, TASK_ID_PREFIX_LENGTH).toLowerCase());
}
