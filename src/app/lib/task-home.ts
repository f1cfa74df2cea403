import { indexHolds, parseTaskIdIndex } from '../../core/release/task-index.ts';
import type { ReleaseDescriptor } from '../../core/release/types.ts';
import { siteReleases, siteRoot, type SiteRelease } from '../state/site-releases.ts';
const known = new Map<string, Promise<Set<string> | undefined>>();

/** The task ids (or their 8-character prefixes) of a release the site offers, read from this site only. */
function idsOf(entry: SiteRelease): Promise<Set<string> | undefined> {
  let ids = known.get(entry.id);
  if (!ids) {
    ids = (async () => {
      const at = (p: string) => new URL(`static-data/${p}`, siteRoot()).href;
      if (entry.taskIds) {
        const r = await fetch(at(entry.taskIds));
        return r.ok ? parseTaskIdIndex(await r.text()) : undefined;
      }
      if (!entry.path || entry.url) return undefined;
      // A release the site serves in our layout: its questions files are small and local.
      const r = await fetch(at(`${entry.path}release.json`));
      if (!r.ok) return undefined;
      const descriptor = (await r.json()) as Partial<ReleaseDescriptor>;
      const out = new Set<string>();
      for (const split of Object.values(descriptor.splits ?? {})) {
        if (!split?.questions) continue;
        const q = await fetch(at(`${entry.path}${split.questions}`));
        if (!q.ok) continue;
        for (const line of (await q.text()).split('\n')) {
          const m = /"task_id":\s*"([^"]+)"/.exec(line);
          if (m) out.add(m[1]!);
        }
      }
      return out;
    })().catch(() => undefined);
    known.set(entry.id, ids);
  }
  return ids;
}

/** Which other release this site offers holds a task, when one is known to. */
export async function releaseHolding(taskId: string, exceptId: string | undefined): Promise<SiteRelease | undefined> {
  for (const entry of await siteReleases()) {
    if (entry.id === exceptId) continue;
    const ids = await idsOf(entry);
    if (ids && (ids.has(taskId) || indexHolds(ids, taskId))) return entry;
  }
  return undefined;
}
