/**
 * Every command of the README, run as written in a fresh copy of the repository (the files git
 * would commit, node_modules linked in), must exit 0 and leave the copy as git found it: no
 * rewritten committed file, no stray output outside the ignored out/ folder.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/** Commands this test does not run, and why. */
const NOT_RUN: Record<string, string> = {
  'npm test': 'it runs this test',
  'npm run bench': 'benchmarks that print figures for minutes; no pass or fail',
};

/** The commands of the README's ```sh blocks, one per line, comments removed. */
export function readmeCommands(readme: string): string[] {
  const out: string[] = [];
  for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split('\n')) {
      const command = line.replace(/\s+#.*$/, '').trim();
      if (command && !command.startsWith('#')) out.push(command);
    }
  }
  return out;
}

function sh(cwd: string, command: string, timeoutMs: number): { code: number; output: string } {
  try {
    const output = execFileSync('sh', ['-c', command], {
      cwd,
      timeout: timeoutMs,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: '' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, output };
  } catch (error) {
    const e = error as { status?: number; stdout?: string; stderr?: string };
    return { code: e.status ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** `npm start` serves until stopped: it passes when it prints its URL and that URL answers. */
async function startAndStop(cwd: string, command: string): Promise<{ code: number; output: string }> {
  const port = 4300 + Math.floor(Math.random() * 500);
  const child = spawn('sh', ['-c', command], { cwd, detached: true, env: { ...process.env, PORT: String(port) } });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed in 5 minutes:\n${output}`)), 300_000);
      const check = () => {
        const m = /running at (http\S+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      child.stdout.on('data', check);
      child.on('exit', (code) => reject(new Error(`exited ${code} before serving:\n${output}`)));
    });
    const response = await fetch(url);
    return { code: response.ok ? 0 : 1, output: `${output}GET ${url}: ${response.status}\n` };
  } catch (error) {
    return { code: 1, output: String(error) };
  } finally {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  }
}

describe('the README commands, in a fresh copy of the repository', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const commands = readmeCommands(readme);
  let copy = '';

  beforeAll(() => {
    copy = path.join(mkdtempSync(path.join(tmpdir(), 'readme-')), 'repo');
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\0')
      .filter((f) => f && existsSync(path.join(root, f)));
    for (const f of files) {
      mkdirSync(path.dirname(path.join(copy, f)), { recursive: true });
      copyFileSync(path.join(root, f), path.join(copy, f));
    }
    symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=readme', '-c', 'user.email=readme@test', ...args], { cwd: copy });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'copy');
  }, 120_000);

  afterAll(() => {
    if (copy) rmSync(path.dirname(copy), { recursive: true, force: true });
  });

  it('lists the commands a newcomer runs', () => {
    expect(commands).toContain('npm run sample');
    expect(commands.some((c) => c.startsWith('npm run cli -- score'))).toBe(true);
    expect(commands.some((c) => c.startsWith('npm run cli -- validate static-data/sample/submissions/'))).toBe(true);
  });

  it('runs each one (exit 0) and leaves the copy clean', async () => {
    const failures: string[] = [];
    for (const command of commands) {
      if (NOT_RUN[command]) continue;
      // A fresh clone would install; the copy links the installed node_modules instead.
      const run = command.replace(/^npm install && /, '');
      const result = run.startsWith('npm start') ? await startAndStop(copy, run) : sh(copy, run, 600_000);
      if (result.code !== 0) failures.push(`${command}\n  exit ${result.code}\n${result.output.slice(-2000)}`);
    }
    expect(failures).toEqual([]);
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: copy, encoding: 'utf8' });
    expect(status, 'files the README commands changed or left behind').toBe('');
  }, 1_500_000);
});
