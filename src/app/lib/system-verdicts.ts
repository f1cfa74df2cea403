import type { SplitName } from '../../core/release/types.ts';
import type { CachedVerdicts } from '../../core/scoring/session/index.ts';
import { scoreWorker } from '../data/score-client.ts';
import { release } from '../state/release.svelte.ts';
import { scoreState } from '../state/score.svelte.ts';

/**
 * The verdicts the Score page's judge cache (IndexedDB, plus a cache the release ships) holds
 * for the release's submissions. The score worker reads the release only when there is a cache
 * to read from, so that a release without one costs nothing more.
 */
export async function cachedVerdicts(slugs: string[], split: SplitName, taskIds?: string[]): Promise<CachedVerdicts> {
  if (slugs.length === 0) return { systems: {}, reason: 'no submission has predictions' };
  const ships = release.summary?.descriptor.sha256?.['judge-cache.json'] !== undefined;
  const { stored } = await scoreWorker().cacheInfo();
  if (stored === 0 && !ships) return { systems: {}, reason: 'the judge cache is empty' };
  await scoreState.syncRelease();
  return scoreWorker().cachedVerdicts(slugs, split, taskIds);
}
