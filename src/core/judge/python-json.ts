/**
 * A JSON string literal as Python's json.dumps writes it with its default ensure_ascii=True:
 * every character outside printable ASCII (space..~) is escaped, so non-ASCII text comes out as
 * \uXXXX (surrogate pairs for astral characters), as in the benchmark's own files.
 */
export function pythonJsonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const ch = text[i] as string;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (code >= 0x20 && code <= 0x7e) out += ch;
    else out += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}
