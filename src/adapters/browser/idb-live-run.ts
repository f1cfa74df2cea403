import { finished, promised } from './idb.ts';

/**
 * The live judge run under way, kept so that a reload can resume it without the user picking the
 * predictions again: the predictions themselves (a file's bytes, or a release submission's slug),
 * the release and the tasks they were judged against. Replies are in the judge cache already.
 */
export interface LiveRunRecord {
  /** The release the run scored against (sourceKey of its spec). */
  release: string;
  tasks: { kind: 'release'; split: string } | { kind: 'file' };
  predictions: { kind: 'file'; name: string; blob: Blob } | { kind: 'submission'; slug: string };
  startedAt: string;
}

const DB = 'ebx-live-run';
const STORE = 'runs';
const KEY = 'current';

async function open(factory: IDBFactory): Promise<IDBDatabase> {
  const request = factory.open(DB, 1);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
  };
  return promised(request);
}

/** Keeps the run's record; a browser that refuses storage only loses the offer to resume. */
export async function saveLiveRun(record: LiveRunRecord, factory: IDBFactory = indexedDB): Promise<boolean> {
  try {
    const db = await open(factory);
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(record, KEY);
    await finished(tx);
    db.close();
    return true;
  } catch {
    return false;
  }
}

export async function loadLiveRun(factory: IDBFactory = indexedDB): Promise<LiveRunRecord | undefined> {
  try {
    const db = await open(factory);
    const value = (await promised(db.transaction(STORE, 'readonly').objectStore(STORE).get(KEY))) as unknown;
    db.close();
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export async function clearLiveRun(factory: IDBFactory = indexedDB): Promise<void> {
  try {
    const db = await open(factory);
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).delete(KEY);
    await finished(tx);
    db.close();
  } catch {
    // nothing was kept
  }
}

function isRecord(value: unknown): value is LiveRunRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Partial<LiveRunRecord>;
  const p = r.predictions;
  return (
    typeof r.release === 'string' &&
    typeof r.tasks === 'object' &&
    typeof p === 'object' &&
    p !== null &&
    ((p.kind === 'file' && typeof p.name === 'string' && p.blob instanceof Blob) ||
      (p.kind === 'submission' && typeof p.slug === 'string'))
  );
}
