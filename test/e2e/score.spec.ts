import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { hasShared, SKIP_NO_SHARED, sharedDir, v10Dir } from './support.ts';
import { downloaded, jsonlLines, openScorePage, sampleDir, setFile } from './score-support.ts';

const GOLDEN_CASES = ['dev-seed7', 'sample-a-seed5', 'sample-a-edge-seed9'];

test.describe('golden cases of the canonical scorer, scored in the browser', () => {
  test.skip(!hasShared, SKIP_NO_SHARED);
  for (const name of GOLDEN_CASES) {
    test(`${name}: scores.json from an imported verdicts.json equals the golden one`, async ({ page }) => {
      const dir = path.join(sharedDir, 'golden/scoring', name);
      const goldenText = readFileSync(path.join(dir, 'scores.json'), 'utf8');
      const golden = JSON.parse(goldenText) as Record<string, unknown>;
      await openScorePage(page);
      await setFile(page, 'tasks-file', 'tasks.jsonl', readFileSync(path.join(dir, 'tasks.jsonl')));
      await setFile(page, 'profile-file', 'judge-profile.json', readFileSync(path.join(v10Dir, 'judge-profile.json')));
      await expect(page.getByTestId('inputs-state')).toContainText('tasks.jsonl');
      await setFile(page, 'cache-import-file', 'verdicts.json', readFileSync(path.join(dir, 'verdicts.json')));
      await expect(page.getByTestId('cache-message')).toContainText('Imported');
      await setFile(page, 'predictions-file', 'predictions.jsonl', readFileSync(path.join(dir, 'predictions.jsonl')));
      await expect(page.getByTestId('validation-ok')).toBeVisible();
      await expect(page.getByTestId('deterministic')).toBeVisible();
      await page.getByTestId('extra-system-name').fill(String(golden.system_name));
      await page.getByTestId('extra-split').fill(String(golden.split));
      await page.getByTestId('extra-dataset-version').fill(String(golden.dataset_version));
      await expect(page.getByTestId('judge-uncached')).toHaveText('0');
      await page.getByTestId('score-run').click();
      await expect(page.getByTestId('scorecard')).toBeVisible();
      const bytes = (await downloaded(page, 'export-scores')).toString('utf8');
      const exported = JSON.parse(bytes) as Record<string, unknown>;
      expect(Object.keys(exported)).toEqual(Object.keys(golden));
      expect(exported).toStrictEqual(golden);
      // json.dumps writes no final newline; one golden file was saved with one
      expect(bytes).toBe(goldenText.endsWith('}\n') ? goldenText.slice(0, -1) : goldenText);
    });
  }
});

test.describe('bad predictions files get clear messages', () => {
  const lines = () => jsonlLines(path.join(sampleDir, 'submissions/bm25-top-doc-sample/predictions.jsonl'));

  async function check(page: import('@playwright/test').Page, content: string, expected: RegExp[]): Promise<void> {
    await setFile(page, 'predictions-file', 'predictions.jsonl', content);
    const box = page.getByTestId('validation');
    for (const re of expected) await expect(box).toContainText(re);
    await expect(page.getByTestId('score-run')).toBeDisabled();
  }

  test('invalid JSON, 21 citations, duplicate, unknown and missing ids, an empty file', async ({ page }) => {
    await openScorePage(page);
    const ok = lines();

    const badJson = [...ok];
    badJson[2] = '{"task_id": "x", "answer": ';
    await check(page, `${badJson.join('\n')}\n`, [/line 3: expected one JSON object, found invalid JSON/]);

    const tooMany = [...ok];
    const rec = JSON.parse(tooMany[4]!) as { citations: string[] };
    rec.citations = Array.from({ length: 21 }, (_, i) => `SMPL${String(i).padStart(8, '0')}`);
    tooMany[4] = JSON.stringify(rec);
    const odd = JSON.parse(tooMany[6]!) as { answer: unknown };
    odd.answer = 1995;
    tooMany[6] = JSON.stringify(odd);
    // what only the benchmark's validate refuses is scored as score.py reads it, with a warning each
    await setFile(page, 'predictions-file', 'predictions.jsonl', `${tooMany.join('\n')}\n`);
    await expect(page.getByTestId('validation-ok')).toContainText('all scorable');
    const warnings = page.getByTestId('validation-warnings');
    await expect(warnings).toContainText('2 warnings');
    await expect(warnings).toContainText(
      /line 5, field citations: expected at most 20 entries \(validation caps it at 20\), found 21; score\.py counts all 21/,
    );
    await expect(warnings).toContainText(/line 7, field answer: .* score\.py reads it as the string "1995"/);

    const dupUnknown = [...ok, ok[0]!, JSON.stringify({ task_id: 'no-such-task', answer: 'x', citations: [] })];
    dupUnknown.splice(10, 1);
    await check(page, `${dupUnknown.join('\n')}\n`, [
      /line 150, field task_id: expected each task_id once, found "[^"]+" again \(first on line 1\)/,
      /unknown "no-such-task"/,
      /expected a prediction for task "[^"]+" \(tasks line 11, [a-z_]+\), found none/,
      /predictions contain 1 duplicate task_id/,
      /predictions missing 1 task/,
    ]);
    await expect(page.getByTestId('validation-count')).toContainText('3 problems');

    await check(page, '', [/predictions\.jsonl is empty: expected one JSON prediction per line/]);
  });

  test('many problems are capped with a count', async ({ page }) => {
    await openScorePage(page);
    await check(page, Array.from({ length: 300 }, () => 'not json').join('\n'), [/\d+ problems/]);
    await expect(page.getByTestId('validation-issue')).toHaveCount(50);
    await expect(page.getByTestId('validation-more')).toContainText('more');
  });
});

test.describe('the embedded sample release', () => {
  async function outcomeOf(slug: string) {
    const { parseTasksJsonl, parseJudgeProfile } = await import('../../src/core/scoring/scoring-inputs.ts');
    const { parsePredictions } = await import('../../src/core/scoring/predictions.ts');
    const { scoreSubmission } = await import('../../src/core/scoring/score.ts');
    const tasks = parseTasksJsonl(readFileSync(path.join(sampleDir, 'full/tasks.jsonl'), 'utf8'));
    const profile = parseJudgeProfile(JSON.parse(readFileSync(path.join(sampleDir, 'judge-profile.json'), 'utf8')));
    const cache = JSON.parse(readFileSync(path.join(sampleDir, 'judge-cache.json'), 'utf8')) as Record<string, string>;
    const predictions = parsePredictions(
      readFileSync(path.join(sampleDir, `submissions/${slug}/predictions.jsonl`), 'utf8'),
      tasks,
    );
    return scoreSubmission({ tasks, predictions, profile, judge: async (call) => cache[call.key]! });
  }

  test('a reference submission scores offline from the shipped judge cache, ranks on the leaderboard and compares', async ({
    page,
  }) => {
    await openScorePage(page);
    await expect(page.getByTestId('cache-shipped')).not.toHaveText('0');
    await page.getByTestId('release-submission').selectOption('bm25-top-doc-sample');
    await expect(page.getByTestId('validation-ok')).toBeVisible();
    await expect(page.getByTestId('extra-system-name')).toHaveValue('bm25-top-doc sample');
    await expect(page.getByTestId('judge-uncached')).toHaveText('0');
    await expect(page.getByTestId('score-run')).toHaveText(/Score from cache/);
    await page.getByTestId('score-run').click();
    await expect(page.getByTestId('scorecard')).toBeVisible();
    const bytes = (await downloaded(page, 'export-scores')).toString('utf8');
    expect(bytes).toBe(readFileSync(path.join(sampleDir, 'submissions/bm25-top-doc-sample/scores.json'), 'utf8'));

    const board = JSON.parse(readFileSync(path.join(sampleDir, 'leaderboard.json'), 'utf8')) as {
      entries: Array<{ overall_cited_correctness: number }>;
    };
    const mine = (JSON.parse(bytes) as { overall_cited_correctness: number }).overall_cited_correctness;
    // ties share a rank: the file sits with its own committed entry, both numbered alike
    const rank = 1 + board.entries.filter((e) => e.overall_cited_correctness > mine).length;
    expect(board.entries.some((e) => e.overall_cited_correctness === mine)).toBe(true);
    await expect(page.getByTestId('leaderboard-place')).toContainText(`rank ${rank} of ${board.entries.length + 1}`);
    await expect(page.getByTestId('leaderboard-new')).toHaveAttribute('value', String(rank));
    await expect(page.getByTestId('leaderboard-entry').nth(rank - 1)).toHaveAttribute('value', String(rank));

    // per-task verdicts: expand one to see its prompt and reply, filter the refused ones
    await page.getByTestId('verdict-row').first().getByRole('button').click();
    await expect(page.getByTestId('verdict-detail')).toBeVisible();
    await page.getByTestId('verdict-detail').locator('summary').first().click();
    await expect(page.getByTestId('verdict-prompt').first()).toContainText('<system_answer>');
    await expect(page.getByTestId('verdict-reply').first()).toContainText('"correct"');
    await page.getByTestId('filter-refused').check();
    await expect(page.getByTestId('verdict-count')).toContainText(/^\d+ of 150 tasks$/);

    // a second file: per-task deltas and improved/regressed counts
    const [a, b] = [await outcomeOf('bm25-top-doc-sample'), await outcomeOf('always-refuse-sample-control')];
    let improved = 0;
    let regressed = 0;
    a.tasks.forEach((t, i) => {
      const d = t.cited - b.tasks[i]!.cited;
      if (d > 0) improved++;
      if (d < 0) regressed++;
    });
    await page.getByTestId('second-release-submission').selectOption('always-refuse-sample-control');
    await expect(page.getByTestId('validation-second')).toContainText('all valid');
    await page.getByTestId('score-second').click();
    await expect(page.getByTestId('compare-summary')).toBeVisible();
    await expect(page.getByTestId('compare-improved')).toHaveText(`${improved} improved`);
    await expect(page.getByTestId('compare-regressed')).toHaveText(`${regressed} regressed`);
    await expect(page.getByTestId('compare-row')).toHaveCount(Math.min(300, improved + regressed));
  });
});

test('the per-task list honours a selection on the Map page (sel=) until it is cleared', async ({ page }) => {
  const tasks = jsonlLines(path.join(sampleDir, 'full/tasks.jsonl')).map((l) => JSON.parse(l) as { task_id: string });
  const prefixOf = (t: { task_id: string }) => t.task_id.slice(0, 8);
  const unique = tasks.filter((t) => tasks.filter((u) => prefixOf(u) === prefixOf(t)).length === 1);
  const chosen = [unique[5]!, unique[77]!];
  // ?submission= scores a shipped submission on load when its judge calls are all cached.
  await page.goto(`/?view=score&submission=bm25-top-doc-sample&sel=${chosen.map(prefixOf).join('.')}`);
  await expect(page.getByTestId('scorecard')).toBeVisible();
  await expect(page.getByTestId('verdict-count')).toHaveText('2 of 150 tasks');
  await expect(page.getByTestId('verdict-row').locator('code')).toHaveText(chosen.map((t) => t.task_id));
  const bar = page.getByTestId('map-selection');
  await expect(bar).toContainText('2 tasks selected on the map');
  await expect(bar.getByRole('link', { name: 'map' })).toHaveAttribute('href', /view=map/);
  await bar.getByRole('button', { name: 'Clear the selection' }).click();
  await expect(page.getByTestId('verdict-count')).toHaveText('150 of 150 tasks');
  await expect(page.getByTestId('map-selection')).toHaveCount(0);
  await expect(page).not.toHaveURL(/sel=/);
});

test('the judge cache exports and imports as verdicts.json, as a zip and as a folder', async ({ page }) => {
  const { readCacheZip } = await import('../../src/core/judge/cache-zip.ts');
  const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  const shipped = readFileSync(path.join(sampleDir, 'judge-cache.json'), 'utf8');
  const entries = Object.entries(JSON.parse(shipped) as Record<string, string>).slice(0, 25);
  const partial = Object.fromEntries(entries);
  await openScorePage(page);
  await setFile(page, 'cache-import-file', 'part.json', JSON.stringify(partial));
  await expect(page.getByTestId('cache-stored')).toHaveText('25');
  const zip = await downloaded(page, 'cache-export-zip');
  const fromZip = await readCacheZip(new Uint8Array(zip));
  expect(fromZip.map.size).toBe(Object.keys(JSON.parse(shipped) as object).length);
  for (const [k, v] of entries) expect(fromZip.map.get(k)).toBe(v);
  // the verdicts.json export holds the shipped replies and the imported ones, in the benchmark's format
  expect((await downloaded(page, 'cache-export-json')).toString('utf8')).toBe(shipped);

  await page.getByTestId('cache-clear').click();
  await expect(page.getByTestId('cache-stored')).toHaveText('0');
  await setFile(page, 'cache-import-file', 'llm_cache.zip', zip);
  await expect(page.getByTestId('cache-stored')).toHaveText(String(fromZip.map.size));

  await page.getByTestId('cache-clear').click();
  const folder = path.join(mkdtempSync(path.join(os.tmpdir(), 'ebx-cache-')), 'llm_cache');
  for (const [k, v] of entries) {
    mkdirSync(path.join(folder, k.slice(0, 2)), { recursive: true });
    writeFileSync(path.join(folder, k.slice(0, 2), `${k}.json`), JSON.stringify({ text: v }));
  }
  writeFileSync(path.join(folder, 'README.txt'), 'not a cache file');
  await page.getByTestId('cache-import-folder').setInputFiles(folder);
  await expect(page.getByTestId('cache-stored')).toHaveText('25');
  await expect(page.getByTestId('cache-message')).toContainText('1 other files ignored');
  await setFile(page, 'cache-import-file', 'bad.json', '{"abc": "x"}');
  await expect(page.getByTestId('cache-message')).toContainText('bad.json: key "abc" is not a 64-hex-digit cache key');
});
