/**
 * Untrusted text (file content, task ids, system names, file names) reaches the CLI's messages.
 * A terminal would obey the control sequences in it: ESC / CSI sequences recolour, move the
 * cursor, rewrite earlier lines, set the window title or (in some terminals) write files; a
 * bidi override reorders what is shown. Every string the CLI writes goes through terminalSafe,
 * which keeps line feeds and tabs and shows every other such character as a visible escape.
 */

// C0 controls except \t and \n (and \r before \n), DEL, C1 controls, and the Unicode bidi controls
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- these are exactly the characters to neutralise
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

function escape(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escape);
}

type Write = typeof process.stdout.write;

function guard(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  const safeWrite = (chunk: unknown, ...rest: unknown[]): boolean =>
    write(typeof chunk === 'string' ? terminalSafe(chunk) : chunk, ...rest);
  stream.write = safeWrite as Write;
}

/** Routes everything written to stdout and stderr through terminalSafe (once per process). */
export function installTerminalGuard(): void {
  guard(process.stdout);
  guard(process.stderr);
}
