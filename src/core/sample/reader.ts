import { DATE_PATTERN, longDate, parseDate } from './calendar.ts';
import type { AnswerKind } from './facts.ts';
import { MEETING_TOPICS, MOTIONS, PAYMENT_PURPOSES, VENUES } from './names.ts';
import type { World } from './world.ts';
import { formalName, fullName } from './world.ts';
import { escapeRegExp } from '../text/regexp.ts';

/**
 * Deterministic extractive reader standing in for the gauntlet's LLM reader: it decides from the
 * question's wording which kind of span answers it, then returns the span of that kind whose
 * neighbourhood shares most words with the question. Phrase answers come from a gazetteer of the
 * world's phrase vocabulary (topics, payment purposes, motions).
 */
export class Reader {
  private readonly people: Array<[RegExp, string]> = [];
  private readonly gazetteers: Record<'place' | 'venue' | 'org' | 'phrase', string[]>;

  constructor(world: World) {
    for (const p of world.people) {
      for (const v of [formalName(p), fullName(p), `${p.first[0]}. ${p.last}`])
        this.people.push([wordRegex(v), fullName(p)]);
    }
    this.gazetteers = {
      place: world.places,
      venue: VENUES,
      org: world.orgs.map((o) => o.name),
      phrase: [...MEETING_TOPICS, ...PAYMENT_PURPOSES, ...MOTIONS],
    };
  }

  /** Spans of a kind in a text, with their char offsets, normalised. */
  spans(text: string, kind: AnswerKind): Array<{ at: number; value: string }> {
    const out: Array<{ at: number; value: string }> = [];
    const scan = (re: RegExp, norm: (s: string) => string = (s) => s) => {
      for (const m of text.matchAll(re)) out.push({ at: m.index, value: norm(m[0]) });
    };
    switch (kind) {
      case 'money':
        scan(/(?:\$|USD )\d{1,3}(?:,\d{3})*(?:\.\d{2})?/g, (s) => `$${s.replace(/^(\$|USD )/, '')}`);
        break;
      case 'date':
        scan(new RegExp(DATE_PATTERN.source, 'g'), (s) => {
          const d = parseDate(s);
          return d === undefined ? s : longDate(d);
        });
        break;
      case 'time':
        scan(/\b\d{1,2}:\d{2}\b/g);
        break;
      case 'tail':
        scan(/\bQX-[A-Z]{3}\b/g);
        break;
      case 'caseno':
        scan(/\b\d{2}-[A-Z]{2}-\d{5}\b/g);
        break;
      case 'reference':
        scan(/\b[A-Z]{3}-\d{6}\b/g);
        break;
      case 'person':
        for (const [re, canonical] of this.people) scan(re, () => canonical);
        break;
      default:
        for (const g of this.gazetteers[kind]) scan(wordRegex(g, 'gi'), () => g);
    }
    return out;
  }

  read(question: string, texts: readonly string[]): string {
    const kind = expectedKind(question);
    const qTokens = new Set(contentTokens(question));
    const qLower = question.toLowerCase();
    let best: { score: number; value: string } | undefined;
    for (const text of texts) {
      for (const span of this.spans(text, kind)) {
        if (qLower.includes(span.value.toLowerCase())) continue;
        // A person the question already names (even by surname alone) is not the answer.
        if (kind === 'person' && qTokens.has(span.value.split(' ').pop()!.toLowerCase().split('-')[0]!)) continue;
        const lineStart = text.lastIndexOf('\n', span.at) + 1;
        if (kind === 'person' && /^(From|To|Cc|Sent):/.test(text.slice(lineStart, lineStart + 5))) continue;
        const end = span.at + span.value.length;
        const narrow = new Set(contentTokens(text.slice(Math.max(0, span.at - 50), end + 50)));
        const wide = new Set(contentTokens(text.slice(Math.max(0, span.at - 160), end + 160)));
        let score = 0;
        for (const t of qTokens) score += (narrow.has(t) ? 2 : 0) + (wide.has(t) ? 1 : 0);
        if (!best || score > best.score) best = { score, value: span.value };
      }
    }
    return best?.value ?? '';
  }
}

export function expectedKind(question: string): AnswerKind {
  const q = question.trim();
  if (/^(how much|what price|what amount)/i.test(q)) return 'money';
  if (/^(on what date|when)\b/i.test(q)) return 'date';
  if (/^at what time/i.test(q)) return 'time';
  if (/^(which|what) aircraft|tail number/i.test(q)) return 'tail';
  if (/case number/i.test(q)) return 'caseno';
  if (/reference number/i.test(q)) return 'reference';
  if (/^which bank/i.test(q)) return 'org';
  if (/^(who|which judge|which pilot)\b/i.test(q)) return 'person';
  if (/^where did .* meet\b/i.test(q)) return 'venue';
  if (/^(where|from which airfield|to which)\b/i.test(q)) return 'place';
  return 'phrase';
}

const STOP = new Set(
  'a an the of to in on at by for from with and or was were is are did does do what which who whom where when how much ' +
    'that this their his her its it be been as into about than then there'.split(' '),
);

export function contentTokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOP.has(t));
}

function wordRegex(phrase: string, flags = 'g'): RegExp {
  return new RegExp(`(?<![A-Za-z])${escapeRegExp(phrase)}(?![A-Za-z])`, flags);
}
