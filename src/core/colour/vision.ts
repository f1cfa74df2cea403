/**
 * How far apart two colours look, to people with normal colour vision and to dichromats: sRGB to
 * linear RGB, the dichromacy simulation of Machado, Oliveira and Fernandes (2009), CIE Lab (D65)
 * and the CIEDE2000 colour difference (Sharma, Wu and Dalal 2005).
 */

/** Linear-light RGB, each channel 0 to 1. */
export type LinearRgb = readonly [r: number, g: number, b: number];
/** CIE L*a*b*, D65 white. */
export type Lab = readonly [l: number, a: number, b: number];
export type Deficiency = 'protanopia' | 'deuteranopia' | 'tritanopia';
export type Vision = 'normal' | Deficiency;
type Matrix3 = readonly [LinearRgb, LinearRgb, LinearRgb];

export const DEFICIENCIES: readonly Deficiency[] = ['protanopia', 'deuteranopia', 'tritanopia'];
export const VISIONS: readonly Vision[] = ['normal', ...DEFICIENCIES];

/** Machado et al. 2009, severity 1.0: rows give the simulated r, g, b from linear r, g, b. */
const MACHADO: Readonly<Record<Deficiency, Matrix3>> = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

/** IEC 61966-2-1 linear sRGB to XYZ; its rows sum to the D65 white below, so greys get a* = b* = 0. */
const SRGB_TO_XYZ: Matrix3 = [
  [0.4124564, 0.3575761, 0.1804375],
  [0.2126729, 0.7151522, 0.072175],
  [0.0193339, 0.119192, 0.9503041],
];
const WHITE: LinearRgb = [0.95047, 1, 1.08883];

const apply = (m: Matrix3, v: LinearRgb): LinearRgb => {
  const row = (r: LinearRgb): number => r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
  return [row(m[0]), row(m[1]), row(m[2])];
};

const decode = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

/** '#RRGGBB' (or '#RGB') to linear RGB. */
export function hexToLinearRgb(hex: string): LinearRgb {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) throw new Error(`not a hex colour: ${hex}`);
  const digits = m[1]!.length === 3 ? [...m[1]!].map((d) => d + d).join('') : m[1]!;
  const channel = (i: number): number => decode(parseInt(digits.slice(2 * i, 2 * i + 2), 16) / 255);
  return [channel(0), channel(1), channel(2)];
}

/** The colour as a dichromat would see it (the colour itself for normal vision). */
export function simulate(rgb: LinearRgb, vision: Vision): LinearRgb {
  if (vision === 'normal') return rgb;
  // The simulated colour can fall outside the gamut; a display shows it clipped, so compare that.
  const clip = (c: number): number => Math.min(1, Math.max(0, c));
  const [r, g, b] = apply(MACHADO[vision], rgb);
  return [clip(r), clip(g), clip(b)];
}

export function linearRgbToLab(rgb: LinearRgb): Lab {
  const xyz = apply(SRGB_TO_XYZ, rgb);
  const d = 6 / 29;
  const f = (t: number): number => (t > d ** 3 ? Math.cbrt(t) : t / (3 * d * d) + 4 / 29);
  const [fx, fy, fz] = [f(xyz[0] / WHITE[0]), f(xyz[1] / WHITE[1]), f(xyz[2] / WHITE[2])];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** The Lab of a hex colour as seen with the given vision. */
export const labOf = (hex: string, vision: Vision = 'normal'): Lab =>
  linearRgbToLab(simulate(hexToLinearRgb(hex), vision));

const DEG = Math.PI / 180;
const POW25_7 = 25 ** 7;

/** CIEDE2000 ΔE between two Lab colours (kL = kC = kH = 1), after Sharma, Wu and Dalal 2005. */
export function deltaE2000(x: Lab, y: Lab): number {
  const [l1, a1, b1] = x;
  const [l2, a2, b2] = y;
  const cBar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cBar ** 7 / (cBar ** 7 + POW25_7)));
  const a1p = (1 + g) * a1;
  const a2p = (1 + g) * a2;
  const c1p = Math.hypot(a1p, b1);
  const c2p = Math.hypot(a2p, b2);
  const hue = (b: number, a: number): number => (b === 0 && a === 0 ? 0 : (Math.atan2(b, a) / DEG + 360) % 360);
  const h1p = hue(b1, a1p);
  const h2p = hue(b2, a2p);

  const dLp = l2 - l1;
  const dCp = c2p - c1p;
  // Hue differences wrap round the circle; with a neutral colour the hue is undefined and counts as 0.
  let dhp = 0;
  if (c1p * c2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(c1p * c2p) * Math.sin((dhp / 2) * DEG);

  const lBarP = (l1 + l2) / 2;
  const cBarP = (c1p + c2p) / 2;
  let hBarP = h1p + h2p;
  if (c1p * c2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hBarP /= 2;
    else hBarP = h1p + h2p < 360 ? (hBarP + 360) / 2 : (hBarP - 360) / 2;
  }

  const t =
    1 -
    0.17 * Math.cos((hBarP - 30) * DEG) +
    0.24 * Math.cos(2 * hBarP * DEG) +
    0.32 * Math.cos((3 * hBarP + 6) * DEG) -
    0.2 * Math.cos((4 * hBarP - 63) * DEG);
  const dTheta = 30 * Math.exp(-(((hBarP - 275) / 25) ** 2));
  const rc = 2 * Math.sqrt(cBarP ** 7 / (cBarP ** 7 + POW25_7));
  const sl = 1 + (0.015 * (lBarP - 50) ** 2) / Math.sqrt(20 + (lBarP - 50) ** 2);
  const sc = 1 + 0.045 * cBarP;
  const sh = 1 + 0.015 * cBarP * t;
  const rt = -Math.sin(2 * dTheta * DEG) * rc;

  const dl = dLp / sl;
  const dc = dCp / sc;
  const dh = dHp / sh;
  return Math.sqrt(dl * dl + dc * dc + dh * dh + rt * dc * dh);
}
