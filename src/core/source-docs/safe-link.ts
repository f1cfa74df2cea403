/**
 * A link target from untrusted data (a row's online_url): only an absolute http(s) URL without
 * credentials is linked; anything else (javascript:, data:, relative paths) is shown as text.
 */
export function safeLinkUrl(raw: string | null | undefined): string | undefined {
  if (!raw || raw.length > 2048) return undefined;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
  if (u.username || u.password) return undefined;
  return u.href;
}
