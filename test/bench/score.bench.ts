/**
 * Score page timings in Chromium (standalone: `npx vite build --logLevel warn && npx tsx test/bench/score.bench.ts`).
 * Synthesises 1,038 tasks and predictions from the embedded sample release, imports a judge cache
 * holding every reply, then times (1) validation + deterministic metrics of the predictions file and
 * (2) the full report from the warm cache. Goals: under 200 ms and under 1 s.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { preview } from 'vite';
import { serializeVerdictsJson } from '../../src/core/judge/cache.ts';
import type { Task } from '../../src/core/release/types.ts';
import { sampleJudge } from '../../src/core/sample/sample-judge.ts';
import { parsePredictions } from '../../src/core/scoring/predictions.ts';
import { scoreSubmission } from '../../src/core/scoring/score.ts';
import { parseJudgeProfile, parseTasksJsonl } from '../../src/core/scoring/scoring-inputs.ts';
import { chromiumLaunchOptions } from '../e2e/find-browser.ts';

const N_TASKS = 1038;
const RUNS = 5;
const root = path.resolve(import.meta.dirname, '../..');
const dist = path.join(root, 'dist');
const sample = path.join(root, 'static-data/sample');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function synthesise(): Promise<{ tasks: string; predictions: string; profile: string; verdicts: string }> {
  const baseTasks = parseTasksJsonl(readFileSync(path.join(sample, 'full/tasks.jsonl'), 'utf8'));
  const basePreds = readFileSync(path.join(sample, 'submissions/bm25-top-doc-sample/predictions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { task_id: string; usage?: unknown });
  const predOf = new Map(basePreds.map((p) => [p.task_id, p]));
  const tasks: Task[] = [];
  const preds: unknown[] = [];
  for (let i = 0; i < N_TASKS; i++) {
    const t = baseTasks[i % baseTasks.length]!;
    const id = `${t.task_id.slice(0, -4)}${String(i).padStart(4, '0')}`;
    tasks.push({ ...t, task_id: id });
    preds.push({
      ...predOf.get(t.task_id),
      task_id: id,
      usage: { input_tokens: 1200 + i, output_tokens: 80 },
      cost_usd: 0.0021,
    });
  }
  const tasksText = `${tasks.map((t) => JSON.stringify(t)).join('\n')}\n`;
  const predictionsText = `${preds.map((p) => JSON.stringify(p)).join('\n')}\n`;
  const profileText = readFileSync(path.join(sample, 'judge-profile.json'), 'utf8');
  const predictions = parsePredictions(predictionsText, tasks);
  const replies = new Map<string, string>();
  const answers = new Map([...predictions.byTaskId].map(([id, p]) => [id, p.answer]));
  await scoreSubmission({
    tasks,
    predictions,
    profile: parseJudgeProfile(JSON.parse(profileText)),
    judge: sampleJudge(tasks, answers, replies),
  });
  return {
    tasks: tasksText,
    predictions: predictionsText,
    profile: profileText,
    verdicts: serializeVerdictsJson(replies),
  };
}

async function main(): Promise<void> {
  if (!existsSync(path.join(dist, 'index.html')))
    throw new Error('dist/ is missing: run `npx vite build --logLevel warn` first');
  const files = await synthesise();
  // vite preview serves dist/ as the site is served (wasm MIME types, static-data)
  const server = await preview({ root, logLevel: 'warn', preview: { port: 0, host: '127.0.0.1', open: false } });
  const base = (server.resolvedUrls?.local[0] ?? '').replace(/\/$/, '');
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/?view=score`);
    await page.getByTestId('inputs-state').filter({ hasText: 'Tasks:' }).waitFor({ timeout: 120_000 });
    const file = (name: string, text: string) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.getByTestId('tasks-file').setInputFiles(file('tasks.jsonl', files.tasks));
    await page.getByTestId('profile-file').setInputFiles(file('judge-profile.json', files.profile));
    await page
      .getByTestId('inputs-state')
      .filter({ hasText: `(${N_TASKS})` })
      .waitFor();
    await page.getByTestId('cache-import-file').setInputFiles(file('verdicts.json', files.verdicts));
    await page.getByTestId('cache-message').filter({ hasText: 'Imported' }).waitFor();

    const validatePage: number[] = [];
    const validateWorker: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await page.getByTestId('predictions-file').setInputFiles(file(`predictions-${i}.jsonl`, files.predictions));
      const ok = page.getByTestId('validation-ok').filter({ hasText: `predictions-${i}.jsonl` });
      await ok.waitFor();
      await page.getByTestId('deterministic').waitFor();
      const text = await ok.innerText();
      validateWorker.push(Number(/in the worker (\d+) ms/.exec(text)?.[1]));
      validatePage.push(Number(/page (\d+) ms/.exec(text)?.[1]));
    }
    await page.getByTestId('judge-uncached').filter({ hasText: /^0$/ }).waitFor();

    const report: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await page.getByTestId('score-run').click();
      await page.getByTestId('score-run').waitFor({ state: 'attached' });
      await page.waitForFunction(() => {
        const button = document.querySelector('[data-testid="score-run"]') as HTMLButtonElement | null;
        return button !== null && !button.disabled && document.querySelector('[data-testid="scorecard"]') !== null;
      });
      report.push(performance.now() - t0);
    }
    const line = (label: string, xs: number[], goal: number) =>
      `${label.padEnd(58)} median ${median(xs).toFixed(0).padStart(5)} ms  (runs ${xs.map((x) => x.toFixed(0)).join(', ')}; goal < ${goal} ms)`;
    console.log(`score page, ${N_TASKS} predictions, Chromium`);
    console.log(line('validate + deterministic metrics, in the worker', validateWorker, 200));
    console.log(line('validate + deterministic metrics, page to worker and back', validatePage, 200));
    console.log(line('full report from a warm judge cache, click to rendered', report, 1000));
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
