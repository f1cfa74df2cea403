/**
 * A tiny markdown parser for dataset cards: headings, paragraphs, lists, tables, fenced code,
 * emphasis, inline code and http(s) links. It yields a tree the UI renders as nodes, never HTML.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block =
  | { kind: 'heading'; level: number; children: Inline[] }
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'table'; header: Inline[][]; rows: Inline[][][] }
  | { kind: 'code'; text: string }
  | { kind: 'rule' };

const MAX_DEPTH = 8;

export function parseInline(src: string, depth = 0): Inline[] {
  if (depth > MAX_DEPTH) return [{ kind: 'text', text: src }];
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < src.length) {
    const rest = src.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^`([^`]+)`/.exec(rest))) {
      flush();
      out.push({ kind: 'code', text: m[1]! });
    } else if ((m = /^\*\*(.+?)\*\*/.exec(rest)) || (m = /^__(.+?)__/.exec(rest))) {
      flush();
      out.push({ kind: 'strong', children: parseInline(m[1]!, depth + 1) });
    } else if (
      (m = /^\*([^*\s](?:[^*]*[^*\s])?)\*/.exec(rest)) ||
      (m = /^_([^_\s](?:[^_]*[^_\s])?)_(?![\p{L}\p{N}])/u.exec(rest))
    ) {
      flush();
      out.push({ kind: 'em', children: parseInline(m[1]!, depth + 1) });
    } else if ((m = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest))) {
      flush();
      const href = m[2]!;
      // Only http(s) links become links; anything else stays as its text.
      if (/^https?:\/\//i.test(href)) out.push({ kind: 'link', href, children: parseInline(m[1]!, depth + 1) });
      else out.push(...parseInline(m[1]!, depth + 1));
    } else if ((m = /^<(https?:\/\/[^>\s]+)>/.exec(rest))) {
      flush();
      out.push({ kind: 'link', href: m[1]!, children: [{ kind: 'text', text: m[1]! }] });
    } else {
      text += src[i];
      i++;
      continue;
    }
    i += m[0].length;
  }
  flush();
  return out;
}

export function plainText(nodes: readonly Inline[]): string {
  return nodes.map((n) => (n.kind === 'text' || n.kind === 'code' ? n.text : plainText(n.children))).join('');
}

const splitRow = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    let m: RegExpExecArray | null;
    if (!line.trim()) {
      i++;
    } else if (line.startsWith('```')) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i]!)) body.push(lines[i++]!);
      i++;
      blocks.push({ kind: 'code', text: body.join('\n') });
    } else if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      blocks.push({ kind: 'heading', level: m[1]!.length, children: parseInline(m[2]!.replace(/\s#+\s*$/, '')) });
      i++;
    } else if (/^(\s*[-*_]\s*){3,}$/.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
    } else if (line.trim().startsWith('|') && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1] ?? '')) {
      const header = splitRow(line).map((c) => parseInline(c));
      i += 2;
      const rows: Inline[][][] = [];
      while (i < lines.length && lines[i]!.trim().startsWith('|'))
        rows.push(splitRow(lines[i++]!).map((c) => parseInline(c)));
      blocks.push({ kind: 'table', header, rows });
    } else if ((m = /^\s*([-*+]|\d+[.)])\s+/.exec(line))) {
      const ordered = /\d/.test(m[1]!);
      const items: string[] = [];
      while (i < lines.length) {
        const l = lines[i]!;
        const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(l);
        if (item) items.push(item[2]!);
        else if (l.trim() && /^\s{2,}/.test(l) && items.length) items[items.length - 1] += ` ${l.trim()}`;
        else break;
        i++;
      }
      blocks.push({ kind: 'list', ordered, items: items.map((t) => parseInline(t)) });
    } else {
      const para: string[] = [];
      while (i < lines.length && lines[i]!.trim() && !/^(#{1,6}\s|```|\s*([-*+]|\d+[.)])\s+|\s*\|)/.test(lines[i]!))
        para.push(lines[i++]!.trim());
      if (para.length === 0) para.push(lines[i++]!.trim());
      blocks.push({ kind: 'paragraph', children: parseInline(para.join(' ')) });
    }
  }
  return blocks;
}
