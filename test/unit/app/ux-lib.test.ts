import { describe, expect, it } from 'vitest';
import { splitDocIds } from '../../../src/app/lib/doc-ids.ts';
import { controlsAboveBest, formatScoreValue, type BoardRow } from '../../../src/app/lib/leaderboard.ts';
import { isPlainClick } from '../../../src/app/lib/links.ts';
import { embedTitle, pageTitle } from '../../../src/app/lib/page-title.ts';
import { typeInterval } from '../../../src/app/lib/per-type-ci.ts';
import { ariaSort, nextSort, sortParams } from '../../../src/app/lib/sort.ts';
import type { ScoreReport } from '../../../src/core/release/types.ts';

describe('column sort', () => {
  it('cycles ascending, descending, none on the same column', () => {
    const a = nextSort<'x' | 'y'>({ by: undefined, desc: false }, 'x');
    expect(a).toEqual({ by: 'x', desc: false });
    const b = nextSort(a, 'x');
    expect(b).toEqual({ by: 'x', desc: true });
    expect(nextSort(b, 'x')).toEqual({ by: undefined, desc: false });
  });
  it('starts ascending on another column, whatever the current direction', () => {
    expect(nextSort<'x' | 'y'>({ by: 'x', desc: true }, 'y')).toEqual({ by: 'y', desc: false });
  });
  it('writes readable URL parameters with defaults left out', () => {
    expect(sortParams({ by: 'x', desc: true })).toEqual({ sort: 'x', desc: '1' });
    expect(sortParams({ by: 'x', desc: false })).toEqual({ sort: 'x', desc: undefined });
    expect(sortParams({ by: undefined, desc: false })).toEqual({ sort: undefined, desc: undefined });
    expect(ariaSort({ by: 'x', desc: true }, 'x')).toBe('descending');
    expect(ariaSort({ by: 'x', desc: true }, 'y')).toBe('none');
  });
});

describe('links', () => {
  const click = (over: Partial<MouseEvent>) =>
    ({
      button: 0,
      ctrlKey: false,
      metaKey: false,
      shiftKey: false,
      altKey: false,
      defaultPrevented: false,
      ...over,
    }) as MouseEvent;
  it('leaves modified and middle clicks to the browser', () => {
    expect(isPlainClick(click({}))).toBe(true);
    expect(isPlainClick(click({ ctrlKey: true }))).toBe(false);
    expect(isPlainClick(click({ metaKey: true }))).toBe(false);
    expect(isPlainClick(click({ shiftKey: true }))).toBe(false);
    expect(isPlainClick(click({ button: 1 }))).toBe(false);
  });
});

describe('page titles', () => {
  const t = (search: string, label = 'Tasks') =>
    pageTitle({
      view: new URLSearchParams(search).get('view') ?? undefined,
      params: new URLSearchParams(search),
      viewLabel: label,
    });
  it('name what the page shows, then the app', () => {
    expect(t('')).toBe('Tasks – Epstein Bench Explorer');
    expect(t('split=dev')).toBe('Tasks (dev split) – Epstein Bench Explorer');
    expect(t('view=task&task=be905c76-7561-472b-a9f3-8c21162df5c4&split=full')).toBe(
      'Task be905c76 – Epstein Bench Explorer',
    );
    expect(t('view=doc&doc=SMPL00005490')).toBe('Document SMPL00005490 – Epstein Bench Explorer');
    expect(t('view=leaderboard', 'Leaderboard')).toBe('Leaderboard – Epstein Bench Explorer');
    expect(t('view=rejections&candidate=abcdef12-0000')).toBe('Rejected candidate abcdef12 – Epstein Bench Explorer');
    expect(embedTitle(new URLSearchParams('task=be905c76-7561'))).toBe('Task be905c76 – Epstein Bench');
  });
});

describe('document ids in free text', () => {
  it('are split out in order, the rest kept as text', () => {
    expect(splitDocIds('top-5 were SMPL00012345 and EFTA00138265; none said so')).toEqual([
      { text: 'top-5 were ' },
      { text: 'SMPL00012345', docId: 'SMPL00012345' },
      { text: ' and ' },
      { text: 'EFTA00138265', docId: 'EFTA00138265' },
      { text: '; none said so' },
    ]);
    expect(splitDocIds('no ids here')).toEqual([{ text: 'no ids here' }]);
  });
});

describe('leaderboard numbers', () => {
  it('are formatted for reading, not printed as raw floats', () => {
    expect(formatScoreValue('overall_cited_correctness', 0.2425925925925926)).toBe('24.3%');
    expect(formatScoreValue('per_type.false_premise', 1)).toBe('100.0%');
    expect(formatScoreValue('overall_cited_correctness_ci95', [0.183333, 0.304444])).toBe('18.3% – 30.4%');
    expect(formatScoreValue('retrieval.ndcg@10', 0.41234567)).toBe('0.412');
    expect(formatScoreValue('n_tasks', 1038)).toBe('1,038');
    expect(formatScoreValue('premise_refused_n', 15)).toBe('15');
    expect(formatScoreValue('cost_usd_per_task', 0.0123456)).toBe('$0.0123');
    expect(formatScoreValue('judge_model', 'sample-judge-1')).toBe('sample-judge-1');
  });
  it('finds controls that beat the best ranked system', () => {
    const row = (name: string, score: number, control: boolean, rank?: number): BoardRow => ({
      name,
      display: name,
      control,
      selfRun: false,
      ...(rank ? { rank } : {}),
      report: { overall_cited_correctness: score } as ScoreReport,
    });
    const rows = [row('bm25', 0.24, false, 1), row('refuse', 0.33, true), row('closed', 0, true)];
    expect(controlsAboveBest(rows).map((r) => r.name)).toEqual(['refuse']);
  });
});

describe('per-type interval', () => {
  it('brackets the mean, is reproducible and collapses for constant scores', () => {
    const values: number[] = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const ci = typeInterval(values)!;
    expect(ci[0]).toBeLessThan(mean);
    expect(ci[1]).toBeGreaterThan(mean);
    expect(typeInterval(values)).toEqual(ci);
    expect(typeInterval([1, 1, 1])).toEqual([1, 1]);
    expect(typeInterval([])).toBeUndefined();
  });
});
