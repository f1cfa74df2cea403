/** Token-F1 of the benchmark's gauntlet (docs/benchmark-spec.md 2.8). */
export function f1Tokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

export function tokenF1(prediction: string, reference: string): number {
  const pred = f1Tokens(prediction);
  const gold = f1Tokens(reference);
  if (pred.length === 0 || gold.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of gold) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of pred) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      common++;
      counts.set(t, c - 1);
    }
  }
  if (common === 0) return 0;
  const p = common / pred.length;
  const r = common / gold.length;
  return (2 * p * r) / (p + r);
}

/** The gauntlet's answerability floor. */
export const ANSWERABILITY_F1_FLOOR = 0.1;
