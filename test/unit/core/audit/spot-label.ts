import { emptyLabels, SPOT_FORMAT, type SpotLabel } from '../../../../src/core/audit/spot-check/labels.ts';

/** A spot-check label of release `r` for the spot-check tests: the given answers, the rest empty. */
export function spotLabel(
  task_id: string,
  reviewer: string,
  labels: Partial<SpotLabel['labels']>,
  extra: Partial<SpotLabel> = {},
): SpotLabel {
  return {
    format: SPOT_FORMAT,
    release_id: 'r',
    dataset_version: 'v',
    split: 'full',
    task_id,
    type: 'single_hop',
    reviewer,
    sample: { seed: 1, size: 5 },
    labels: { ...emptyLabels(), ...labels },
    judge: null,
    note: '',
    labelled_at: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}
