import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { projectRoot } from './support.ts';

export const sampleDir = path.join(projectRoot, 'static-data/sample');

export interface SampleTask {
  task_id: string;
  question: string;
  type: string;
  answer: string | null;
  gold_docs: string[];
  source_doc_ids: string[];
  provenance: Record<string, unknown>;
}

export function jsonl<T>(file: string): T[] {
  return readFileSync(path.join(sampleDir, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
}

/** Opens the app at a query string and waits until the release is loaded. */
export async function openApp(page: Page, search = ''): Promise<void> {
  await page.goto(`/${search}`);
  await expect(page.getByTestId('release-title')).not.toContainText(/loading|no release/);
  await expect(page.getByTestId('load-progress')).toHaveCount(0);
}

/** An in-app navigation (as a link click does): the loaded release stays, no page load. */
export async function go(page: Page, search: string): Promise<void> {
  await page.evaluate((s) => {
    history.pushState(null, '', s || location.pathname);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, search);
}

export interface ViewCase {
  name: string;
  search: string;
  ready: (page: Page) => Locator;
}

/** Every page of the explorer on the sample release, each with what shows it is ready. */
export function sampleViews(): ViewCase[] {
  const task = jsonl<SampleTask>('full/tasks.jsonl').find((t) => t.type === 'aggregation')!;
  const rejected = jsonl<{ task_id: string; reason: string }>('build/rejected.jsonl').find(
    (r) => r.reason === 'necessity',
  )!;
  const target = Object.keys(JSON.parse(readFileSync(path.join(sampleDir, 'targets.json'), 'utf8')) as object)[0]!;
  return [
    { name: 'tasks', search: '', ready: (p) => p.getByTestId('task-row').first() },
    {
      name: 'map',
      search: `?view=map&sel=${task.task_id.slice(0, 8)}`,
      ready: (p) => p.getByTestId('map-composition'),
    },
    {
      name: 'task',
      search: `?view=task&task=${task.task_id}&split=full`,
      ready: (p) => p.getByTestId('gold-doc').first(),
    },
    {
      name: 'doc',
      search: `?view=doc&doc=${task.gold_docs[0]}`,
      ready: (p) => p.getByTestId('doc-uses').locator('li').first(),
    },
    {
      name: 'rejections',
      search: `?view=rejections&candidate=${rejected.task_id}`,
      ready: (p) => p.getByTestId('candidate-why'),
    },
    {
      name: 'entities',
      search: `?view=entities&entity=${encodeURIComponent(target)}`,
      ready: (p) => p.getByTestId('entity-detail').locator('li').first(),
    },
    { name: 'leaderboard', search: '?view=leaderboard', ready: (p) => p.getByTestId('board-row').first() },
    { name: 'systems', search: '?view=systems', ready: (p) => p.getByTestId('systems-row').first() },
    { name: 'card', search: '?view=card', ready: (p) => p.getByTestId('card-verdict') },
    {
      name: 'search',
      search: '?view=search&q=Quillfeather',
      ready: (p) => p.getByTestId('results-hybrid').getByTestId('result-row').first(),
    },
    {
      name: 'score',
      search: '?view=score&submission=bm25-top-doc-sample',
      ready: (p) => p.getByTestId('scorecard'),
    },
    { name: 'audit', search: '?view=audit', ready: (p) => p.getByTestId('grounding-row').first() },
    { name: 'spotcheck', search: '?view=spotcheck&size=5&seed=7', ready: (p) => p.getByTestId('spot-task') },
  ];
}

/** How far the page scrolls sideways (0 when it fits the window). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
