/** How the paired views write their numbers: four decimals with a true minus sign. */
export function signed4(v: number): string {
  return (v < 0 ? '−' : '') + Math.abs(v).toFixed(4);
}

/** A bootstrap p-value; 0 means no resample was as extreme, i.e. below 1 / iterations. */
export function pValueText(p: number, iterations: number): string {
  return p === 0 ? `< ${1 / iterations}` : p.toFixed(3);
}
