/**
 * A picked folder is remembered (its FileSystemDirectoryHandle in IndexedDB) and reopened by
 * "Reopen <name>" and by a reload. The native folder picker cannot be driven by a test, so the
 * folder is made in the origin-private file system, whose handles are the same kind and need no
 * permission prompt, and remembered the way the app remembers a picked one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { FOLDERS_DB, FOLDERS_STORE } from '../../src/adapters/browser/remembered-folders.ts';
import { hasShared, SKIP_NO_SHARED, v10Dir } from './support.ts';

test.describe('a remembered release folder', () => {
  test.skip(!hasShared, SKIP_NO_SHARED);

  test('is offered as "Reopen <name>", reopens in one click, and a reload reopens it', async ({ page }) => {
    const files = Object.fromEntries(
      ['manifest.json', 'full/questions.jsonl', 'dev/questions.jsonl', 'dev/tasks.jsonl'].map((f) => [
        f,
        readFileSync(path.join(v10Dir, f), 'utf8'),
      ]),
    );
    await page.goto('/');
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    await page.evaluate(
      async ({ files, db, store }) => {
        const root = await navigator.storage.getDirectory();
        const folder = await root.getDirectoryHandle('v1.0-dev', { create: true });
        for (const [name, text] of Object.entries(files)) {
          const parts = name.split('/');
          let dir = folder;
          for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
          const writable = await (await dir.getFileHandle(parts.at(-1)!, { create: true })).createWritable();
          await writable.write(text);
          await writable.close();
        }
        await new Promise<void>((resolve, reject) => {
          const open = indexedDB.open(db, 1);
          open.onupgradeneeded = () => open.result.createObjectStore(store, { keyPath: 'name' });
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction(store, 'readwrite');
            tx.objectStore(store).put({ name: folder.name, at: Date.now(), handle: folder });
            tx.oncomplete = () => resolve();
            tx.onerror = () => reject(tx.error);
          };
        });
      },
      { files, db: FOLDERS_DB, store: FOLDERS_STORE },
    );

    await page.getByTestId('open-load-dialog').click();
    const reopen = page.getByTestId('remembered-folder');
    await expect(reopen).toHaveText('Reopen v1.0-dev');
    await reopen.click();
    await expect(page.getByTestId('release-title')).toContainText('Epstein Bench v1.0');
    await expect(page.getByTestId('task-total')).toContainText('tasks');
    await expect(page).toHaveURL(/release=folder%3Av1\.0-dev/);

    await page.reload();
    await expect(page.getByTestId('release-title')).toContainText('Epstein Bench v1.0');
    // The header names the release; where it was read from is in the release details.
    await expect(page.getByTestId('release-where')).toContainText('v1.0-dev');
    await expect(page).toHaveURL(/release=folder%3Av1\.0-dev/);
  });

  test('picked files cannot be reopened by a link: it says so instead of showing the sample', async ({ page }) => {
    await page.goto('/?release=files:picked%20files');
    await expect(page.getByTestId('load-error')).toContainText('a browser cannot reopen those by itself');
    await expect(page.getByTestId('release-title')).toContainText('no release loaded');
  });
});
