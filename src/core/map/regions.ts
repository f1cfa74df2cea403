/**
 * Regions of a map: k-means over the points' map positions (seeded, so a release always gets
 * the same regions), each labelled with the words that set its texts apart from the rest (a
 * class-based TF-IDF, as topic models label clusters).
 */
import { mulberry32 } from '../random.ts';
import { tokenize } from '../retrieval/tokenize.ts';

export interface Position {
  x: number;
  y: number;
}

/** Words that say nothing about a region, however often a region's questions use them. */
const STOPWORDS = new Set(
  (
    'the and for with was were are is be been that this which what who whom whose when where why how ' +
    'did does do has have had from into onto about after before during between within than then ' +
    'their there they them his her its our your you one two any all each more most other such only ' +
    'not no nor but or if of on in at by to as an it he she we us can could would should may might ' +
    'also same per via over under both either list name named according document documents'
  ).split(' '),
);

/** How many regions a map of `n` points gets: about one per 80 points, 2 to 12. */
export function regionCount(n: number): number {
  return Math.max(Math.min(n, 2), Math.min(12, Math.round(Math.sqrt(n / 8))));
}

const dist2 = (a: Position, b: Position) => (a.x - b.x) ** 2 + (a.y - b.y) ** 2;

/** The region of each position: k-means++ seeded, then Lloyd's steps until nothing moves. */
export function kMeans(points: readonly Position[], k: number, seed = 1): number[] {
  const random = mulberry32(seed);
  if (points.length === 0) return [];
  const centres: Position[] = [points[Math.floor(random() * points.length)]!];
  while (centres.length < k) {
    const d = points.map((p) => Math.min(...centres.map((c) => dist2(p, c))));
    const total = d.reduce((a, b) => a + b, 0);
    if (total === 0) break;
    let pick = random() * total;
    let i = 0;
    while (i < d.length - 1 && pick >= d[i]!) pick -= d[i++]!;
    centres.push(points[i]!);
  }
  let assigned: number[] = [];
  for (let step = 0; step < 100; step++) {
    const next = points.map((p) => {
      let best = 0;
      for (let c = 1; c < centres.length; c++) if (dist2(p, centres[c]!) < dist2(p, centres[best]!)) best = c;
      return best;
    });
    if (next.every((c, i) => c === assigned[i])) break;
    assigned = next;
    for (let c = 0; c < centres.length; c++) {
      const members = points.filter((_, i) => assigned[i] === c);
      if (members.length)
        centres[c] = {
          x: members.reduce((s, p) => s + p.x, 0) / members.length,
          y: members.reduce((s, p) => s + p.y, 0) / members.length,
        };
    }
  }
  return assigned;
}

const labelWord = (t: string) => t.length >= 3 && !/^\d+$/.test(t) && !STOPWORDS.has(t);

/**
 * Up to `words` words per region, by class-based TF-IDF: how often the region's texts use a word,
 * weighed by how rare the word is across all regions. A word must be used by two of the region's
 * texts (one when the region has one), so a label is never one question's quirk.
 */
export function regionLabels(
  texts: readonly string[],
  region: readonly number[],
  regions: number,
  words = 2,
): string[] {
  const perRegion = Array.from({ length: regions }, () => new Map<string, number>());
  const textsWith = Array.from({ length: regions }, () => new Map<string, number>());
  const all = new Map<string, number>();
  const sizes = new Array<number>(regions).fill(0);
  texts.forEach((text, i) => {
    const r = region[i]!;
    sizes[r]!++;
    const tokens = tokenize(text).filter(labelWord);
    for (const t of tokens) {
      perRegion[r]!.set(t, (perRegion[r]!.get(t) ?? 0) + 1);
      all.set(t, (all.get(t) ?? 0) + 1);
    }
    for (const t of new Set(tokens)) textsWith[r]!.set(t, (textsWith[r]!.get(t) ?? 0) + 1);
  });
  const totalWords = [...all.values()].reduce((a, b) => a + b, 0);
  const average = totalWords / Math.max(1, regions);
  const taken = new Set<string>();
  return perRegion.map((counts, r) => {
    const size = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
    const needed = Math.min(2, sizes[r]!);
    const ranked = [...counts]
      .filter(([t]) => textsWith[r]!.get(t)! >= needed)
      .map(([t, n]) => ({ t, score: (n / size) * Math.log(1 + average / all.get(t)!) }))
      .sort((a, b) => b.score - a.score || (a.t < b.t ? -1 : 1))
      .map((w) => w.t);
    const label = distinctLabel(ranked, words, taken);
    taken.add(label);
    return label;
  });
}

/**
 * The first `words` of the ranked words, unless an earlier (larger) region has that label: then
 * the best set of the next few words that no region has yet (two regions alike in their top
 * words are told apart by the words that follow).
 */
function distinctLabel(ranked: readonly string[], words: number, taken: ReadonlySet<string>): string {
  const first = ranked.slice(0, words).join(', ');
  if (!taken.has(first) || ranked.length <= words) return first;
  const pool = ranked.slice(0, words + 4);
  const pick = (from: number, chosen: string[]): string | undefined => {
    if (chosen.length === words) {
      const label = chosen.join(', ');
      return taken.has(label) ? undefined : label;
    }
    for (let i = from; i < pool.length; i++) {
      const found = pick(i + 1, [...chosen, pool[i]!]);
      if (found) return found;
    }
    return undefined;
  };
  return pick(0, []) ?? first;
}
