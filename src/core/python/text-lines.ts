/**
 * Splits JSONL text arriving in chunks into lines without ever holding more than one line:
 * \n, \r\n and a lone \r end a line, which is how Python iterates a file opened in text mode
 * (universal newlines; \x1c, \x85 and \u2028 do not end a line there, unlike str.splitlines()).
 * A line longer than the cap is reported by its length instead of being buffered. A leading
 * BOM is passed on as part of line 1: each reader decides what it means.
 */
export type LineEvent = { line: number; text: string; overlong?: undefined } | { line: number; overlong: number };

export class JsonlLineSplitter {
  private pending: string[] = [];
  private pendingChars = 0;
  private skippedChars = 0;
  private lineNo = 1;
  private afterCr = false;

  constructor(
    private readonly maxLineChars: number,
    private readonly emit: (event: LineEvent) => void,
  ) {}

  /** The number of the line being read (1-based). */
  get currentLine(): number {
    return this.lineNo;
  }

  push(chunk: string): void {
    let start = 0;
    if (this.afterCr && chunk.charCodeAt(0) === 10) start++;
    if (chunk.length > 0) this.afterCr = false;
    const len = chunk.length;
    let i = start;
    while (i < len) {
      const c = chunk.charCodeAt(i);
      if (c === 10 || c === 13) {
        this.append(chunk, start, i);
        this.finishLine();
        if (c === 13) {
          if (i + 1 < len) {
            if (chunk.charCodeAt(i + 1) === 10) i++;
          } else {
            this.afterCr = true;
          }
        }
        start = i + 1;
      }
      i++;
    }
    this.append(chunk, start, len);
  }

  end(): void {
    if (this.pendingChars > 0 || this.skippedChars > 0) this.finishLine();
  }

  private append(chunk: string, from: number, to: number): void {
    const n = to - from;
    if (n <= 0) return;
    if (this.skippedChars > 0 || this.pendingChars + n > this.maxLineChars) {
      this.skippedChars += this.pendingChars + n;
      this.pending = [];
      this.pendingChars = 0;
      return;
    }
    this.pending.push(from === 0 && to === chunk.length ? chunk : chunk.slice(from, to));
    this.pendingChars += n;
  }

  private finishLine(): void {
    const line = this.lineNo++;
    if (this.skippedChars > 0) {
      this.emit({ line, overlong: this.skippedChars });
    } else {
      this.emit({ line, text: this.pending.length === 1 ? this.pending[0]! : this.pending.join('') });
    }
    this.pending = [];
    this.pendingChars = 0;
    this.skippedChars = 0;
  }
}
