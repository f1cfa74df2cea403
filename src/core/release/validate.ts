/**
 * A tiny validator combinator set for release files (no library).
 *
 * Validators never copy or transform: on success they return the very value they were given,
 * narrowed to T, so key order and unknown keys survive (the JSONL writer depends on that).
 * On failure they return undefined after adding issues that name the field path
 * (`items[2].doc_ids[0]`). Leaf validators also expose a plain `test` so that objects and
 * arrays can check them without building a context per value (the hot path of a 1,000-task file).
 */
import { makeIssue, renderFound, type IssueList } from './issues.ts';

export interface ValidationContext {
  file: string;
  line?: number;
  path?: string;
}

export type Validator<T> = (value: unknown, ctx: ValidationContext, issues: IssueList) => T | undefined;

/** What a validator accepts, in words, for "expected ..." (e.g. `string`, `one of a|b`). */
export interface Described {
  readonly expected: string;
}

export type DescribedValidator<T> = Validator<T> & Described;

export interface LeafValidator<T> extends DescribedValidator<T> {
  readonly test: (value: unknown) => boolean;
}

declare const OPTIONAL_BRAND: unique symbol;
export type OptionalValidator<T> = DescribedValidator<T> & {
  readonly optional: true;
  readonly [OPTIONAL_BRAND]?: true;
};

export type Infer<V> = V extends Validator<infer T> ? T : never;

// ---------------------------------------------------------------------------------------------
// Reporting helpers

/** Adds one issue at ctx (optionally at a sub-field of ctx) and returns undefined for chaining. */
export function report(
  issues: IssueList,
  ctx: ValidationContext,
  expected: string,
  value: unknown,
  subPath?: string,
): undefined {
  const field = subPath === undefined ? ctx.path : joinPath(ctx.path, subPath);
  issues.add(makeIssue(ctx.file, ctx.line, field, expected, renderFound(value)));
  return undefined;
}

const IDENTIFIER_RE = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `items` + `doc_ids` -> `items.doc_ids`; keys that are not identifiers read `meta["recall@5"]`. */
export function keyPath(parent: string | undefined, key: string): string {
  if (IDENTIFIER_RE.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent ?? ''}[${JSON.stringify(key)}]`;
}

export function indexPath(parent: string | undefined, index: number): string {
  return `${parent ?? ''}[${index}]`;
}

/** Joins a relative sub-path (`answer`, `[0]`, `a.b`) onto a context path. */
export function joinPath(parent: string | undefined, sub: string): string {
  if (!parent) return sub;
  return sub.startsWith('[') ? parent + sub : `${parent}.${sub}`;
}

export function childContext(ctx: ValidationContext, path: string): ValidationContext {
  return { file: ctx.file, line: ctx.line, path };
}

function described<T>(fn: Validator<T>, expected: string): DescribedValidator<T> {
  return Object.assign(fn, { expected });
}

export function describe(v: Validator<unknown>): string {
  const expected = (v as Partial<Described>).expected;
  return typeof expected === 'string' ? expected : 'a valid value';
}

function isLeaf(v: Validator<unknown>): v is LeafValidator<unknown> {
  return typeof (v as Partial<LeafValidator<unknown>>).test === 'function';
}

/** Runs v on value at ctx.path + key, building the child context only when needed. */
function runAt(
  v: Validator<unknown>,
  value: unknown,
  ctx: ValidationContext,
  issues: IssueList,
  key: string | number,
): boolean {
  if (isLeaf(v)) {
    if (v.test(value)) return true;
    issues.add(makeIssue(ctx.file, ctx.line, childPath(ctx.path, key), v.expected, renderFound(value)));
    return false;
  }
  return v(value, childContext(ctx, childPath(ctx.path, key)), issues) !== undefined;
}

function childPath(parent: string | undefined, key: string | number): string {
  return typeof key === 'number' ? indexPath(parent, key) : keyPath(parent, key);
}

// ---------------------------------------------------------------------------------------------
// Leaves

export function leaf<T>(expected: string, test: (value: unknown) => boolean): LeafValidator<T> {
  const fn: Validator<T> = (value, ctx, issues) => (test(value) ? (value as T) : report(issues, ctx, expected, value));
  return Object.assign(fn, { expected, test });
}

export interface StringOptions {
  minLength?: number;
  maxLength?: number;
  pattern?: RegExp;
  /** Words for the expectation, e.g. `a doc id like EFTA00432308`. */
  expected?: string;
}

export function str(opts: StringOptions = {}): LeafValidator<string> {
  const { minLength = 0, maxLength = Infinity, pattern } = opts;
  const expected = opts.expected ?? describeString(minLength, maxLength, pattern);
  return leaf<string>(expected, (v) => {
    if (typeof v !== 'string' || v.length < minLength || v.length > maxLength) return false;
    return pattern === undefined || pattern.test(v);
  });
}

function describeString(minLength: number, maxLength: number, pattern: RegExp | undefined): string {
  let text = minLength === 1 && maxLength === Infinity ? 'a non-empty string' : 'a string';
  if (minLength > 1) text += ` of at least ${minLength} characters`;
  if (maxLength !== Infinity) text += ` of at most ${maxLength} characters`;
  if (pattern) text += ` matching ${String(pattern)}`;
  return text;
}

export interface NumberOptions {
  min?: number;
  max?: number;
}

function describeRange(base: string, min: number, max: number): string {
  if (min !== -Infinity && max !== Infinity) return `${base} between ${min} and ${max}`;
  if (min !== -Infinity) return `${base} >= ${min}`;
  if (max !== Infinity) return `${base} <= ${max}`;
  return base;
}

/** A finite number (JSON cannot hold NaN or Infinity). */
export function num(opts: NumberOptions = {}): LeafValidator<number> {
  const { min = -Infinity, max = Infinity } = opts;
  return leaf<number>(
    describeRange('a number', min, max),
    (v) => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max,
  );
}

export function int(opts: NumberOptions = {}): LeafValidator<number> {
  const { min = -Infinity, max = Infinity } = opts;
  return leaf<number>(
    describeRange('an integer', min, max),
    (v) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max,
  );
}

export const bool: LeafValidator<boolean> = leaf<boolean>('true or false', (v) => typeof v === 'boolean');

export const nul: LeafValidator<null> = leaf<null>('null', (v) => v === null);

/** Anything JSON can hold; for fields whose content is not ours to check. */
export const anyValue: LeafValidator<unknown> = leaf<unknown>('any value', (v) => v !== undefined);

export function oneOf<const V extends string>(values: readonly V[]): LeafValidator<V> {
  const set: ReadonlySet<unknown> = new Set(values);
  return leaf<V>(`one of ${values.join('|')}`, (v) => set.has(v));
}

export function nullable<T>(inner: Validator<T>): DescribedValidator<T | null> {
  const expected = `${describe(inner)} or null`;
  if (isLeaf(inner)) {
    const test = inner.test;
    return leaf<T | null>(expected, (v) => v === null || test(v));
  }
  return described<T | null>((value, ctx, issues) => (value === null ? null : inner(value, ctx, issues)), expected);
}

// ---------------------------------------------------------------------------------------------
// Containers

export interface ArrayOptions {
  minLength?: number;
  maxLength?: number;
}

export function arrayOf<T>(element: Validator<T>, opts: ArrayOptions = {}): DescribedValidator<T[]> {
  const { minLength = 0, maxLength = Infinity } = opts;
  const elementTest = isLeaf(element) ? element.test : undefined;
  let expected = `an array of ${describe(element)}`;
  if (minLength === 1 && maxLength === Infinity) expected = `a non-empty array of ${describe(element)}`;
  else if (minLength > 0 || maxLength !== Infinity)
    expected += ` ${describeRange('with length', minLength, maxLength)}`;
  const fn: Validator<T[]> = (value, ctx, issues) => {
    if (!Array.isArray(value)) return report(issues, ctx, expected, value);
    if (value.length < minLength || value.length > maxLength) return report(issues, ctx, expected, value);
    let ok = true;
    if (elementTest) {
      for (let i = 0; i < value.length; i++) {
        if (elementTest(value[i])) continue;
        issues.add(makeIssue(ctx.file, ctx.line, indexPath(ctx.path, i), describe(element), renderFound(value[i])));
        ok = false;
      }
    } else {
      for (let i = 0; i < value.length; i++) {
        if (!runAt(element, value[i], ctx, issues, i)) ok = false;
      }
    }
    return ok ? (value as T[]) : undefined;
  };
  return described(fn, expected);
}

type InferTuple<V extends readonly Validator<unknown>[]> = { -readonly [K in keyof V]: Infer<V[K]> };

export function tuple<const V extends readonly Validator<unknown>[]>(
  ...elements: V
): DescribedValidator<InferTuple<V>> {
  const expected = `an array of exactly ${elements.length} (${elements.map(describe).join(', ')})`;
  const fn: Validator<InferTuple<V>> = (value, ctx, issues) => {
    if (!Array.isArray(value) || value.length !== elements.length) return report(issues, ctx, expected, value);
    let ok = true;
    for (let i = 0; i < elements.length; i++) {
      if (!runAt(elements[i] as Validator<unknown>, value[i], ctx, issues, i)) ok = false;
    }
    return ok ? (value as InferTuple<V>) : undefined;
  };
  return described(fn, expected);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface RecordOptions<K extends string> {
  /** Allowed keys; others are reported. */
  keys?: readonly K[];
  /** Or a leaf check of every key. */
  key?: LeafValidator<K>;
  minKeys?: number;
}

/** A record over all strings has every key it has; one over listed keys may lack some. */
export type RecordOf<K extends string, T> = string extends K ? Record<string, T> : Partial<Record<K, T>>;

export function recordOf<T, K extends string = string>(
  valueValidator: Validator<T>,
  opts: RecordOptions<K> = {},
): DescribedValidator<RecordOf<K, T>> {
  const keySet: ReadonlySet<string> | undefined = opts.keys ? new Set<string>(opts.keys) : undefined;
  const keyExpected = opts.keys
    ? `a key in ${opts.keys.join('|')}`
    : opts.key
      ? `a key that is ${opts.key.expected}`
      : '';
  const minKeys = opts.minKeys ?? 0;
  const expected = `an object of ${describe(valueValidator)}${minKeys > 0 ? ` with at least ${minKeys} key(s)` : ''}`;
  const fn: Validator<RecordOf<K, T>> = (value, ctx, issues) => {
    if (!isPlainObject(value)) return report(issues, ctx, expected, value);
    let ok = true;
    let n = 0;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      n++;
      if ((keySet && !keySet.has(key)) || (opts.key && !opts.key.test(key))) {
        issues.add(makeIssue(ctx.file, ctx.line, keyPath(ctx.path, key), keyExpected, `key ${renderFound(key)}`));
        ok = false;
        continue;
      }
      if (!runAt(valueValidator, value[key], ctx, issues, key)) ok = false;
    }
    if (n < minKeys) return report(issues, ctx, expected, value);
    return ok ? (value as RecordOf<K, T>) : undefined;
  };
  return described(fn, expected);
}

/** Marks an object field as optional: it may be absent; when present it must be valid. */
export function optional<T>(inner: Validator<T>): OptionalValidator<T> {
  const fn: Validator<T> = (value, ctx, issues) => inner(value, ctx, issues);
  return Object.assign(fn, { expected: describe(inner), optional: true as const });
}

function isOptional(v: Validator<unknown>): boolean {
  return (v as { optional?: unknown }).optional === true;
}

export type Shape = Record<string, Validator<unknown>>;

type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { optional: true } ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type InferShape<S extends Shape> = Simplify<
  { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> }
>;

export interface ObjectOptions {
  /** Report keys not in the shape (default: unknown keys are allowed and kept). */
  strict?: boolean;
  expected?: string;
}

export function object<S extends Shape>(shape: S, opts: ObjectOptions = {}): DescribedValidator<InferShape<S>> {
  const keys = Object.keys(shape);
  const fields = keys.map((key) => {
    const v = shape[key] as Validator<unknown>;
    return { key, v, optional: isOptional(v), expected: describe(v) };
  });
  const known: ReadonlySet<string> = new Set(keys);
  const expected = opts.expected ?? 'an object';
  const fn: Validator<InferShape<S>> = (value, ctx, issues) => {
    if (!isPlainObject(value)) return report(issues, ctx, expected, value);
    let ok = true;
    for (const f of fields) {
      if (!Object.hasOwn(value, f.key)) {
        if (f.optional) continue;
        issues.add(makeIssue(ctx.file, ctx.line, keyPath(ctx.path, f.key), f.expected, renderFound(undefined)));
        ok = false;
        continue;
      }
      if (!runAt(f.v, value[f.key], ctx, issues, f.key)) ok = false;
    }
    if (opts.strict) {
      for (const key in value) {
        if (!Object.hasOwn(value, key) || known.has(key)) continue;
        issues.add(
          makeIssue(
            ctx.file,
            ctx.line,
            keyPath(ctx.path, key),
            `only the fields ${keys.join(', ')}`,
            'an unknown field',
          ),
        );
        ok = false;
      }
    }
    return ok ? (value as InferShape<S>) : undefined;
  };
  return described(fn, expected);
}

/**
 * Runs v, then (only if v passed) a cross-field check that reports its own issues and returns
 * false when the value is invalid.
 */
export function refine<T>(
  v: Validator<T>,
  check: (value: T, ctx: ValidationContext, issues: IssueList) => boolean,
): DescribedValidator<T> {
  const fn: Validator<T> = (value, ctx, issues) => {
    const result = v(value, ctx, issues);
    if (result === undefined) return undefined;
    return check(result, ctx, issues) ? result : undefined;
  };
  return described(fn, describe(v));
}

/** Validates value at a sub-field of ctx (used by cross-field checks). */
export function validateAt<T>(
  v: Validator<T>,
  value: unknown,
  ctx: ValidationContext,
  issues: IssueList,
  subPath: string,
): T | undefined {
  return v(value, childContext(ctx, joinPath(ctx.path, subPath)), issues);
}

// ---------------------------------------------------------------------------------------------
// Shapes of identifiers

/**
 * Doc ids: 4 capital letters and 8 digits. The v1.0 corpus uses `EFTA` (the DOJ release file
 * names, spec 1.4); the embedded sample release uses its own prefix (`SMPL`) so that its
 * fictional documents are never mistaken for real ones.
 */
export const DOC_ID_RE = /^[A-Z]{4}\d{8}$/;
export const SHA256_HEX_RE = /^[0-9a-f]{64}$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Same as DOC_ID_RE.test, by hand: doc ids are the most numerous values of a task file. */
export function isDocId(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== 12) return false;
  for (let i = 0; i < 4; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x41 || c > 0x5a) return false;
  }
  for (let i = 4; i < 12; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

export const docId = leaf<string>('a doc id like EFTA00432308 (4 capital letters + 8 digits)', isDocId);
export const sha256HexString = str({ pattern: SHA256_HEX_RE, expected: 'a sha256 as 64 lowercase hex digits' });
export const uuid = str({ pattern: UUID_RE, expected: 'a UUID like 371ea2e0-1e09-4239-89a1-2586a3faa47c' });
export const nonEmptyString = str({ minLength: 1 });
export const anyString = str();
