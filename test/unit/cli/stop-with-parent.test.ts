/**
 * npm start's server stops with the process that started it: killing npm (whose shell then
 * dies) leaves an orphan that must stop serving rather than keep the port.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const module = path.resolve('src/cli/stop-with-parent.ts');
const server = `
import { createServer } from 'node:http';
import { stopWithParent } from ${JSON.stringify(module)};
const s = createServer((_, res) => res.end('ok')).listen(0, '127.0.0.1', () => {
  stopWithParent(() => new Promise((r) => s.close(() => r())), 50);
  console.log(JSON.stringify({ pid: process.pid, port: s.address().port }));
});
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

describe('stopWithParent', () => {
  it('stops serving when its parent shell is killed outright', async () => {
    // `; :` keeps the shell alive as the server's parent, as npm's `sh -c` does.
    const shell = spawn('sh', ['-c', `node --import tsx --input-type=module -e "$SERVER"; :`], {
      env: { ...process.env, SERVER: server },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const started = await new Promise<{ pid: number; port: number }>((resolve) =>
      shell.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()) as { pid: number; port: number })),
    );
    expect(await (await fetch(`http://127.0.0.1:${started.port}/`)).text()).toBe('ok');
    shell.kill('SIGKILL');
    await until(() => !alive(started.pid));
    await expect(fetch(`http://127.0.0.1:${started.port}/`)).rejects.toThrow();
  }, 30_000);

  it('closes its server on SIGTERM', async () => {
    const child = spawn('node', ['--import', 'tsx', '--input-type=module', '-e', server], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const started = await new Promise<{ pid: number; port: number }>((resolve) =>
      child.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()) as { pid: number; port: number })),
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${started.port}/`)).rejects.toThrow();
  }, 30_000);
});
