/**
 * Issue 25.17: `npm install` warns about every dependency whose install script package.json's
 * `allowScripts` does not decide. Each package the lock file marks with an install script must
 * have a decision there (true or false), so a fresh install prints no such warning.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../support/shared.ts';

const readJson = (file: string): unknown => JSON.parse(readFileSync(path.join(projectRoot, file), 'utf8'));
const pkg = readJson('package.json') as { allowScripts?: Record<string, unknown> };
const lock = readJson('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };

/** The package name of a lock entry's path, e.g. node_modules/a/node_modules/@s/b -> @s/b. */
const nameOf = (where: string): string => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('install scripts', () => {
  const withScripts = [
    ...new Set(
      Object.entries(lock.packages)
        .filter(([, entry]) => entry.hasInstallScript)
        .map(([where]) => nameOf(where)),
    ),
  ];

  it('the lock file names the packages with install scripts', () => {
    expect(withScripts.length).toBeGreaterThan(0);
  });

  it.each(withScripts)('%s has a decision in package.json allowScripts', (name) => {
    expect(typeof pkg.allowScripts?.[name], `allowScripts["${name}"]`).toBe('boolean');
  });
});
