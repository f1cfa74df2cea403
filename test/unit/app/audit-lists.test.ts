/**
 * The spot-check labels and appeals race: a label or an appeal recorded while the lists of a
 * newly loaded release are still being read (its scope changed, ensure() under way) must be
 * stored under that release's scope, not the previous one's, and stay in the lists once they
 * are read. The store's reads are deferred by hand, so the order is chosen, not raced.
 */
import { describe, expect, it } from 'vitest';
import { APPEAL_FORMAT, type GoldAppeal } from '../../../src/core/audit/appeals.ts';
import { labelKey, type SpotLabel } from '../../../src/core/audit/spot-check/labels.ts';
import { AuditLists, type AuditDb, type LegacyRecords } from '../../../src/app/state/audit-lists.svelte.ts';
import { deferred } from '../../support/deferred.ts';
import { spotLabel } from '../core/audit/spot-label.ts';

/** A store whose reads wait until the test answers them; writes are recorded as "scope key". */
function fakeDb() {
  const reads = new Map<string, ReturnType<typeof deferred<{ labels: SpotLabel[]; appeals: GoldAppeal[] }>>>();
  const readOf = (scope: string) => {
    if (!reads.has(scope)) reads.set(scope, deferred());
    return reads.get(scope)!;
  };
  const writes: string[] = [];
  const db: AuditDb = {
    labels: async (scope) => (await readOf(scope).promise).labels,
    appeals: async (scope) => (await readOf(scope).promise).appeals,
    legacy: async (): Promise<LegacyRecords> => ({ labels: [], appeals: [] }),
    putLabels: async (scope, labels) => void writes.push(...labels.map((l) => `${scope} label ${l.task_id}`)),
    putAppeals: async (scope, appeals) => void writes.push(...appeals.map((a) => `${scope} appeal ${a.appeal_id}`)),
    deleteLabel: async (scope, label) => void writes.push(`${scope} delete ${labelKey(label)}`),
    deleteAppeal: async (scope, id) => void writes.push(`${scope} delete ${id}`),
  };
  const answer = (scope: string, labels: SpotLabel[] = [], appeals: GoldAppeal[] = []) =>
    readOf(scope).resolve({ labels, appeals });
  return { db, writes, answer };
}

function appeal(appeal_id: string): GoldAppeal {
  return {
    format: APPEAL_FORMAT,
    appeal_id,
    release_id: 'r',
    dataset_version: 'v',
    split: 'full',
    task_id: 't9',
    item: null,
    doc_id: 'D1',
    passage_start: null,
    passage: 'a passage',
    note: '',
    reviewer: 'ana',
    created_at: '2026-01-02T00:00:00.000Z',
  };
}

describe('labels and appeals recorded while a release changes', () => {
  it('go to the scope shown when they are made, and stay in its lists once they are read', async () => {
    const { db, writes, answer } = fakeDb();
    let scope = 'https://a.example/release/#questions=1';
    const lists = new AuditLists({
      scope: () => scope,
      identity: () => ({ releaseId: 'r', datasetVersion: 'v' }),
      shipped: () => false,
      openDb: async () => db,
    });
    answer(scope, [spotLabel('t1', 'ana', { answer_right: 'yes' })]);
    await lists.ensure();
    expect(lists.loadedFor).toBe(scope);

    // another release is shown; its lists are being read when the reviewer answers
    scope = 'https://b.example/release/#questions=2';
    const reading = lists.ensure();
    await lists.saveLabel(spotLabel('t9', 'ana', { answer_right: 'no' }));
    await lists.addAppeal(appeal('ap-1'));
    // nothing was written under the first release's scope
    expect(writes.filter((w) => w.startsWith('https://a.example'))).toEqual([]);

    answer(scope, [spotLabel('t2', 'ben', { answer_right: 'yes' })]);
    await reading;
    expect(lists.loadedFor).toBe(scope);
    expect(lists.labels.map((l) => l.task_id).sort()).toEqual(['t2', 't9']);
    expect(lists.appeals.map((a) => a.appeal_id)).toEqual(['ap-1']);
    expect(writes).toEqual([`${scope} label t9`, `${scope} appeal ap-1`]);

    // once read, a change is written at once
    await lists.deleteAppeal('ap-1');
    expect(writes.at(-1)).toBe(`${scope} delete ap-1`);
    expect(lists.appeals).toEqual([]);
  });
});
