import { describe, expect, it } from 'vitest';
import { entriesWithoutSubmission, leaderboardSlugs, submissionSlug } from '../../../../src/core/release/layout.ts';
import { loadRelease, readAhead, ReleaseRefused } from '../../../../src/core/release/load.ts';
import { sha256Hex } from '../../../../src/core/release/sha256.ts';
import { MemorySource, type ReleaseSource } from '../../../../src/core/release/source.ts';
import { OnlySource } from '../../../../src/core/release/only-source.ts';
import type { LayoutName } from '../../../../src/core/release/layout.ts';
import { repositoryFiles } from '../../../support/repository-mirror.ts';
import { hasShared, releaseText, sharedNote, v10Dir as releaseDir } from '../../../support/shared.ts';

/** A source that cannot be listed (like a URL) and records every path it is asked for. */
class UrlLikeSource implements ReleaseSource {
  readonly asked: string[] = [];
  constructor(
    private readonly files: ReadonlyMap<string, Uint8Array>,
    readonly layoutHint?: LayoutName,
  ) {}
  readonly label = 'url-like';
  list(): undefined {
    return undefined;
  }
  async read(path: string): Promise<Uint8Array | undefined> {
    this.asked.push(path);
    return this.files.get(path);
  }
  async open(): Promise<undefined> {
    return undefined;
  }
}

const SEVEN = [
  'agentic-sonnet-5-reference',
  'hybrid-reference',
  'agentic-opus-4-8-reference',
  'bm25-reference',
  'dense-reference',
  'closed-book-reference',
  'parametric-reference',
];

describe('the benchmark slug rule (submit.py)', () => {
  it('lowercases, replaces runs of other characters by "-" and trims dashes', () => {
    expect(submissionSlug('closed_book (reference)')).toBe('closed-book-reference');
    expect(submissionSlug('agentic-opus-4-8 (reference)')).toBe('agentic-opus-4-8-reference');
    expect(submissionSlug('  My System!! v2 ')).toBe('my-system-v2');
    expect(submissionSlug('***')).toBe('system');
  });

  it.skipIf(!hasShared)(`gives exactly the seven published folders from the leaderboard (${sharedNote})`, () => {
    const board = JSON.parse(releaseText('leaderboard.json')) as { entries: Array<{ system_name: string }> };
    expect(leaderboardSlugs(board.entries)).toEqual(SEVEN);
  });
});

describe('leaderboard entries without a submission', () => {
  it('names each entry no submission belongs to (by folder slug or system name), once, in the leaderboard order', () => {
    const entries = [
      { system_name: 'Zeta (reference)' },
      { system_name: 'bm25 (reference)' },
      { system_name: 'Renamed' },
      { system_name: 'Zeta (reference)' },
      { system_name: 42 },
      { system_name: 'Alpha!' },
    ];
    const submissions = [{ slug: 'bm25-reference' }, { slug: 'other-folder', system_name: 'Renamed' }];
    expect(entriesWithoutSubmission(entries, submissions)).toEqual([
      { system_name: 'Zeta (reference)', slug: 'zeta-reference' },
      { system_name: 'Alpha!', slug: 'alpha' },
    ]);
    expect(entriesWithoutSubmission([], submissions)).toEqual([]);
  });
});

describe('readAhead', () => {
  it('keeps at most `limit` reads in flight and returns each file in order', async () => {
    let inFlight = 0;
    let most = 0;
    const read = async (p: string) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await Promise.resolve();
      inFlight--;
      return new TextEncoder().encode(p);
    };
    const paths = ['a', undefined, 'b', 'c', 'd', 'e'];
    const next = readAhead(paths, read, 3);
    const got: string[] = [];
    for (let i = 0; i < paths.length; i++) {
      const bytes = await next(i);
      got.push(bytes ? new TextDecoder().decode(bytes) : '-');
    }
    expect(got).toEqual(['a', '-', 'b', 'c', 'd', 'e']);
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThan(1);
  });

  it('rejects with the failed read when that file is asked for', async () => {
    const next = readAhead(
      ['ok', 'bad'],
      async (p) => {
        if (p === 'bad') throw new Error('HTTP 500 for bad');
        return new Uint8Array([1]);
      },
      2,
    );
    await expect(next(0)).resolves.toEqual(new Uint8Array([1]));
    await expect(next(1)).rejects.toThrow('HTTP 500 for bad');
  });
});

describe.skipIf(!hasShared)(`the repository layout over the real v1.0 files (${sharedNote})`, () => {
  const files = hasShared ? repositoryFiles(releaseDir) : new Map<string, Uint8Array>();

  it('loads the dataset, the leaderboard and the submissions the leaderboard names, absent ones as missing', async () => {
    const release = await loadRelease(new MemorySource('repo', files));
    expect(release.layout).toBe('repository');
    expect(release.descriptor.title).toBe('Epstein Bench v1.0');
    expect(release.splits.full?.tasks).toHaveLength(1038);
    expect(release.splits.dev?.questions).toHaveLength(50);
    expect(release.leaderboard?.entries).toHaveLength(7);
    expect(release.datasetCard).toBeUndefined();
    const bm25 = release.submissions.find((s) => s.slug === 'bm25-reference');
    expect(bm25?.metadata?.system_name).toBe('bm25 (reference)');
    expect(bm25?.predictionsText?.split('\n').filter(Boolean)).toHaveLength(1038);
    const dense = release.submissions.find((s) => s.slug === 'dense-reference');
    expect(dense?.scores?.system_name).toBe('dense (reference)');
    expect(dense?.predictionsText).toBeUndefined();
    expect(release.submissions.map((s) => s.slug).sort()).toEqual(['bm25-reference', 'dense-reference']);
    expect(release.unsubmitted.map((e) => e.slug)).toEqual(
      SEVEN.filter((s) => s !== 'bm25-reference' && s !== 'dense-reference'),
    );
    expect(release.unsubmitted[0]).toEqual({
      system_name: 'agentic-sonnet-5 (reference)',
      slug: 'agentic-sonnet-5-reference',
    });
    const planned = release.files.filter((f) => f.kind === 'submission_predictions').map((f) => f.path);
    expect(planned).toEqual(SEVEN.map((s) => `submissions/${s}/predictions.jsonl`));
    expect(
      release.files
        .filter((f) => f.pin === 'ok')
        .map((f) => f.path)
        .sort(),
    ).toEqual([
      'dataset/v1.0/dev/questions.jsonl',
      'dataset/v1.0/full/questions.jsonl',
      'submissions/bm25-reference/metadata.json',
    ]);
    expect(release.files.filter((f) => f.status === 'invalid')).toEqual([]);
  });

  it('with the layout hint, a URL source is asked for nothing but the planned files, each once', async () => {
    const source = new UrlLikeSource(files, 'repository');
    const release = await loadRelease(source);
    expect(release.layout).toBe('repository');
    const planned = new Set(release.files.map((f) => f.path));
    expect(source.asked.filter((p) => !planned.has(p))).toEqual([]);
    expect(source.asked).toEqual(expect.arrayContaining(['docs/leaderboard.json', 'dataset/v1.0/manifest.json']));
    expect(new Set(source.asked).size).toBe(source.asked.length);
    expect(source.asked).not.toContain('release.json');
  });

  it('without the hint, a URL source finds the repository after probing release.json and manifest.json', async () => {
    const source = new UrlLikeSource(files);
    const release = await loadRelease(source);
    expect(release.layout).toBe('repository');
    // Besides the planned files, only the other layouts' markers were asked for, each once.
    const planned = new Set(release.files.map((f) => f.path));
    expect(source.asked.filter((p) => !planned.has(p)).sort()).toEqual(['manifest.json', 'release.json']);
    expect(new Set(source.asked).size).toBe(source.asked.length);
    expect(release.submissions.find((s) => s.slug === 'bm25-reference')?.predictionsText).toBeDefined();
  });

  it('through OnlySource (a worker that needs no submissions), no submission or leaderboard file is asked for', async () => {
    const source = new UrlLikeSource(files, 'repository');
    const release = await loadRelease(new OnlySource(source, ['chunks']));
    expect(release.splits.full?.tasks).toHaveLength(1038);
    expect(release.submissions).toEqual([]);
    // Submissions were not read: none is said to be missing.
    expect(release.unsubmitted).toEqual([]);
    expect(source.asked.filter((p) => p.startsWith('submissions/') || p.endsWith('leaderboard.json'))).toEqual([]);
    expect([...source.asked].sort()).toEqual([
      'dataset/v1.0/dev/questions.jsonl',
      'dataset/v1.0/dev/tasks.jsonl',
      'dataset/v1.0/full/questions.jsonl',
      'dataset/v1.0/full/tasks.jsonl',
      'dataset/v1.0/manifest.json',
    ]);
  });

  it('refuses questions that differ from the manifest pin, naming the repository path', async () => {
    const damaged = new Map(files);
    const q = new Uint8Array(damaged.get('dataset/v1.0/full/questions.jsonl')!);
    q[100] = q[100]! ^ 1;
    damaged.set('dataset/v1.0/full/questions.jsonl', q);
    const load = loadRelease(new UrlLikeSource(damaged, 'repository'));
    await expect(load).rejects.toBeInstanceOf(ReleaseRefused);
    await expect(load).rejects.toThrow(
      /^dataset\/v1\.0\/full\/questions\.jsonl: sha256 .*dataset\/v1\.0\/manifest\.json/,
    );
  });

  it('refuses a submission whose metadata pins other questions, naming its metadata.json and both hashes', async () => {
    const damaged = new Map(files);
    const meta = JSON.parse(new TextDecoder().decode(damaged.get('submissions/bm25-reference/metadata.json'))) as {
      questions_sha256: string;
    };
    const other = await sha256Hex('other questions');
    meta.questions_sha256 = other;
    damaged.set('submissions/bm25-reference/metadata.json', new TextEncoder().encode(JSON.stringify(meta)));
    const load = loadRelease(new UrlLikeSource(damaged, 'repository'));
    await expect(load).rejects.toThrow(ReleaseRefused);
    const error = (await load.catch((e: unknown) => e)) as ReleaseRefused;
    expect(error.file).toBe('submissions/bm25-reference/metadata.json');
    expect(error.message).toContain(other);
    expect(error.message).toContain('baeacb246318e6f51ec5d7dc2ce11074435e3a09d9454da2bc7956622b6921f9');
  });

  it('says which file is missing when the hinted repository has no manifest', async () => {
    const empty = new UrlLikeSource(
      new Map([['docs/leaderboard.json', files.get('docs/leaderboard.json')!]]),
      'repository',
    );
    await expect(loadRelease(empty)).rejects.toThrow('dataset/v1.0/manifest.json could not be read');
  });
});
