import type { Prng } from './prng.ts';

/** Simulated OCR damage of scanned pages: confusable glyphs, dropped and stray characters. */
export type NoiseLevel = 'none' | 'light' | 'medium' | 'heavy';

const RATES: Record<NoiseLevel, number> = { none: 0, light: 0.012, medium: 0.05, heavy: 0.13 };

const CONFUSIONS: ReadonlyArray<readonly [string, string]> = [
  ['m', 'rn'],
  ['e', 'c'],
  ['l', '1'],
  ['O', '0'],
  ['o', '0'],
  ['h', 'b'],
  ['i', 'l'],
  ['a', 'o'],
  ['S', '5'],
  ['n', 'ri'],
  ['t', 'f'],
  ['B', '8'],
  ['g', 'q'],
  ['u', 'v'],
  ['d', 'cl'],
  ['fi', 'ﬁ'],
  ['E', 'F'],
];
const STRAY = ['~', '|', '¦', '»', '·', '^', '°', '¬', '“', '’', '—', '_', ';'];

export function applyOcrNoise(text: string, level: NoiseLevel, rng: Prng): string {
  const rate = RATES[level];
  if (rate === 0) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n' || !rng.chance(rate)) {
      out += c;
      continue;
    }
    const r = rng.next();
    if (r < 0.55) {
      const swap = CONFUSIONS.find(([from]) => text.startsWith(from, i) && rng.chance(0.7));
      if (swap) {
        out += swap[1];
        i += swap[0].length - 1;
      } else out += c;
    } else if (r < 0.7) {
      // dropped character
    } else if (r < 0.88) {
      out += c + rng.pick(STRAY);
    } else {
      out += c === ' ' ? '' : `${c} `;
    }
  }
  return out;
}

/** Binary-ish junk of a failed text extraction. */
export function binaryJunk(rng: Prng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const r = rng.next();
    if (r < 0.45) out += String.fromCharCode(rng.int(0xa1, 0x2ff));
    else if (r < 0.55) out += String.fromCharCode(rng.int(0x2500, 0x257f));
    else if (r < 0.6) out += '\n';
    else out += String.fromCharCode(rng.int(0x21, 0x7e));
  }
  return out;
}
