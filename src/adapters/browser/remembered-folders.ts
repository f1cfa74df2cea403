/**
 * Release folders the user picked, remembered as FileSystemDirectoryHandles in IndexedDB (where
 * the browser has the File System Access API: Chromium), so that "Reopen <name>" and a reload
 * open the same folder again. Reading a handle needs the user's permission again in most
 * browsers; it is asked from the click that reopens it.
 */
import { errorMessage } from '../../core/error-message.ts';
import { promised } from './idb.ts';

export const FOLDERS_DB = 'ebx-folders';
export const FOLDERS_STORE = 'folders';
const VERSION = 1;
/** Only the most recent folders are kept. */
const KEEP = 5;
/** A folder with more files than this is not a release (e.g. a home folder picked by mistake). */
const MAX_FILES = 20_000;

/** The parts of the File System Access API used here (not all of it is in TypeScript's DOM types). */
interface PermissionedHandle {
  queryPermission?(options: { mode: 'read' }): Promise<PermissionState>;
  requestPermission?(options: { mode: 'read' }): Promise<PermissionState>;
}
type DirectoryHandle = FileSystemDirectoryHandle &
  PermissionedHandle & {
    values(): AsyncIterable<FileSystemHandle>;
  };

export interface RememberedFolder {
  name: string;
  /** When it was last opened (ms since the epoch). */
  at: number;
}

interface Stored extends RememberedFolder {
  handle: DirectoryHandle;
}

export interface FolderFile {
  path: string;
  file: File;
}

export type ReopenOutcome =
  | { ok: true; files: FolderFile[] }
  | { ok: false; reason: 'unknown' | 'denied' | 'needs-click' | 'unreadable'; message: string };

/** Whether this browser can hand out directory handles at all. */
export function canRememberFolders(): boolean {
  return (
    typeof indexedDB !== 'undefined' &&
    typeof (globalThis as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function'
  );
}

async function openDb(): Promise<IDBDatabase> {
  const request = indexedDB.open(FOLDERS_DB, VERSION);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(FOLDERS_STORE))
      request.result.createObjectStore(FOLDERS_STORE, { keyPath: 'name' });
  };
  return promised(request);
}

async function withStore<T>(mode: IDBTransactionMode, fn: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await promised(fn(db.transaction(FOLDERS_STORE, mode).objectStore(FOLDERS_STORE)));
  } finally {
    db.close();
  }
}

function isStored(value: unknown): value is Stored {
  const v = value as Partial<Stored> | null;
  return typeof v?.name === 'string' && typeof v.at === 'number' && typeof v.handle === 'object' && v.handle !== null;
}

async function allStored(): Promise<Stored[]> {
  const rows = await withStore('readonly', (s) => s.getAll());
  return rows.filter(isStored).sort((a, b) => b.at - a.at);
}

/** The remembered folders, most recent first; empty where IndexedDB is unavailable. */
export async function rememberedFolders(): Promise<RememberedFolder[]> {
  try {
    return (await allStored()).map(({ name, at }) => ({ name, at }));
  } catch {
    return [];
  }
}

/** Remembers a folder under its name (a folder of the same name replaces it); keeps the last few. */
export async function rememberFolder(handle: FileSystemDirectoryHandle): Promise<void> {
  await withStore('readwrite', (s) => s.put({ name: handle.name, at: Date.now(), handle }));
  const stale = (await allStored()).slice(KEEP);
  for (const old of stale) await withStore('readwrite', (s) => s.delete(old.name));
}

export async function forgetFolder(name: string): Promise<void> {
  await withStore('readwrite', (s) => s.delete(name));
}

/** Asks the user for a folder (File System Access API), or undefined when they cancel. */
export async function pickFolder(): Promise<FileSystemDirectoryHandle | undefined> {
  const picker = (globalThis as { showDirectoryPicker?: (o: { mode: 'read' }) => Promise<FileSystemDirectoryHandle> })
    .showDirectoryPicker;
  if (!picker) return undefined;
  try {
    return await picker({ mode: 'read' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return undefined;
    throw error;
  }
}

/** Every file of a folder, with paths that start with the folder's name (as a picked folder's files have). */
export async function filesOfFolder(handle: FileSystemDirectoryHandle): Promise<FolderFile[]> {
  const out: FolderFile[] = [];
  const walk = async (dir: DirectoryHandle, prefix: string): Promise<void> => {
    for await (const entry of dir.values()) {
      if (out.length > MAX_FILES)
        throw new Error(`${handle.name} holds more than ${MAX_FILES} files: not a release folder`);
      if (entry.kind === 'file')
        out.push({ path: `${prefix}${entry.name}`, file: await (entry as FileSystemFileHandle).getFile() });
      else await walk(entry as DirectoryHandle, `${prefix}${entry.name}/`);
    }
  };
  await walk(handle as DirectoryHandle, `${handle.name}/`);
  return out;
}

/**
 * Reads a remembered folder again. `fromClick` says whether a user gesture is on the stack: only
 * then may the browser ask for permission; otherwise 'needs-click' tells the page to offer a button.
 */
export async function reopenFolder(name: string, fromClick: boolean): Promise<ReopenOutcome> {
  let stored: Stored | undefined;
  try {
    const value: unknown = await withStore('readonly', (s) => s.get(name));
    stored = isStored(value) ? value : undefined;
  } catch {
    stored = undefined;
  }
  if (!stored)
    return { ok: false, reason: 'unknown', message: `This browser does not remember a folder named "${name}".` };
  const handle = stored.handle;
  let permission: PermissionState = (await handle.queryPermission?.({ mode: 'read' })) ?? 'granted';
  if (permission !== 'granted') {
    if (!fromClick)
      return { ok: false, reason: 'needs-click', message: `Reading "${name}" again needs your permission.` };
    permission = (await handle.requestPermission?.({ mode: 'read' })) ?? 'denied';
    if (permission !== 'granted')
      return { ok: false, reason: 'denied', message: `Permission to read "${name}" was not given.` };
  }
  try {
    const files = await filesOfFolder(handle);
    await withStore('readwrite', (s) => s.put({ ...stored, at: Date.now() }));
    return { ok: true, files };
  } catch (error) {
    return {
      ok: false,
      reason: 'unreadable',
      message: `"${name}" could not be read (${errorMessage(error)}); it may have been moved or deleted. Pick it again.`,
    };
  }
}
