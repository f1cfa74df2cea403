/**
 * Arrow values of a console result as plain cells that cross the worker boundary and render as
 * text: numbers, strings, booleans and null; timestamps as ISO text, decimals with their scale,
 * bytes as \x.. escapes, lists and structs as JSON. Each cell's text is bounded.
 */
import { Type, type DataType, type Field } from 'apache-arrow';

export type ConsoleCell = string | number | boolean | null;

export const CELL_MAX_CHARS = 10_000;

function bounded(text: string): string {
  return text.length > CELL_MAX_CHARS ? `${text.slice(0, CELL_MAX_CHARS)}… (${text.length} characters)` : text;
}

function bigintCell(v: bigint): ConsoleCell {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : String(v);
}

function jsonText(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'bigint') return bigintCell(v);
    if (v instanceof Uint8Array) return bytesText(v);
    return v;
  });
}

function bytesText(bytes: Uint8Array): string {
  const shown = bytes.subarray(0, CELL_MAX_CHARS / 4);
  const hex = Array.from(shown, (b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
  return shown.length < bytes.length ? `${hex}… (${bytes.length} bytes)` : hex;
}

function decimalText(value: unknown, scale: number): string {
  const digits = String(value).replace(/"/g, '');
  if (!/^-?\d+$/.test(digits) || scale === 0) return digits;
  const negative = digits.startsWith('-');
  const abs = (negative ? digits.slice(1) : digits).padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${abs.slice(0, -scale)}.${abs.slice(-scale)}`;
}

function dateText(ms: number, withTime: boolean): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return String(ms);
  return withTime ? date.toISOString() : date.toISOString().slice(0, 10);
}

/** One value of a column of type `type`. */
export function cellOf(value: unknown, type: DataType): ConsoleCell {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case Type.Timestamp:
      return dateText(Number(value), true);
    case Type.Date:
      return dateText(Number(value), false);
    case Type.Decimal:
      return decimalText(value, (type as DataType & { scale: number }).scale);
    default:
      break;
  }
  if (typeof value === 'bigint') return bigintCell(value);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return bounded(value);
  if (value instanceof Uint8Array) return bytesText(value);
  const json = (value as { toJSON?: () => unknown }).toJSON?.() ?? value;
  return bounded(jsonText(json));
}

export interface ConsoleColumn {
  name: string;
  type: string;
}

export function columnOf(field: Field): ConsoleColumn {
  return { name: field.name, type: String(field.type) };
}
