import { describe, expect, it } from 'vitest';
import { PAGE_POLICY, securityHeaders } from '../../../src/cli/security-headers.ts';

const scriptSrc = (policy: string | undefined) => /script-src ([^;]*)/.exec(policy ?? '')?.[1];

describe('securityHeaders', () => {
  it('forbids framing every page but the embed page', () => {
    for (const path of ['/', '/index.html', '/static-data/sample/release.json']) {
      expect(securityHeaders(path)['Content-Security-Policy']).toBe(`${PAGE_POLICY}; frame-ancestors 'none'`);
      expect(securityHeaders(path)['X-Frame-Options']).toBe('DENY');
    }
    for (const path of ['/embed/', '/embed/index.html']) {
      expect(securityHeaders(path)['Content-Security-Policy']).toBe(PAGE_POLICY);
      expect(securityHeaders(path)['X-Frame-Options']).toBeUndefined();
    }
  });

  it('the pages may not evaluate strings, run wasm, or use inline script and style', () => {
    expect(scriptSrc(PAGE_POLICY)).toBe("'self'");
    expect(PAGE_POLICY).toContain("style-src 'self'");
    expect(PAGE_POLICY).not.toContain('unsafe');
  });

  it('gives each worker script only what it needs', () => {
    const policy = (path: string) => scriptSrc(securityHeaders(path)['Content-Security-Policy']);
    expect(policy('/assets/data.worker-DFLUK049.js')).toBe("'self' 'unsafe-eval'");
    expect(policy('/assets/duckdb-browser-eh.worker-hQa-dcAV.js')).toBe("'self' 'wasm-unsafe-eval'");
    expect(policy('/assets/search.worker-CUFdrOSI.js')).toBe("'self' 'wasm-unsafe-eval'");
    expect(policy('/assets/score.worker-Abc123.js')).toBe("'self'");
    expect(policy('/assets/main-DQvPVCw3.js')).toBe("'self'");
  });
});
