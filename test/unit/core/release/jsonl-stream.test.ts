import { describe, expect, it } from 'vitest';
import { JsonlStreamParser, parseJsonlStream } from '../../../../src/core/release/jsonl-stream.ts';
import { parseJsonlBytes } from '../../../../src/core/release/jsonl.ts';
import { questionValidator } from '../../../../src/core/release/schemas.ts';
import type { Question } from '../../../../src/core/release/types.ts';

const enc = new TextEncoder();
const q = (i: number, question = `Q${i} — café?`) =>
  JSON.stringify({ task_id: `371ea2e0-1e09-4239-89a1-${String(i).padStart(12, '0')}`, type: 'single_hop', question });

/** A file with every kind of trouble: BOM, CRLF, blank lines, bad JSON, bad field, invalid UTF-8, no final newline. */
function messyFile(): Uint8Array {
  const parts: Uint8Array[] = [
    new Uint8Array([0xef, 0xbb, 0xbf]),
    enc.encode(`${q(1)}\r\n${q(2)}\n\n{"broken": \n`),
    enc.encode(`{"task_id": "x", "type": "single_hop", "question": "Q"}\n`),
    new Uint8Array([...enc.encode('{"task_id": "'), 0xff, ...enc.encode('"}\n')]),
    enc.encode(`${q(7, '日本語 😀')}\n   \n${q(9)}`),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function pushInChunks(bytes: Uint8Array, size: number) {
  const parser = new JsonlStreamParser<Question>('q.jsonl', questionValidator);
  for (let i = 0; i < bytes.length; i += size) parser.push(bytes.subarray(i, i + size));
  return parser.finish();
}

describe('JsonlStreamParser', () => {
  const bytes = messyFile();
  const whole = parseJsonlBytes(bytes, 'q.jsonl', questionValidator);

  it('the whole-file parser sees the expected rows and issues', () => {
    expect(whole.lines).toEqual([1, 2, 7, 9]);
    expect(whole.issues.items.map((i) => i.line)).toEqual([4, 5, 6]);
    expect(whole.totalLines).toBe(7);
  });

  it.each([1, 2, 3, 7, 64, 100_000])('gives the same result fed in chunks of %i bytes', (size) => {
    const streamed = pushInChunks(bytes, size);
    expect(streamed.rows).toEqual(whole.rows);
    expect(streamed.lines).toEqual(whole.lines);
    expect(streamed.totalLines).toBe(whole.totalLines);
    expect(streamed.issues.items).toEqual(whole.issues.items);
  });

  it('can hand rows to a callback instead of keeping them', () => {
    const seen: number[] = [];
    const parser = new JsonlStreamParser<Question>('q.jsonl', questionValidator, {
      onRow: (_row, line) => seen.push(line),
    });
    parser.push(bytes);
    const result = parser.finish();
    expect(seen).toEqual([1, 2, 7, 9]);
    expect(result.rows).toEqual([]);
  });

  it('reports and skips an over-long line, then goes on', () => {
    const parser = new JsonlStreamParser<Question>('q.jsonl', questionValidator, { maxLineBytes: 100 });
    const text = `${q(1)}\n${'x'.repeat(500)}\n${q(3)}\n`;
    const data = enc.encode(text);
    for (let i = 0; i < data.length; i += 16) parser.push(data.subarray(i, i + 16));
    const result = parser.finish();
    expect(result.lines).toEqual([1, 3]);
    expect(result.issues.count).toBe(1);
    expect(result.issues.items[0]?.line).toBe(2);
    expect(result.issues.items[0]?.message).toBe('q.jsonl line 2: line longer than 100 bytes; skipped');
  });

  it('reads a ReadableStream and an async iterable', async () => {
    const chunks = [bytes.subarray(0, 50), bytes.subarray(50)];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(c);
        controller.close();
      },
    });
    expect((await parseJsonlStream(stream, 'q.jsonl', questionValidator)).lines).toEqual(whole.lines);
    async function* gen() {
      yield* chunks;
    }
    expect((await parseJsonlStream(gen(), 'q.jsonl', questionValidator)).issues.items).toEqual(whole.issues.items);
  });
});
