/**
 * The report fields of a scores.json (system_name, split, dataset_version) when the user gives
 * none: one rule for the CLI's `score` and the Score page. The metadata.json of the predictions
 * gives each non-empty string it holds; else the split is the one the tasks come from (the CLI:
 * the split folder the tasks file sits in) and the dataset version that release's.
 */
import { SPLITS } from '../release/types.ts';

export interface ReportFields {
  system_name?: string;
  split?: string;
  dataset_version?: string;
}

/** Where the tasks come from, when known: their split (folder name) and the release's dataset version. */
export interface TasksPlace {
  split?: string;
  datasetVersion?: string;
}

export interface DefaultReportFields {
  fields: ReportFields;
  /** Which field came from where: 'metadata' or 'tasks' (the tasks' place). */
  from: Partial<Record<keyof ReportFields, 'metadata' | 'tasks'>>;
}

const KEYS = ['system_name', 'split', 'dataset_version'] as const;

export function defaultReportFields(metadata: unknown, place: TasksPlace): DefaultReportFields {
  const fields: ReportFields = {};
  const from: DefaultReportFields['from'] = {};
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
    const meta = metadata as Record<string, unknown>;
    for (const key of KEYS) {
      const value = meta[key];
      if (typeof value === 'string' && value !== '') {
        fields[key] = value;
        from[key] = 'metadata';
      }
    }
  }
  if (fields.split === undefined && place.split !== undefined && (SPLITS as readonly string[]).includes(place.split)) {
    fields.split = place.split;
    from.split = 'tasks';
  }
  if (fields.dataset_version === undefined && place.datasetVersion) {
    fields.dataset_version = place.datasetVersion;
    from.dataset_version = 'tasks';
  }
  return { fields, from };
}
