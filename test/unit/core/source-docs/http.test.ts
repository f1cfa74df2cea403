import { describe, expect, it } from 'vitest';
import { SourceError, Transfer } from '../../../../src/core/source-docs/http.ts';

const answer =
  (status: number, body: Uint8Array | string, headers: Record<string, string> = {}) =>
  async () =>
    new Response(typeof body === 'string' ? body : new Blob([body as Uint8Array<ArrayBuffer>]), { status, headers });

describe('bounded transfers', () => {
  it('takes a range only as asked: 206, the same start, the same length', async () => {
    const ok = new Transfer(answer(206, new Uint8Array(10), { 'content-range': 'bytes 5-14/100' }));
    expect((await ok.range('https://h/f', 5, 15)).bytes.byteLength).toBe(10);
    expect(ok.stats).toEqual({ requests: 1, bytes: 10 });
    const shifted = new Transfer(answer(206, new Uint8Array(10), { 'content-range': 'bytes 0-9/100' }));
    await expect(shifted.range('https://h/f', 5, 15)).rejects.toThrow(/the server sent them from 0/);
    const short = new Transfer(answer(206, new Uint8Array(4)));
    await expect(short.range('https://h/f', 5, 15)).rejects.toThrow(/asked for 10 bytes at 5, got 4/);
    const whole = new Transfer(answer(200, new Uint8Array(100)));
    await expect(whole.range('https://h/f', 5, 15)).rejects.toThrow(/ignored the byte range/);
  });

  it('stops reading a body past its limit and never shows a signed URL’s query', async () => {
    const big = new Transfer(answer(200, 'x'.repeat(5000)));
    const error = await big.json('https://h/api?token=secret', 1000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).kind).toBe('too-large');
    expect((error as Error).message).not.toContain('secret');
    const notJson = new Transfer(answer(200, '<html>'));
    await expect(notJson.json('https://h/api', 1000)).rejects.toThrow(/not JSON/);
    const missing = new Transfer(answer(404, ''));
    await expect(missing.json('https://h/api', 1000)).rejects.toMatchObject({ kind: 'not-found' });
  });
});
