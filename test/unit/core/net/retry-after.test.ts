/** What a server says about when to come back: Retry-After, and the RateLimit headers as the Hub sends them. */
import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseRetryAfterMs } from '../../../../src/core/net/retry-after.ts';

const headers = (h: Record<string, string>) => new Headers(h);
const now = Date.parse('2026-05-01T12:00:00Z');

describe('parseRetryAfterMs', () => {
  it('reads seconds, an HTTP date, and retry-after-ms first', () => {
    expect(parseRetryAfterMs(headers({ 'retry-after': '42' }), now)).toBe(42_000);
    expect(parseRetryAfterMs(headers({ 'retry-after': ' 0 ' }), now)).toBe(0);
    expect(parseRetryAfterMs(headers({ 'retry-after': 'Fri, 01 May 2026 12:01:00 GMT' }), now)).toBe(60_000);
    // A date already past: come back now, not a negative wait.
    expect(parseRetryAfterMs(headers({ 'retry-after': 'Fri, 01 May 2026 11:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '42' }), now)).toBe(250);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfterMs(headers({}), now)).toBeUndefined();
    expect(parseRetryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfterMs(headers({ 'retry-after': '-5' }), now)).toBeUndefined();
    // An unreadable retry-after-ms falls back to Retry-After.
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': 'x', 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '' }), now)).toBeUndefined();
  });
});

describe('parseRateLimit', () => {
  it('reads the Hub’s RateLimit and RateLimit-Policy headers', () => {
    expect(
      parseRateLimit(
        headers({
          ratelimit: '"resolvers";r=0;t=42',
          'ratelimit-policy': '"fixed window";"resolvers";q=3000;w=300',
        }),
      ),
    ).toEqual({ remaining: 0, resetMs: 42_000, quota: 3000, windowMs: 300_000 });
    expect(parseRateLimit(headers({ ratelimit: '"api";r=499;t=120' }))).toEqual({ remaining: 499, resetMs: 120_000 });
    // The policy alone says the budget, not what is left.
    expect(parseRateLimit(headers({ 'ratelimit-policy': '"fixed window";"api";q=500;w=300' }))).toEqual({
      quota: 500,
      windowMs: 300_000,
    });
  });

  it('takes the tightest of several policies, with that policy’s quota', () => {
    const stated = parseRateLimit(
      headers({
        ratelimit: '"api";r=400;t=100, "resolvers";r=3;t=20',
        'ratelimit-policy': '"fixed window";"api";q=500;w=300, "fixed window";"resolvers";q=3000;w=300',
      }),
    );
    expect(stated).toEqual({ remaining: 3, resetMs: 20_000, quota: 3000, windowMs: 300_000 });
  });

  it('reads the older drafts’ headers', () => {
    expect(
      parseRateLimit(headers({ 'ratelimit-limit': '100', 'ratelimit-remaining': '7', 'ratelimit-reset': '30' })),
    ).toEqual({ remaining: 7, resetMs: 30_000, quota: 100 });
    expect(parseRateLimit(headers({ 'ratelimit-policy': '100;w=60' }))).toEqual({ quota: 100, windowMs: 60_000 });
    expect(parseRateLimit(headers({ ratelimit: 'limit=100, remaining=2, reset=9' }))).toEqual({
      remaining: 2,
      resetMs: 9000,
      quota: 100,
    });
  });

  it('says nothing for an answer without them, or with unreadable ones', () => {
    expect(parseRateLimit(headers({}))).toBeUndefined();
    expect(parseRateLimit(headers({ ratelimit: 'nonsense', 'ratelimit-remaining': 'many' }))).toBeUndefined();
    // A quoted name that looks like a parameter is not one.
    expect(parseRateLimit(headers({ ratelimit: '"r=5"' }))).toBeUndefined();
  });
});
