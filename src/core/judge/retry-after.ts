/**
 * The server's wait hint in ms: `retry-after-ms` first (OpenAI), then `Retry-After` as seconds or
 * as an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null) {
    const value = Number(ms.trim());
    if (ms.trim() !== '' && Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  const text = retryAfter.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
