import { describe, expect, it } from 'vitest';
import {
  AGREEMENT_RAMP,
  agreementColour,
  DOC_USE_COLOURS,
  OUTCOME_COLOURS,
  QUALITY_COLOURS,
  REGION_COLOURS,
  STAGE_COLOURS,
  TYPE_COLOURS,
} from '../../../src/app/views/map/palette.ts';
import {
  deltaE2000,
  DEFICIENCIES,
  hexToLinearRgb,
  labOf,
  linearRgbToLab,
  simulate,
  VISIONS,
  type Lab,
} from '../../../src/core/colour/vision.ts';
import { CITATION_OUTCOMES, JUDGED_OUTCOMES } from '../../../src/core/map/outcomes.ts';

type Palette =
  'types' | 'regions' | 'stages' | 'judged outcomes' | 'judge-free outcomes' | 'document quality' | 'document use';

/** The colours that are shown together, each set with the names of its categories. */
const PALETTES: Record<Palette, ReadonlyArray<readonly [string, string]>> = {
  types: Object.entries(TYPE_COLOURS),
  regions: REGION_COLOURS.map((hex, i) => [`region ${i}`, hex] as const),
  stages: Object.entries(STAGE_COLOURS),
  // The judged and the judge-free outcomes are never on the map together, so each set is checked on its own.
  'judged outcomes': JUDGED_OUTCOMES.map((o) => [o, OUTCOME_COLOURS[o]] as const),
  'judge-free outcomes': CITATION_OUTCOMES.map((o) => [o, OUTCOME_COLOURS[o]] as const),
  'document quality': Object.entries(QUALITY_COLOURS),
  'document use': Object.entries(DOC_USE_COLOURS),
};

/** A common floor for categorical colours that are to be told apart at a glance. */
const FLOOR = 10;

describe('the map palettes under colour-vision deficiency', () => {
  for (const [palette, colours] of Object.entries(PALETTES) as Array<[Palette, (typeof PALETTES)[Palette]]>) {
    for (const vision of VISIONS) {
      const floor = FLOOR;
      it(`keeps the ${palette} ΔE00 ≥ ${floor} apart with ${vision} vision`, () => {
        const labs = colours.map(([name, hex]) => [name, labOf(hex, vision)] as const);
        const tooClose: string[] = [];
        for (let i = 0; i < labs.length; i++) {
          for (let j = i + 1; j < labs.length; j++) {
            const d = deltaE2000(labs[i]![1], labs[j]![1]);
            if (d < floor) tooClose.push(`${labs[i]![0]} / ${labs[j]![0]}: ${d.toFixed(2)}`);
          }
        }
        expect(tooClose).toEqual([]);
      });
    }
  }

  it('keeps the agreement ramp going from light to dark with every vision', () => {
    for (const vision of VISIONS) {
      const lightness = AGREEMENT_RAMP.map((hex) => labOf(hex, vision)[0]);
      for (let i = 1; i < lightness.length; i++) expect(lightness[i]!, vision).toBeLessThan(lightness[i - 1]!);
    }
  });

  it('spreads "k of n" over the whole ramp', () => {
    for (let n = 1; n <= 7; n++) {
      expect(agreementColour(0, n)).toBe(AGREEMENT_RAMP[0]);
      expect(agreementColour(n, n)).toBe(AGREEMENT_RAMP[AGREEMENT_RAMP.length - 1]);
    }
  });
});

describe('the colour science', () => {
  it('gives the CIEDE2000 differences of Sharma, Wu and Dalal (2005)', () => {
    const pairs: Array<[Lab, Lab, number]> = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, 3.1571, -77.2803], [50, 0, -82.7485], 2.8615],
      [[50, -1.3802, -84.2814], [50, 0, -82.7485], 1.0],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      // Hue angles either side of 0° and of 180°, where the mean hue wraps round.
      [[50, 2.49, -0.001], [50, -2.49, 0.0009], 7.1792],
      [[50, 2.49, -0.001], [50, -2.49, 0.0011], 7.2195],
      [[50, -0.001, 2.49], [50, 0.0009, -2.49], 4.8045],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    ];
    for (const [x, y, expected] of pairs) {
      expect(deltaE2000(x, y)).toBeCloseTo(expected, 4);
      expect(deltaE2000(y, x)).toBeCloseTo(expected, 4);
    }
  });

  it('puts sRGB red and white where CIE Lab has them', () => {
    const close = (lab: Lab, expected: Lab): void => lab.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 2));
    close(labOf('#FF0000'), [53.24, 80.09, 67.2]);
    close(labOf('#FFFFFF'), [100, 0, 0]);
  });

  it('leaves a grey grey in each simulation', () => {
    for (const hex of ['#000000', '#808080', '#999999', '#FFFFFF']) {
      const grey = hexToLinearRgb(hex);
      for (const deficiency of DEFICIENCIES) {
        const seen = simulate(grey, deficiency);
        seen.forEach((c, i) => expect(c).toBeCloseTo(grey[i]!, 5));
        const [, a, b] = linearRgbToLab(seen);
        expect(Math.hypot(a, b)).toBeLessThan(1e-3);
      }
    }
  });
});
