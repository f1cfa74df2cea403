import { describe, expect, it } from 'vitest';
import { nextSteps } from '../../../src/app/lib/next-steps.ts';

type Holdings = NonNullable<Parameters<typeof nextSteps>[0]>;
const file = (kind: string, status: 'loaded' | 'missing' | 'deferred' = 'loaded') =>
  ({
    path: `${kind}.jsonl`,
    kind,
    required: false,
    status,
    pin: 'none',
    issues: [],
    issueCount: 0,
  }) as Holdings['files'][number];
const release = (over: Partial<Holdings>): Holdings =>
  ({
    files: [],
    descriptor: { id: 'r', title: 'r', dataset_version: 'v1.0', splits: {}, files: {} },
    hasKey: {},
    ...over,
  }) as Holdings;

describe("the landing's next steps", () => {
  it('offers the rejected candidates, the playground and scoring when the release holds them (the sample)', () => {
    const steps = nextSteps(
      release({
        files: [file('rejected'), file('candidates')],
        descriptor: { ...release({}).descriptor, indexes: { bm25: 'index/bm25.bin' } },
        hasKey: { full: true },
      }),
    );
    expect(steps.map((s) => s.view)).toEqual(['rejections', 'search', 'score']);
  });
  it('leaves out what a release without build logs or indexes cannot show (v1.0)', () => {
    const steps = nextSteps(
      release({
        files: [file('rejected', 'missing')],
        hasKey: { full: true },
        leaderboard: {} as Holdings['leaderboard'],
      }),
    );
    expect(steps.map((s) => s.view)).toEqual(['score', 'leaderboard', 'audit']);
    expect(steps.map((s) => s.text).join(' ')).not.toContain('rejected');
  });
  it('offers nothing before a release is loaded', () => {
    expect(nextSteps(undefined)).toEqual([]);
  });
});
