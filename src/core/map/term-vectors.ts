/**
 * TF-IDF vectors of short texts (the tasks' questions): the vectors a map is laid out from when
 * no model is asked for. Terms are the benchmark's tokens; a term in one text only says nothing
 * about neighbours and is dropped. Rows are sparse (a question has a dozen terms of thousands),
 * so the exact nearest neighbours of every row come from an inverted index in milliseconds.
 */
import { tokenize } from '../retrieval/tokenize.ts';

/** One L2-normalised row: its terms' columns (ascending) and weights. Empty when no term is kept. */
export interface SparseRow {
  columns: Int32Array;
  weights: Float64Array;
}

export interface TermVectors {
  /** The kept terms, sorted (the columns). */
  terms: string[];
  rows: SparseRow[];
}

export function termVectors(texts: readonly string[]): TermVectors {
  const tokens = texts.map((t) => tokenize(t));
  const df = new Map<string, number>();
  for (const list of tokens) for (const term of new Set(list)) df.set(term, (df.get(term) ?? 0) + 1);
  const terms = [...df].filter(([, n]) => n >= 2 && n < texts.length).map(([t]) => t);
  terms.sort();
  const column = new Map(terms.map((t, i) => [t, i]));
  const idf = terms.map((t) => Math.log((1 + texts.length) / (1 + df.get(t)!)) + 1);
  const rows = tokens.map((list): SparseRow => {
    const counts = new Map<number, number>();
    for (const term of list) {
      const c = column.get(term);
      if (c !== undefined) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    const columns = Int32Array.from([...counts.keys()].sort((a, b) => a - b));
    // Sublinear term frequency: a word said twice is not twice as much about it.
    const weights = Float64Array.from(columns, (c) => (1 + Math.log(counts.get(c)!)) * idf[c]!);
    const norm = Math.sqrt(weights.reduce((s, w) => s + w * w, 0));
    if (norm > 0) for (let i = 0; i < weights.length; i++) weights[i]! /= norm;
    return { columns, weights };
  });
  return { terms, rows };
}

export interface Neighbours {
  /** Per row, the `k` nearest rows, itself first (as UMAP expects), nearest to farthest. */
  indices: number[][];
  /** Their cosine distances. */
  distances: number[][];
}

/** The exact `k` nearest rows of every row by cosine distance; ties go to the lower index. */
export function nearestNeighbours(rows: readonly SparseRow[], k: number): Neighbours {
  const postings = new Map<number, Array<{ row: number; weight: number }>>();
  rows.forEach((r, row) =>
    r.columns.forEach((c, i) => {
      let list = postings.get(c);
      if (!list) postings.set(c, (list = []));
      list.push({ row, weight: r.weights[i]! });
    }),
  );
  const dot = new Float64Array(rows.length);
  const indices: number[][] = [];
  const distances: number[][] = [];
  rows.forEach((r, self) => {
    // Only rows sharing a term with this one can be nearer than distance 1.
    const touched: number[] = [];
    r.columns.forEach((c, i) => {
      for (const p of postings.get(c)!) {
        if (dot[p.row] === 0) touched.push(p.row);
        dot[p.row]! += r.weights[i]! * p.weight;
      }
    });
    const near = touched
      .filter((j) => j !== self && dot[j]! > 0)
      .sort((a, b) => dot[b]! - dot[a]! || a - b)
      .slice(0, k - 1);
    const nearDistances = near.map((j) => Math.max(0, 1 - dot[j]!));
    // Too few rows share a term: the rest are at distance 1, lowest index first.
    const chosen = new Set(near);
    for (let j = 0; near.length < k - 1 && j < rows.length; j++)
      if (j !== self && !chosen.has(j)) {
        near.push(j);
        nearDistances.push(1);
      }
    for (const j of touched) dot[j] = 0;
    indices.push([self, ...near]);
    distances.push([0, ...nearDistances]);
  });
  return { indices, distances };
}
