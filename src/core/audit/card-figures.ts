/**
 * The dataset card's published grounding figures, which the Grounding audit redoes on the text it
 * reads: shown beside the measured share of the same type, on the card's own release only.
 */
import type { TaskType } from '../release/types.ts';

export const CARD_GROUNDING = {
  dataset_version: 'v1.0',
  shares: [
    { type: 'single_hop', grounded: 815, checked: 823, line: 'single_hop 99.0% (815/823)' },
    { type: 'timeline', grounded: 26, checked: 27, line: 'timeline 96.3% (26/27)' },
  ],
} as const;

/** The card's line for this type of this release, if the card publishes one. */
export function cardShare(datasetVersion: string, type: TaskType): string | undefined {
  if (datasetVersion !== CARD_GROUNDING.dataset_version) return undefined;
  return CARD_GROUNDING.shares.find((s) => s.type === type)?.line;
}
