import type { ReleaseSummary } from '../../core/explorer/service.ts';

/**
 * A release generated from a seed (our sample) rather than the benchmark's real files: its
 * dataset version ends in "-sample" or its title says it is fictional.
 */
export function isFictional(summary: Pick<ReleaseSummary, 'descriptor'> | undefined): boolean {
  if (!summary) return false;
  const d = summary.descriptor;
  return /-sample$/.test(d.dataset_version) || /fictional/i.test(d.title);
}
