/** Dates of the sample world are day numbers since 1970-01-01 (UTC); formatting is ours. */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function dayOf(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / 86_400_000);
}

function parts(day: number): { y: number; m: number; d: number; w: number } {
  const date = new Date(day * 86_400_000);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate(), w: date.getUTCDay() };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Canonical answer form, e.g. "14 March 2011". */
export function longDate(day: number): string {
  const { y, m, d } = parts(day);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}
export function usDate(day: number): string {
  const { y, m, d } = parts(day);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}
export function slashDate(day: number): string {
  const { y, m, d } = parts(day);
  return `${pad(m)}/${pad(d)}/${y}`;
}
export function isoDate(day: number): string {
  const { y, m, d } = parts(day);
  return `${y}-${pad(m)}-${pad(d)}`;
}
export function weekday(day: number): string {
  return WEEKDAYS[parts(day).w]!;
}
export function monthYear(day: number): string {
  const { y, m } = parts(day);
  return `${MONTHS[m - 1]} ${y}`;
}
export function yearOf(day: number): number {
  return parts(day).y;
}
export function monthOf(day: number): number {
  return parts(day).m;
}

/** Reads a date written in any of our formats; undefined when it is not one. */
export function parseDate(text: string): number | undefined {
  let m = /^(\d{1,2}) ([A-Z][a-z]+) (\d{4})$/.exec(text);
  if (m) return fromParts(Number(m[3]), MONTHS.indexOf(m[2]!) + 1, Number(m[1]));
  m = /^([A-Z][a-z]+) (\d{1,2}), (\d{4})$/.exec(text);
  if (m) return fromParts(Number(m[3]), MONTHS.indexOf(m[1]!) + 1, Number(m[2]));
  m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (m) return fromParts(Number(m[3]), Number(m[1]), Number(m[2]));
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m) return fromParts(Number(m[1]), Number(m[2]), Number(m[3]));
  return undefined;
}

function fromParts(y: number, m: number, d: number): number | undefined {
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  return dayOf(y, m, d);
}

/** Matches every date format above inside running text. */
export const DATE_PATTERN =
  /\b(?:\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}|(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}|\d{2}\/\d{2}\/\d{4}|\d{4}-\d{2}-\d{2})\b/g;

export function money(cents: number): string {
  const dollars = Math.floor(cents / 100);
  const rest = cents % 100;
  return `$${groupThousands(dollars)}.${pad(rest)}`;
}
export function moneyWhole(dollars: number): string {
  return `$${groupThousands(dollars)}`;
}

export function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
