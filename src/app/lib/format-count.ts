/**
 * An integer with thousands separators, exactly as `toLocaleString('en')` writes it, without
 * Intl: a page's first use of Intl.NumberFormat loads its locale data, 20–200 ms of main-thread
 * time on a busy machine, and the first views show counts. Other numbers go to Intl.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en');
  const digits = String(Math.abs(n));
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}
