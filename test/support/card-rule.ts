/**
 * The dataset card's grounding check written again from its words, for tests to compare the
 * audit's counts with (an independent computation, not the audit's code): an answer is grounded
 * when, in one of its gold documents, it occurs lowercased with whitespace collapsed, or at least
 * 60% of its distinct [a-z0-9]{2,} tokens occur among the document's tokens.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './source-shards.ts';

interface CardTask {
  type: string;
  answer?: string | null;
  gold_docs: string[];
}

const collapse = (s: string) => s.toLowerCase().split(/\s+/).filter(Boolean).join(' ');
const tokens = (s: string) => new Set(s.toLowerCase().match(/[a-z0-9]{2,}/g) ?? []);

function grounded(answer: string, text: string): boolean {
  const needle = collapse(answer);
  if (!needle) return false;
  if (collapse(text).includes(needle)) return true;
  const want = tokens(answer);
  if (want.size === 0) return false;
  const have = tokens(text);
  return [...want].filter((t) => have.has(t)).length / want.size >= 0.6;
}

/** The card's line per answer type (`single_hop P% (k/n)`), over the tasks whose gold texts are all given. */
export function cardLines(tasks: readonly CardTask[], texts: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const type of ['single_hop', 'timeline']) {
    const checked = tasks.filter(
      (t) => t.type === type && t.gold_docs.length > 0 && t.gold_docs.every((d) => texts.has(d)),
    );
    const k = checked.filter((t) => t.gold_docs.some((d) => grounded(t.answer ?? '', texts.get(d)!))).length;
    const pct = checked.length ? `${((100 * k) / checked.length).toFixed(1)}%` : 'n/a';
    out[type] = `${type} ${pct} (${k}/${checked.length})`;
  }
  return out;
}

/** The sample's full split answer key. */
export function sampleTasks(): CardTask[] {
  return readFileSync(path.join(projectRoot, 'static-data/sample/full/tasks.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CardTask);
}
