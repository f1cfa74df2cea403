/**
 * Colours of the map. Types use Okabe and Ito's palette, made to stay apart for the common
 * colour-vision deficiencies; regions use Paul Tol's "muted" scheme, made for the same reason.
 * Both read on the light and the dark background (points carry an outline of the background).
 */
import type { TaskType } from '../../../core/release/types.ts';

export const TYPE_COLOURS: Record<TaskType, string> = {
  single_hop: '#0072B2',
  aggregation: '#E69F00',
  timeline: '#009E73',
  dossier: '#CC79A7',
  unanswerable: '#D55E00',
  false_premise: '#56B4E9',
};

export const REGION_COLOURS = [
  '#332288',
  '#88CCEE',
  '#44AA99',
  '#117733',
  '#999933',
  '#DDCC77',
  '#CC6677',
  '#882255',
  '#AA4499',
  '#DDDDDD',
] as const;

export const regionColour = (region: number): string => REGION_COLOURS[region % REGION_COLOURS.length]!;

/** Where the gauntlet stopped a candidate, or 'shipped': Okabe and Ito's palette again. */
export const STAGE_COLOURS: Record<string, string> = {
  shipped: '#009E73',
  standalone: '#E69F00',
  answerability: '#56B4E9',
  necessity: '#D55E00',
  adjudication: '#0072B2',
  error: '#999999',
  pooling: '#CC79A7',
};
export const STAGE_ORDER = Object.keys(STAGE_COLOURS);
