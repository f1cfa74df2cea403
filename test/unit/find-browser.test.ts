import { describe, expect, it } from 'vitest';
import { findChromium } from '../e2e/find-browser.ts';

describe('the end-to-end browser finder', () => {
  it('takes the browser named by CHROMIUM_PATH', () => {
    expect(findChromium({ CHROMIUM_PATH: process.execPath })).toBe(process.execPath);
  });

  it('says so when CHROMIUM_PATH names a missing file', () => {
    expect(() => findChromium({ CHROMIUM_PATH: '/no/such/chromium' })).toThrow(/CHROMIUM_PATH=\/no\/such\/chromium/);
  });
});
