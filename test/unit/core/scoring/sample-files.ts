/** The sample release as the files a user picks (path under "sample/", contents as Blobs), for the score session tests. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const sampleDir = path.resolve(import.meta.dirname, '../../../../static-data/sample');

export function sampleFiles(dir = sampleDir, prefix = ''): Array<{ path: string; file: Blob }> {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory()
      ? sampleFiles(full, `${prefix}${name}/`)
      : [{ path: `sample/${prefix}${name}`, file: new Blob([readFileSync(full)]) }];
  });
}
