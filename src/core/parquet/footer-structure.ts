/**
 * A cheap structural check of a parquet footer's thrift metadata, before it is decoded whole.
 * hyparquet turns every thrift value into objects; a junk footer near the 16 MB limit (millions
 * of empty structs, lists that claim more elements than there are bytes) then costs seconds and
 * gigabytes before it is refused. This walk reads the compact protocol without building anything:
 * every size must fit in the bytes left, nesting and the number of values are bounded, and the
 * FileMetaData fields hyparquet relies on must be there with their thrift types (a row group has
 * one column chunk per leaf column of the schema).
 */

export class ParquetFooterError extends Error {}

/** More values than any real footer we read holds (a 1 MB footer of a 634-shard dataset holds ~50k). */
export const MAX_FOOTER_VALUES = 2_000_000;
/** Parquet metadata nests about six levels; thrift allows more, a footer needs no more than this. */
export const MAX_FOOTER_DEPTH = 32;

/** The compact protocol's type ids. */
const T = {
  Stop: 0,
  True: 1,
  False: 2,
  Byte: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  Double: 7,
  Binary: 8,
  List: 9,
  Set: 10,
  Map: 11,
  Struct: 12,
} as const;
type T = number;

const TYPE_NAMES = [
  'stop',
  'bool',
  'bool',
  'byte',
  'i16',
  'i32',
  'i64',
  'double',
  'binary',
  'list',
  'set',
  'map',
  'struct',
];

/** What a field must be: its type, and for lists the element type. */
interface FieldRule {
  type: T;
  element?: T;
  required?: boolean;
}
type StructRules = Readonly<Record<number, FieldRule>>;

const FILE_METADATA: StructRules = {
  1: { type: T.I32, required: true },
  2: { type: T.List, element: T.Struct, required: true },
  3: { type: T.I64, required: true },
  4: { type: T.List, element: T.Struct, required: true },
  5: { type: T.List, element: T.Struct },
  6: { type: T.Binary },
};
const SCHEMA_ELEMENT: StructRules = {
  1: { type: T.I32 },
  4: { type: T.Binary, required: true },
  5: { type: T.I32 },
};
const ROW_GROUP: StructRules = {
  1: { type: T.List, element: T.Struct, required: true },
  2: { type: T.I64, required: true },
  3: { type: T.I64, required: true },
};
const COLUMN_CHUNK: StructRules = {
  2: { type: T.I64, required: true },
  3: { type: T.Struct },
};
const COLUMN_META: StructRules = {
  1: { type: T.I32, required: true },
  2: { type: T.List, element: T.I32, required: true },
  3: { type: T.List, element: T.Binary, required: true },
  4: { type: T.I32, required: true },
  5: { type: T.I64, required: true },
  6: { type: T.I64, required: true },
  7: { type: T.I64, required: true },
  9: { type: T.I64, required: true },
};
const KEY_VALUE: StructRules = { 1: { type: T.Binary, required: true }, 2: { type: T.Binary } };

class Walker {
  private offset: number;
  private values = 0;
  constructor(
    private readonly bytes: Uint8Array,
    start: number,
    private readonly end: number,
    private readonly maxValues: number,
  ) {
    this.offset = start;
  }

  fail(what: string): never {
    throw new ParquetFooterError(`parquet footer is not valid thrift metadata: ${what} (at byte ${this.offset})`);
  }

  private count(): void {
    if (++this.values > this.maxValues)
      this.fail(`more than ${this.maxValues.toLocaleString('en')} values, more than a parquet footer holds`);
  }

  private byte(): number {
    if (this.offset >= this.end) this.fail('it ends in the middle of a value');
    return this.bytes[this.offset++]!;
  }

  /** An unsigned varint of at most 10 bytes, as a number (exact up to 2^53; only sizes are used). */
  private varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.byte();
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return result;
      scale *= 128;
    }
    return this.fail('a varint longer than 10 bytes');
  }

  private skip(n: number, what: string): void {
    if (n > this.end - this.offset) this.fail(`${what} of ${n.toLocaleString('en')} bytes is longer than the footer`);
    this.offset += n;
  }

  /** A size (list, set, map, binary) that must fit in the bytes left, `minBytes` each. */
  private size(n: number, minBytes: number, what: string): number {
    if (n * minBytes > this.end - this.offset)
      this.fail(`${what} of ${n.toLocaleString('en')} elements cannot fit in the ${this.end - this.offset} bytes left`);
    return n;
  }

  /** Any value of `type`, skipped; lists of structs visit each element with `visit`. */
  value(type: T, depth: number, visit?: () => void): void {
    this.count();
    switch (type) {
      case T.True:
      case T.False:
        return;
      case T.Byte:
        return void this.byte();
      case T.I16:
      case T.I32:
      case T.I64:
        return void this.varint();
      case T.Double:
        return this.skip(8, 'a double');
      case T.Binary:
        return this.skip(this.varint(), 'a binary value');
      case T.List:
      case T.Set:
        return void this.list(depth, undefined, visit);
      case T.Map:
        return this.map(depth);
      case T.Struct:
        if (visit) return visit();
        return void this.struct({}, depth + 1);
      default:
        return this.fail(`unknown thrift type ${type}`);
    }
  }

  /** A list's header and elements; returns its length. */
  list(depth: number, element?: T, visit?: () => void): number {
    if (depth > MAX_FOOTER_DEPTH) this.fail(`nested more than ${MAX_FOOTER_DEPTH} levels`);
    const header = this.byte();
    const type = header & 0x0f;
    const short = header >> 4;
    const n = this.size(short === 15 ? this.varint() : short, 1, 'a list');
    if (element !== undefined && n > 0 && !(type === element || (element === T.True && type === T.False)))
      this.fail(`a list of ${TYPE_NAMES[type] ?? type} where a list of ${TYPE_NAMES[element]} belongs`);
    for (let i = 0; i < n; i++) this.value(type, depth + 1, visit);
    return n;
  }

  private map(depth: number): void {
    if (depth > MAX_FOOTER_DEPTH) this.fail(`nested more than ${MAX_FOOTER_DEPTH} levels`);
    const n = this.size(this.varint(), 2, 'a map');
    if (n === 0) return;
    const types = this.byte();
    for (let i = 0; i < n; i++) {
      this.value(types >> 4, depth + 1);
      this.value(types & 0x0f, depth + 1);
    }
  }

  /**
   * A struct's fields: those in `rules` must have their type (and `visitField` reads them),
   * any other is skipped. Returns the fields present (ids 1-30) as a bit mask.
   */
  struct(rules: StructRules, depth: number, visitField?: (id: number) => boolean): number {
    if (depth > MAX_FOOTER_DEPTH) this.fail(`nested more than ${MAX_FOOTER_DEPTH} levels`);
    let seen = 0;
    let id = 0;
    for (;;) {
      const header = this.byte();
      const type = header & 0x0f;
      if (type === T.Stop) break;
      const delta = header >> 4;
      id = delta === 0 ? zigzag(this.varint()) : id + delta;
      const rule = rules[id];
      if (rule && !(rule.type === type || (rule.type === T.True && type === T.False)))
        this.fail(`field ${id} is ${TYPE_NAMES[type] ?? `type ${type}`} where ${TYPE_NAMES[rule.type]} belongs`);
      if (id > 0 && id < 31) seen |= 1 << id;
      if (!(visitField?.(id) ?? false)) {
        if (rule?.type === T.List) {
          this.count();
          this.list(depth + 1, rule.element);
        } else this.value(type, depth);
      }
    }
    const required = requiredMask(rules);
    if ((seen & required) !== required) {
      const missing = Object.keys(rules).find((fid) => rules[Number(fid)]!.required && !(seen & (1 << Number(fid))));
      this.fail(`required field ${missing} is missing`);
    }
    return seen;
  }

  get position(): number {
    return this.offset;
  }
}

const requiredMasks = new Map<StructRules, number>();
/** The rules' required field ids as a bit mask (every rule id is below 31). */
function requiredMask(rules: StructRules): number {
  let mask = requiredMasks.get(rules);
  if (mask === undefined) {
    mask = 0;
    for (const [fid, rule] of Object.entries(rules)) if (rule.required) mask |= 1 << Number(fid);
    requiredMasks.set(rules, mask);
  }
  return mask;
}

function zigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}

/**
 * Checks the structure of a footer: `bytes` ends with the thrift metadata, its 4-byte length and
 * "PAR1" (a whole file, or only its tail). Throws ParquetFooterError saying what is wrong.
 */
export function checkFooterStructure(bytes: Uint8Array, maxValues = MAX_FOOTER_VALUES): void {
  if (bytes.byteLength < 8) throw new ParquetFooterError('too short for a parquet footer');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(bytes.byteLength - 4, true) !== 0x31524150)
    throw new ParquetFooterError('not a parquet file (no PAR1 at its end)');
  const length = view.getUint32(bytes.byteLength - 8, true);
  if (length > bytes.byteLength - 8)
    throw new ParquetFooterError(`metadata length ${length} is more than the ${bytes.byteLength - 8} bytes before it`);
  const end = bytes.byteLength - 8;
  const w = new Walker(bytes, end - length, end, maxValues);

  let leaves = 0;
  let schemaElements = 0;
  const schemaElement = () => {
    schemaElements++;
    if (w.struct(SCHEMA_ELEMENT, 2) & (1 << 1)) leaves++;
  };
  const columnChunk = () =>
    w.struct(COLUMN_CHUNK, 4, (id) => {
      if (id !== 3) return false;
      w.struct(COLUMN_META, 5, (field) => {
        if (field !== 8) return false;
        w.list(6, T.Struct, () => w.struct(KEY_VALUE, 7));
        return true;
      });
      return true;
    });
  const rowGroup = () =>
    w.struct(ROW_GROUP, 2, (id) => {
      if (id !== 1) return false;
      const columns = w.list(3, T.Struct, columnChunk);
      if (columns !== leaves)
        w.fail(`a row group with ${columns} column chunks where the schema has ${leaves} leaf columns`);
      return true;
    });
  let schemaRead = false;
  w.struct(FILE_METADATA, 0, (id) => {
    if (id === 2) {
      w.list(1, T.Struct, schemaElement);
      if (schemaElements === 0) w.fail('an empty schema');
      schemaRead = true;
      return true;
    }
    if (id === 4) {
      if (!schemaRead) w.fail('row groups before the schema');
      w.list(1, T.Struct, rowGroup);
      return true;
    }
    if (id === 5) {
      w.list(1, T.Struct, () => w.struct(KEY_VALUE, 2));
      return true;
    }
    return false;
  });
  if (w.position !== end) w.fail(`${end - w.position} bytes after the metadata's end`);
}
