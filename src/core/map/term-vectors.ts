/**
 * TF-IDF vectors of short texts (the tasks' questions): the vectors a map is laid out from when
 * no model is asked for. Terms are the benchmark's tokens; a term in one text only says nothing
 * about neighbours and is dropped. Rows are sparse (a question has a dozen terms of thousands),
 * so the exact nearest neighbours of every row come from an inverted index in milliseconds.
 * A long text (a document's opening) keeps its MAX_TERMS heaviest terms: its neighbours are
 * then exact for those vectors, and the index stays fast (a question never has that many).
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

/** Terms kept per row: 3,073 document openings of ~300 terms took 29 s to join in full, 1 s with 48. */
export const MAX_TERMS = 48;

/** Keeps the `max` heaviest of a row's terms (ties: the lower column), in column order. */
function heaviest(columns: Int32Array, weights: Float64Array, max: number): SparseRow {
  if (columns.length <= max) return { columns, weights };
  const kept = [...columns.keys()]
    .sort((a, b) => weights[b]! - weights[a]! || columns[a]! - columns[b]!)
    .slice(0, max)
    .sort((a, b) => a - b);
  return { columns: Int32Array.from(kept, (i) => columns[i]!), weights: Float64Array.from(kept, (i) => weights[i]!) };
}

export function termVectors(texts: readonly string[], maxTerms = MAX_TERMS): TermVectors {
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
    const all = Int32Array.from([...counts.keys()].sort((a, b) => a - b));
    // Sublinear term frequency: a word said twice is not twice as much about it.
    const { columns, weights } = heaviest(
      all,
      Float64Array.from(all, (c) => (1 + Math.log(counts.get(c)!)) * idf[c]!),
      maxTerms,
    );
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
  // The inverted index in compressed columns: column c's postings are at [start[c], start[c + 1]), in row order.
  const columnCount = rows.reduce(
    (m, r) => (r.columns.length ? Math.max(m, r.columns[r.columns.length - 1]! + 1) : m),
    0,
  );
  const start = new Int32Array(columnCount + 1);
  for (const r of rows) for (const c of r.columns) start[c + 1]!++;
  for (let c = 0; c < columnCount; c++) start[c + 1]! += start[c]!;
  const postingRow = new Int32Array(start[columnCount]!);
  const postingWeight = new Float64Array(start[columnCount]!);
  const fill = start.slice(0, columnCount);
  rows.forEach((r, row) =>
    r.columns.forEach((c, i) => {
      const at = fill[c]!++;
      postingRow[at] = row;
      postingWeight[at] = r.weights[i]!;
    }),
  );
  const dot = new Float64Array(rows.length);
  const touched = new Int32Array(rows.length);
  const indices: number[][] = [];
  const distances: number[][] = [];
  const want = k - 1;
  rows.forEach((r, self) => {
    // Only rows sharing a term with this one can be nearer than distance 1.
    let nTouched = 0;
    r.columns.forEach((c, i) => {
      const w = r.weights[i]!;
      for (let at = start[c]!; at < start[c + 1]!; at++) {
        const j = postingRow[at]!;
        if (dot[j] === 0) touched[nTouched++] = j;
        dot[j]! += w * postingWeight[at]!;
      }
    });
    // The `want` nearest, kept sorted by dot descending, ties by the lower index.
    const near: number[] = [];
    for (let t = 0; t < nTouched; t++) {
      const j = touched[t]!;
      const d = dot[j]!;
      if (j === self || !(d > 0)) continue;
      if (near.length === want) {
        const last = near[want - 1]!;
        if (d < dot[last]! || (d === dot[last]! && j > last)) continue;
        near.pop();
      }
      let at = near.length;
      while (at > 0 && (dot[near[at - 1]!]! < d || (dot[near[at - 1]!]! === d && near[at - 1]! > j))) at--;
      near.splice(at, 0, j);
    }
    const nearDistances = near.map((j) => Math.max(0, 1 - dot[j]!));
    // Too few rows share a term: the rest are at distance 1, lowest index first.
    const chosen = new Set(near);
    for (let j = 0; near.length < want && j < rows.length; j++)
      if (j !== self && !chosen.has(j)) {
        near.push(j);
        nearDistances.push(1);
      }
    for (let t = 0; t < nTouched; t++) dot[touched[t]!] = 0;
    indices.push([self, ...near]);
    distances.push([0, ...nearDistances]);
  });
  return { indices, distances };
}
