import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { projectRoot } from './support.ts';

export const sampleDir = path.join(projectRoot, 'static-data/sample');

/** Opens the Score page on the embedded sample release and waits for its inputs. */
export async function openScorePage(page: Page): Promise<void> {
  await page.goto('/?view=score');
  await expect(page.getByTestId('inputs-state')).toContainText('Tasks:');
}

export async function setFile(page: Page, testid: string, name: string, content: string | Buffer): Promise<void> {
  await page.getByTestId(testid).setInputFiles({
    name,
    mimeType: name.endsWith('.zip') ? 'application/zip' : 'application/json',
    buffer: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
  });
}

/** Clicks a download button and returns the downloaded bytes. */
export async function downloaded(page: Page, testid: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return readFileSync(await file.path());
}

export function jsonlLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
}
