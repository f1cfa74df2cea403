/**
 * The release diff as the app's worker runs it (ReleaseDiffSession): both sides read from source
 * specs (picked files here, a URL for the cancellation), the same diff and files as the CLI's
 * path (FolderSource, diffReleases, sharedTasks, filterPredictions), a newer comparison cancelling
 * an older one, and the downloads refused before a comparison or past the size cap.
 */
import { openAsBlob, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import { LoadCancelled } from '../../../../src/core/net/guarded-fetch.ts';
import { diffReleases } from '../../../../src/core/release-diff/diff.ts';
import { ReleaseDiffSession, type DiffInput } from '../../../../src/core/release-diff/session.ts';
import { filterPredictions, sharedTasks } from '../../../../src/core/release-diff/shared-tasks.ts';
import { diffSide } from '../../../../src/core/release-diff/side.ts';
import { writePinnedRelease, type ReleaseTask } from '../../../support/pinned-release.ts';
import { projectRoot } from '../../../support/shared.ts';

const sampleDir = path.join(projectRoot, 'static-data/sample');

/** The sample's full split in the benchmark's layout with its first task dropped and its second answer corrected. */
function editedSample(): string {
  const tasks = readFileSync(path.join(sampleDir, 'full/tasks.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ReleaseTask);
  const edited = tasks.slice(1).map((t, i) => (i === 0 ? { ...t, answer: `${String(t.answer)} (corrected)` } : t));
  return writePinnedRelease(edited, 'v1.0-sample');
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) =>
    statSync(path.join(dir, name)).isDirectory()
      ? listFiles(path.join(dir, name), `${prefix}${name}/`)
      : [`${prefix}${name}`],
  );
}

/** A folder as the page hands picked files over (File blobs read on demand). */
async function picked(dir: string, label: string): Promise<DiffInput> {
  const files = await Promise.all(
    listFiles(dir).map(async (p) => ({
      path: `${path.basename(dir)}/${p}`,
      file: await openAsBlob(path.join(dir, p)),
    })),
  );
  return { spec: { kind: 'files', label, files }, label };
}

describe('ReleaseDiffSession', () => {
  const before = editedSample();

  it('gives the CLI’s diff, shared tasks and shared predictions for picked files', async () => {
    const session = new ReleaseDiffSession({ baseHref: 'http://localhost/' });
    const diff = await session.compare(await picked(before, 'A'), await picked(sampleDir, 'B'));
    const a = await diffSide(new FolderSource(before));
    const b = await diffSide(new FolderSource(sampleDir));
    const expected = diffReleases({ ...a, label: 'A' }, { ...b, label: 'B' });
    expect(diff).toEqual(expected);
    const full = diff.splits.find((s) => s.split === 'full')!;
    expect([full.removed.length, full.changed.length, full.added.length]).toEqual([0, 1, 1]);
    expect(diff.same_label_warning).toMatch(/labelled "v1.0-sample"/);

    const shared = session.sharedTasks('full');
    expect(shared).toEqual(sharedTasks(expected, a, b, 'full'));
    expect(shared.ids.length).toBe(full.unchanged.length);
    const predictions = readFileSync(path.join(sampleDir, 'submissions/bm25-top-doc-sample/predictions.jsonl'), 'utf8');
    const cut = await session.sharedPredictions('full', new Blob([predictions]));
    expect(cut).toEqual(filterPredictions(predictions, new Set(shared.ids)));
    expect(cut.kept).toBeGreaterThan(0);
  });

  it('refuses the downloads before a comparison and a predictions file over the cap', async () => {
    const session = new ReleaseDiffSession({ baseHref: 'http://localhost/', maxPredictionsBytes: 10 });
    expect(() => session.sharedTasks('full')).toThrow(/compare two releases first/);
    await session.compare(await picked(before, 'A'), await picked(before, 'B'));
    await expect(session.sharedPredictions('full', new Blob(['x'.repeat(11)]))).rejects.toThrow(
      /11 bytes; at most 10 bytes/,
    );
  });

  it('a newer comparison cancels one still reading, and only the newer one is kept', async () => {
    const requested: string[] = [];
    // A server that never answers: the request waits until it is aborted.
    const silent: typeof fetch = (input, init) =>
      new Promise((_, reject) => {
        requested.push(String(input));
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
      });
    const session = new ReleaseDiffSession({ baseHref: 'http://localhost/', fetchFn: silent });
    const hung = session.compare(
      { spec: { kind: 'url', base: 'http://localhost:9/release/' }, label: 'hung' },
      await picked(sampleDir, 'B'),
    );
    await expect.poll(() => requested.length).toBeGreaterThan(0);
    const newer = session.compare(await picked(before, 'A'), await picked(before, 'B'));
    await expect(hung).rejects.toBeInstanceOf(LoadCancelled);
    const diff = await newer;
    expect(diff.a.label).toBe('A');
    expect(session.sharedTasks('full').ids.length).toBe(diff.splits[0]!.unchanged.length);
  });
});
