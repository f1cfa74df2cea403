/** One row of an interval chart: a point with its interval. */
export interface IntervalRow {
  label: string;
  value: number;
  low?: number;
  high?: number;
  /** Drawn hollow (e.g. a control system; the label should say so too). */
  muted?: boolean;
  /** Drawn strong (e.g. the overall row). */
  strong?: boolean;
}

/** The x scale of an interval chart: a padded domain that always holds 0 (when asked) and every interval. */
export interface IntervalScale {
  min: number;
  max: number;
  /** x in [0, width] of a value. */
  at(value: number): number;
  ticks: number[];
}

function niceStep(span: number): number {
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power;
}

export function intervalScale(values: readonly number[], width: number, withZero: boolean): IntervalScale {
  const finite = values.filter((v) => Number.isFinite(v));
  let min = Math.min(...finite, ...(withZero ? [0] : []));
  let max = Math.max(...finite, ...(withZero ? [0] : []));
  if (!Number.isFinite(min) || !Number.isFinite(max)) [min, max] = [0, 1];
  if (max - min < 1e-9) [min, max] = [min - 0.05, max + 0.05];
  const step = niceStep(max - min);
  min = Math.floor(min / step) * step;
  max = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let t = min; t <= max + step / 2; t += step) ticks.push(Math.round(t / step) * step);
  return { min, max, at: (v) => ((v - min) / (max - min)) * width, ticks };
}

/** A tick label: no trailing zeros, a true minus sign. */
export function tickText(v: number): string {
  const s = Math.abs(v) < 1e-12 ? '0' : String(Number(v.toFixed(3)));
  return s.replace('-', '−');
}
