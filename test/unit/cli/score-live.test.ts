/** `score` with live judging against the local mock judge server, run in-process. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../../src/cli/commands/score.ts';
import { parsePredictions } from '../../../src/core/scoring/predictions.ts';
import { planJudgeCalls, planPremiseCalls } from '../../../src/core/scoring/score.ts';
import { parseJudgeProfile, parseTasksJsonl } from '../../../src/core/scoring/scoring-inputs.ts';
import { promptOf, sampleJudge, startEchoJudge, type MockJudgeServer } from '../../support/mock-judge-server.ts';

const root = path.resolve(__dirname, '../../..');
const sample = path.join(root, 'static-data/sample');
const tasksFile = path.join(sample, 'full/tasks.jsonl');
const profileFile = path.join(sample, 'judge-profile.json');
const KEY_ENV = 'EBX_SCORE_LIVE_TEST_KEY';
const KEY = 'sk-live-test-abcdefghijklmnop';

const mockReply = sampleJudge({
  list: '{"matched_items": [true, false], "extra_items": 1}',
  premise: '{"identified": true}',
});

const tmp = mkdtempSync(path.join(tmpdir(), 'score-live-'));
const predictionsFile = path.join(tmp, 'predictions.jsonl');
let mock: MockJudgeServer;
let expected: Set<string>;

beforeAll(async () => {
  const lines = readFileSync(path.join(sample, 'submissions/bm25-top-doc-sample/predictions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
  const text = `${lines
    .map((l) => {
      const rec = JSON.parse(l) as { answer: string };
      rec.answer = `${rec.answer} [cli live]`;
      return JSON.stringify(rec);
    })
    .join('\n')}\n`;
  writeFileSync(predictionsFile, text);
  const tasks = parseTasksJsonl(readFileSync(tasksFile, 'utf8'));
  const profile = parseJudgeProfile(JSON.parse(readFileSync(profileFile, 'utf8')));
  const preds = parsePredictions(text, tasks, { requireAnswerKey: false });
  const phase1 = await planJudgeCalls(tasks, preds, profile);
  const phase2 = await planPremiseCalls(
    tasks,
    preds,
    profile,
    new Map(phase1.map((c) => [c.key, mockReply(c.prompt)])),
  );
  expected = new Set([...phase1, ...phase2].map((c) => c.prompt));
  mock = await startEchoJudge(mockReply);
  process.env[KEY_ENV] = KEY;
});

afterAll(async () => {
  delete process.env[KEY_ENV];
  await mock.close();
});

afterEach(() => {
  vi.restoreAllMocks();
  mock.requests.length = 0;
  mock.script.length = 0;
});

function quiet(): { stderr: () => string } {
  let err = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  return { stderr: () => err };
}

const base = () => [
  '--tasks',
  tasksFile,
  '--predictions',
  predictionsFile,
  '--judge-profile',
  profileFile,
  '--key-env',
  KEY_ENV,
];

function countFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && e.name.endsWith('.json'),
  ).length;
}

describe('score --key-env (live judging)', () => {
  it('OpenAI format: sends each uncached prompt once with the profile model, writes every reply to the cache folder, then scores', async () => {
    const cacheDir = path.join(tmp, 'cache-openai');
    const out = path.join(tmp, 'scores-openai.json');
    const io = quiet();
    const code = await run([...base(), '--endpoint', `${mock.url}/v1`, '--judge-cache', cacheDir, '--out', out]);
    expect(io.stderr()).toContain('wrote');
    expect(code).toBe(0);
    expect(mock.requests.length).toBe(expected.size);
    for (const r of mock.requests) {
      expect(r.path).toBe('/v1/chat/completions');
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      expect((r.body as { model: string }).model).toBe('sample-judge-1');
      expect(expected.has(promptOf(r))).toBe(true);
    }
    expect(new Set(mock.requests.map(promptOf)).size).toBe(expected.size);
    expect(countFiles(cacheDir)).toBe(expected.size);
    const scores = JSON.parse(readFileSync(out, 'utf8')) as {
      judge_errors: number;
      judge_model: string;
      premise_id_rate?: number;
    };
    expect(scores.judge_errors).toBe(0);
    expect(scores.judge_model).toBe('sample-judge-1');
    expect(scores.premise_id_rate).toBe(1);

    // a second run is answered by the cache alone, and gives the same bytes
    mock.requests.length = 0;
    const out2 = path.join(tmp, 'scores-openai-2.json');
    expect(await run([...base(), '--endpoint', `${mock.url}/v1`, '--judge-cache', cacheDir, '--out', out2])).toBe(0);
    expect(mock.requests.length).toBe(0);
    expect(readFileSync(out2, 'utf8')).toBe(readFileSync(out, 'utf8'));
    // and offline scoring from that folder agrees
    const out3 = path.join(tmp, 'scores-offline.json');
    const offline = ['--tasks', tasksFile, '--predictions', predictionsFile, '--judge-profile', profileFile];
    expect(await run([...offline, '--judge-cache', cacheDir, '--out', out3])).toBe(0);
    expect(readFileSync(out3, 'utf8')).toBe(readFileSync(out, 'utf8'));
  }, 60_000);

  it('Anthropic format into a verdicts.json map', async () => {
    const map = path.join(tmp, 'verdicts-anthropic.json');
    const out = path.join(tmp, 'scores-anthropic.json');
    quiet();
    const code = await run([
      ...base(),
      '--provider',
      'anthropic',
      '--endpoint',
      mock.url,
      '--judge-cache',
      map,
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    expect(mock.requests.length).toBe(expected.size);
    for (const r of mock.requests) {
      expect(r.path).toBe('/v1/messages');
      expect(r.headers['x-api-key']).toBe(KEY);
      expect((r.body as { system: string }).system).toContain('You grade answers');
    }
    const saved = JSON.parse(readFileSync(map, 'utf8')) as Record<string, string>;
    expect(Object.keys(saved).length).toBe(expected.size);
    expect(existsSync(out)).toBe(true);
  }, 60_000);

  it('exits 4 when the judge fails on too many tasks, and never prints the key', async () => {
    mock.script.push(
      ...Array.from({ length: 400 }, () => ({ status: 400, body: { error: { message: `bad request for ${KEY}` } } })),
    );
    const io = quiet();
    const code = await run([
      ...base(),
      '--endpoint',
      `${mock.url}/v1`,
      '--judge-cache',
      path.join(tmp, 'cache-fail'),
      '--concurrency',
      '2',
    ]);
    expect(code).toBe(4);
    expect(io.stderr()).toContain('scoring aborted');
    expect(io.stderr()).not.toContain(KEY);
  }, 60_000);

  it('exits 2 on bad live flags', async () => {
    const io = quiet();
    expect(await run([...base().slice(0, -1), 'EBX_NO_SUCH_VARIABLE', '--judge-cache', path.join(tmp, 'x')])).toBe(2);
    expect(io.stderr()).toContain('EBX_NO_SUCH_VARIABLE');
    expect(await run([...base(), '--provider', 'gemini', '--judge-cache', path.join(tmp, 'x')])).toBe(2);
    expect(
      await run([
        ...base(),
        '--endpoint',
        `${mock.url}/v1`,
        '--model',
        'other-model',
        '--judge-cache',
        path.join(tmp, 'x'),
      ]),
    ).toBe(2);
    expect(io.stderr()).toContain("differs from the judge profile's judge_model");
  }, 60_000);
});
