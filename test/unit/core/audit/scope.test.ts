import { describe, expect, it } from 'vitest';
import { localDataScope, releaseOrigin, type PinnedFile } from '../../../../src/core/audit/scope.ts';
import { notOwnOrigin } from '../../../../src/app/lib/release-origin.ts';

const pinned = (sha: string): PinnedFile[] => [
  { path: 'questions.jsonl', kind: 'questions', pin: 'ok', sha256: sha },
  { path: 'docs.parquet', kind: 'docs', pin: 'pending' },
  { path: 'tasks.jsonl', kind: 'tasks', pin: 'ok', sha256: 'tt' },
];

describe('where local data is kept', () => {
  it('by origin and pins, never by the id a release claims', () => {
    const page = 'https://explorer.example/app/';
    const own = localDataScope({ kind: 'url', base: 'static-data/sample/' }, page, pinned('aa'));
    expect(own).toBe('https://explorer.example/app/static-data/sample/#questions.jsonl=aa');
    // the same claimed id on another host, with the same pins, is another scope
    const impostor = localDataScope({ kind: 'url', base: 'https://evil.example/sample/' }, page, pinned('aa'));
    expect(impostor).not.toBe(own);
    // the same place with other questions is another release
    expect(localDataScope({ kind: 'url', base: 'static-data/sample/' }, page, pinned('bb'))).not.toBe(own);
    // a query or fragment does not make a new place; no pins says so
    expect(releaseOrigin({ kind: 'url', base: 'https://h.example/r/?x=1#y' }, page)).toBe('https://h.example/r/');
    expect(localDataScope({ kind: 'files', label: 'v1.0', files: [] }, page, [])).toBe('files:v1.0#unpinned');
  });

  it("names the host beside a title that is not the site's own", () => {
    expect(notOwnOrigin({ kind: 'shipped', id: 'sample' })).toBeUndefined();
    expect(notOwnOrigin(undefined)).toBeUndefined();
    expect(notOwnOrigin({ kind: 'url', base: 'https://evil.example/v1/' })).toBe('evil.example');
    expect(notOwnOrigin({ kind: 'url', base: 'http://127.0.0.1:9/v1/' })).toBe('http://127.0.0.1:9');
    expect(notOwnOrigin({ kind: 'folder', name: 'v1.0' })).toBe('folder v1.0');
  });
});
