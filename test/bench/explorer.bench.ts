/**
 * Browser bench of the explorer: time from navigation to an interactive Tasks table, to a task
 * detail, and to rows after a jump to the end of the list, on the sample release and on a
 * synthetic 10,000-task release. Needs a build (`npx vite build`); run with
 * `npx tsx test/bench/explorer.bench.ts [--runs N]`. Prints one JSON object.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/find-browser.ts';
import { projectRoot, startStaticServer } from '../e2e/support.ts';

const TYPES = ['single_hop', 'aggregation', 'timeline', 'dossier', 'unanswerable', 'false_premise'] as const;

/** Python json.dumps spacing (", " and ": "); the generated strings hold neither sequence. */
const py = (o: unknown) =>
  JSON.stringify(o).replace(/","/g, '", "').replace(/":/g, '": ').replace(/,"/g, ', "').replace(/],\[/g, '], [');

function syntheticRelease(n: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-bench-'));
  mkdirSync(path.join(dir, 'full'));
  const questions: string[] = [];
  const tasks: string[] = [];
  for (let i = 0; i < n; i++) {
    const type = TYPES[i % 37 === 0 ? 4 : i % 11 === 0 ? 1 : 0]!;
    const task_id = globalThis.crypto.randomUUID();
    const question = `Synthetic question number ${i} about person ${i % 97} and place ${i % 53}?`;
    const list = type === 'aggregation';
    const refusal = type === 'unanswerable';
    const gold = refusal ? [] : [`SYNT${String(i).padStart(8, '0')}`, `SYNT${String(i + 1).padStart(8, '0')}`];
    questions.push(py({ task_id, type, question }));
    tasks.push(
      py({
        task_id,
        type,
        answer: list || refusal ? null : `answer ${i}`,
        items: list ? [{ item: `item ${i}`, doc_ids: gold }] : null,
        source_doc_ids: refusal ? [] : [gold[0]],
        provenance: {
          generator_model: 'bench',
          pipeline_version: '1.1.0',
          ...(type === 'single_hop' ? { salience: 3 + (i % 3) } : {}),
          ...(refusal ? {} : { pool_size: 20 + (i % 40), pool_judge_model: 'bench' }),
        },
        question,
        gold_docs: gold,
      }),
    );
  }
  writeFileSync(path.join(dir, 'full/questions.jsonl'), questions.join('\n') + '\n');
  writeFileSync(path.join(dir, 'full/tasks.jsonl'), tasks.join('\n') + '\n');
  writeFileSync(
    path.join(dir, 'release.json'),
    JSON.stringify({
      id: 'bench-10k',
      title: `Synthetic bench release (${n} tasks)`,
      dataset_version: 'bench',
      splits: { full: { questions: 'full/questions.jsonl', tasks: 'full/tasks.jsonl' } },
      files: {},
    }),
  );
  return dir;
}

async function timeTo(page: Page, act: () => Promise<unknown>, ready: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await act();
  await ready();
  return Math.round(performance.now() - t0);
}

async function measure(page: Page, site: string, query: string) {
  const interactive = await timeTo(
    page,
    () => page.goto(`${site}${query}`),
    () => page.getByTestId('task-row').first().waitFor({ timeout: 120_000 }),
  );
  const rendered = await page.getByTestId('task-row').count();
  const detail = await timeTo(
    page,
    () => page.getByTestId('task-row').first().click(),
    () => page.getByTestId('task-question').waitFor(),
  );
  await page.goBack();
  await page.getByTestId('task-row').first().waitFor();
  const jumpToEnd = await timeTo(
    page,
    () => page.getByTestId('tasks-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight)),
    () => page.locator('[data-testid="task-row"]').last().waitFor(),
  );
  const search = await timeTo(
    page,
    () => page.getByTestId('task-search').fill('person 42'),
    () =>
      page.waitForFunction(
        () =>
          /^\d[\d,]* tasks$/.test(document.querySelector('[data-testid="task-total"]')?.textContent ?? '') &&
          location.search.includes('q='),
      ),
  );
  return {
    interactive_ms: interactive,
    task_detail_ms: detail,
    jump_to_end_ms: jumpToEnd,
    search_ms: search,
    rows_in_dom: rendered,
  };
}

/** The built site as `vite preview` serves it (wasm and worker MIME types included). */
async function startPreview(port: number): Promise<{ url: string; close: () => Promise<void> }> {
  // Node itself, not npx: killing npx would leave the server running.
  const vite = path.join(projectRoot, 'node_modules/vite/bin/vite.js');
  const child = spawn(process.execPath, [vite, 'preview', '--port', String(port), '--strictPort'], {
    cwd: projectRoot,
    stdio: 'ignore',
  });
  const url = `http://localhost:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    close: async () => {
      child.kill();
    },
  };
}

async function main(): Promise<void> {
  const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 1;
  const site = await startPreview(4175);
  const synthetic = syntheticRelease(10_000);
  const data = await startStaticServer(synthetic);
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const out: Record<string, unknown[]> = { sample: [], synthetic_10k: [] };
    for (let r = 0; r < runs; r++) {
      for (const [name, query] of [
        ['sample', ''],
        ['synthetic_10k', `?release=${encodeURIComponent(data.url)}`],
      ] as const) {
        const page = await browser.newPage();
        out[name]!.push(await measure(page, site.url, query));
        await page.close();
      }
    }
    console.log(JSON.stringify(out, null, 2));
  } finally {
    await browser.close();
    await site.close();
    await data.close();
    rmSync(synthetic, { recursive: true, force: true });
  }
}

await main();
