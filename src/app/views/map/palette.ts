/**
 * Colours of the map. Types use Okabe and Ito's palette, made to stay apart for the common
 * colour-vision deficiencies; regions use Paul Tol's "muted" scheme, made for the same reason.
 * Both read on the light and the dark background (points carry an outline of the background).
 * test/unit/app/map-palette.test.ts keeps every pair shown together ΔE00 ≥ 10 apart under
 * simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009).
 */
import type { Outcome } from '../../../core/map/outcomes.ts';
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
  // Darker than Okabe and Ito's grey: under deuteranopia #999999 meets 'pooling' (ΔE00 6).
  error: '#6E6E6E',
  pooling: '#CC79A7',
};
export const STAGE_ORDER = Object.keys(STAGE_COLOURS);

/** A system's outcome on a task (core/map/outcomes.ts), Okabe and Ito's palette again; the judged and the judge-free sets are never shown together. */
export const OUTCOME_COLOURS: Record<Outcome, string> = {
  'correct and cited': '#009E73',
  'correct, citations not credited': '#E69F00',
  wrong: '#D55E00',
  'no answer': '#999999',
  'cited gold': '#009E73',
  'cited outside the gold only': '#E69F00',
  'cited no gold': '#D55E00',
  'no gold to cite': '#56B4E9',
};

/**
 * How many of the systems got a task right, 0 of n to n of n: seven steps of Tol's sequential
 * "iridescent" scheme, light to dark, so that the order reads without hue.
 */
export const AGREEMENT_RAMP = ['#C2E3D2', '#9BD2E1', '#7BBCE7', '#9398D2', '#9D7DB2', '#805770', '#46353A'] as const;

/** The colour of "k of n systems": spread over the ramp. */
export function agreementColour(k: number, n: number): string {
  const at = n <= 0 ? 0 : Math.round((k / n) * (AGREEMENT_RAMP.length - 1));
  return AGREEMENT_RAMP[Math.max(0, Math.min(AGREEMENT_RAMP.length - 1, at))]!;
}

/** A document's text quality as the corpus grades it ('unknown': not graded). */
export const QUALITY_COLOURS: Record<string, string> = {
  clean: '#009E73',
  degraded: '#E69F00',
  garbage: '#D55E00',
  unknown: '#6E6E6E',
};
export const QUALITY_ORDER = Object.keys(QUALITY_COLOURS);

/** Whether a document is in a gold set of the split, only in pools, or in neither. */
export const DOC_USE_COLOURS: Record<string, string> = {
  gold: '#0072B2',
  'pooled, not gold': '#E69F00',
  neither: '#999999',
};
export const DOC_USE_ORDER = Object.keys(DOC_USE_COLOURS);
export const docUse = (gold: number, pool: number): string =>
  gold > 0 ? 'gold' : pool > 0 ? 'pooled, not gold' : 'neither';
