import { errorMessage } from '../error-message.ts';
import type { RejectionStage } from '../release/types.ts';
import { DATE_PATTERN, longDate, parseDate, yearOf } from './calendar.ts';
import type { PipelineContext } from './context.ts';
import type { Draft } from './drafting.ts';
import { extractNames } from './entity-index.ts';
import { ATTR_BY_KEY, ATTRS, answerOf, fieldOf, type AnswerKind } from './facts.ts';
import { contentTokens, expectedKind } from './reader.ts';
import { ANSWERABILITY_F1_FLOOR, tokenF1 } from './token-f1.ts';
import type { WorldEvent } from './world.ts';
import { participants } from './world.ts';

/** A failed stage: what it saw and why it failed (rejection-details.jsonl). */
export interface StageFailure {
  stage: RejectionStage;
  reason: string;
  saw: string;
  why: string;
}

const DEIXIS =
  /\b(?:this|the above|the attached|the following|the aforementioned) (?:document|email|e-mail|letter|memo|message|file|page|record|log|transcript|excerpt)\b|\bthe (?:sender|recipient|author|writer) (?:says|said|wrote|writes)\b|\bthe document above\b/i;
const HEDGES = /\b(?:alleged|allegedly|rumou?red|reportedly|supposed|supposedly)\b/i;
const CLOSED_BOOK_F1 = 0.8;

const fail = (stage: RejectionStage, category: string | null, saw: string, why: string): StageFailure => ({
  stage,
  reason: stage === 'adjudication' ? `adjudication:${category}` : stage === 'error' ? `error:${category}` : stage,
  saw,
  why,
});

export class Gauntlet {
  private readonly aliases: string[];
  private readonly priors = new Map<AnswerKind, string>();
  private readonly yearRange: [number, number];

  constructor(private readonly ctx: PipelineContext) {
    this.aliases = Object.values(ctx.entities).flatMap((e) => e.aliases);
    // The closed-book guesser knows base rates only: the commonest answer of each kind.
    const counts = new Map<AnswerKind, Map<string, number>>();
    for (const attr of ATTRS) {
      const c = counts.get(attr.answerKind) ?? new Map<string, number>();
      counts.set(attr.answerKind, c);
      for (const e of ctx.world.events)
        if (e.kind === attr.kind) {
          const v = answerOf(ctx.world, e, attr.attr);
          c.set(v, (c.get(v) ?? 0) + 1);
        }
    }
    for (const [kind, c] of counts)
      this.priors.set(kind, [...c.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0]);
    const years = ctx.world.events.map((e) => yearOf(e.day));
    this.yearRange = [Math.min(...years), Math.max(...years)];
  }

  /** The closed-book control's guess for a question (also used by the reference submission). */
  closedBookGuess(question: string): string {
    return this.priors.get(expectedKind(question)) ?? '';
  }

  /** Runs the stages in order; undefined = verified. */
  check(draft: Draft): StageFailure | undefined {
    try {
      return (
        this.schema(draft) ??
        this.standalone(draft) ??
        this.answerability(draft) ??
        this.necessity(draft) ??
        this.adjudicate(draft)
      );
    } catch (error) {
      return fail('error', errorMessage(error), draft.candidate.question, 'a stage threw');
    }
  }

  private schema({ candidate }: Draft): StageFailure | undefined {
    for (const [i, item] of (candidate.items ?? []).entries()) {
      if (item.doc_ids.length === 0) {
        return fail(
          'error',
          `item ${i} has no doc_ids`,
          `item ${i}: "${item.item}" with doc_ids []`,
          'every list item must name the documents that support it',
        );
      }
    }
    return undefined;
  }

  private standalone({ candidate }: Draft): StageFailure | undefined {
    const q = candidate.question;
    const deixis = DEIXIS.exec(q);
    if (deixis)
      return fail('standalone', null, q, `the question points at a document the reader does not have ("${deixis[0]}")`);
    if (!this.aliases.some((a) => q.includes(a))) {
      return fail(
        'standalone',
        null,
        q,
        'the question names no entity of the corpus (person, organisation or place), so it cannot be answered on its own',
      );
    }
    const targets = [candidate.answer ?? '', ...(candidate.items ?? []).map((i) => i.item)].filter(
      (t) => t.split(/\s+/).length >= 3,
    );
    for (const t of targets) {
      const line = this.ctx.boilerplateLines.find((l) => l.toLowerCase().includes(t.toLowerCase()));
      if (line)
        return fail(
          'standalone',
          null,
          `answer "${t}"`,
          `the target is boilerplate repeated across the corpus: "${line.slice(0, 120)}"`,
        );
    }
    return undefined;
  }

  private texts(ids: readonly string[]): string[] {
    return ids.map((id) => this.ctx.docById.get(id)?.text ?? '');
  }

  private answerability({ candidate }: Draft): StageFailure | undefined {
    switch (candidate.type) {
      case 'single_hop': {
        const read = this.ctx.reader.read(candidate.question, this.texts(candidate.source_doc_ids));
        const f1 = tokenF1(read, candidate.answer ?? '');
        if (f1 < ANSWERABILITY_F1_FLOOR) {
          return fail(
            'answerability',
            null,
            `reader answer from ${candidate.source_doc_ids.join(', ')}: "${read || '(nothing found)'}"; reference: "${candidate.answer}"`,
            `token-F1 ${f1.toFixed(3)} is below the floor ${ANSWERABILITY_F1_FLOOR}: the answer cannot be recovered from the source document`,
          );
        }
        return undefined;
      }
      case 'timeline': {
        const found = new Set(this.texts(candidate.source_doc_ids).flatMap((t) => datesIn(t)));
        const missing = datesIn(candidate.answer ?? '').filter((d) => !found.has(d));
        if (missing.length > 0) {
          return fail(
            'answerability',
            null,
            `dates in the answer: ${datesIn(candidate.answer ?? '').join(', ')}; dates in the sources: ${[...found].slice(0, 12).join(', ')}`,
            `no source document gives ${missing.join(', ')}`,
          );
        }
        return undefined;
      }
      case 'aggregation':
      case 'dossier': {
        for (const item of candidate.items ?? []) {
          if (!item.doc_ids.some((id) => itemSupported(item.item, this.ctx.docById.get(id)?.text ?? ''))) {
            return fail(
              'answerability',
              null,
              `item "${item.item}" against ${item.doc_ids.join(', ')}`,
              'none of the documents cited for this item states it (its date or its details are missing)',
            );
          }
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  private necessity({ candidate }: Draft): StageFailure | undefined {
    switch (candidate.type) {
      case 'single_hop': {
        const answer = candidate.answer ?? '';
        const a = contentTokens(answer);
        const q = new Set(contentTokens(candidate.question));
        if (a.length > 0 && a.every((t) => q.has(t))) {
          return fail(
            'necessity',
            null,
            `question: "${candidate.question}"; answer: "${answer}"`,
            'the answer is already stated in the question',
          );
        }
        const guess = this.closedBookGuess(candidate.question);
        const f1 = tokenF1(guess, answer);
        if (f1 >= CLOSED_BOOK_F1) {
          return fail(
            'necessity',
            null,
            `closed-book guess: "${guess}"; answer: "${answer}"`,
            `a closed-book guess from base rates already matches the answer (token-F1 ${f1.toFixed(2)} >= ${CLOSED_BOOK_F1})`,
          );
        }
        return undefined;
      }
      case 'timeline': {
        const found = datesIn(candidate.answer ?? '');
        const docs = new Set(candidate.source_doc_ids);
        for (const id of docs) {
          const dates = new Set(datesIn(this.ctx.docById.get(id)?.text ?? ''));
          if (found.length >= 2 && found.every((d) => dates.has(d))) {
            return fail(
              'necessity',
              null,
              `${id} gives both dates (${found.join(', ')})`,
              'a single document suffices, so the question does not need two documents',
            );
          }
        }
        return undefined;
      }
      case 'aggregation':
      case 'dossier': {
        const items = candidate.items ?? [];
        const pool = new Set(items.flatMap((i) => i.doc_ids));
        for (const id of pool) {
          const text = this.ctx.docById.get(id)?.text ?? '';
          if (items.length > 0 && items.every((i) => itemSupported(i.item, text))) {
            return fail(
              'necessity',
              null,
              `${id} states all ${items.length} items`,
              'a single document suffices for the whole list',
            );
          }
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /** The adjudicator's check for the candidate's type; undefined = it passes. */
  private adjudicate(draft: Draft): StageFailure | undefined {
    switch (draft.candidate.type) {
      case 'single_hop':
        return this.adjudicateSingleHop(draft);
      case 'timeline':
        return this.adjudicateTimeline(draft);
      case 'aggregation':
      case 'dossier':
        return this.adjudicateList(draft);
      case 'unanswerable':
        return this.adjudicateUnanswerable(draft);
      case 'false_premise':
        return this.adjudicateFalsePremise(draft);
    }
  }

  private event(id: string): WorldEvent {
    return this.ctx.world.eventById.get(id)!;
  }

  /** Grounded in an event, salient, unambiguous, right, and worded only from the sources. */
  private adjudicateSingleHop({ candidate, spec }: Draft): StageFailure | undefined {
    const w = this.ctx.world;
    if (spec.events.length === 0 || !spec.attrKey) {
      return fail(
        'adjudication',
        'not_grounded',
        `answer "${candidate.answer}"`,
        'the answer is not a fact of any event in the corpus',
      );
    }
    const attr = ATTR_BY_KEY.get(spec.attrKey)!;
    const event = this.event(spec.events[0]!);
    if (attr.salience < 3) {
      return fail(
        'adjudication',
        'trivial',
        `asks for the ${attr.attr} of ${event.kind} ${event.id} (salience ${attr.salience})`,
        'the fact asked about is a trivial detail, not something an investigator would ask',
      );
    }
    const constraints = spec.constraints ?? attr.constraints;
    const matches = w.events.filter(
      (e) => e.kind === event.kind && constraints.every((c) => fieldOf(w, e, c) === fieldOf(w, event, c)),
    );
    const answers = new Set(matches.map((e) => answerOf(w, e, attr.attr)));
    if (answers.size > 1) {
      return fail(
        'adjudication',
        'ambiguous',
        `${matches.length} ${event.kind} events match what the question names (${constraints.join(', ')}), with answers: ${[...answers].slice(0, 4).join(' | ')}`,
        'the question fits more than one fact and the answers differ',
      );
    }
    const truth = answerOf(w, event, attr.attr);
    const f1 = tokenF1(candidate.answer ?? '', truth);
    if (f1 < 0.34)
      return fail(
        'adjudication',
        'wrong',
        `answer "${candidate.answer}"; the source states "${truth}"`,
        `the reference answer does not state the fact (token-F1 ${f1.toFixed(2)})`,
      );
    const sourceTokens = new Set(
      this.texts(candidate.source_doc_ids).flatMap((t) => [
        ...contentTokens(t),
        ...contentTokens(datesIn(t).join(' ')),
      ]),
    );
    const extra = contentTokens(candidate.answer ?? '').filter((t) => !sourceTokens.has(t));
    if (extra.length > 0)
      return fail(
        'adjudication',
        'not_grounded',
        `answer "${candidate.answer}"`,
        `the answer adds words no source document supports: ${extra.join(', ')}`,
      );
    return undefined;
  }

  /** The claimed order is the records' order. */
  private adjudicateTimeline({ candidate, spec }: Draft): StageFailure | undefined {
    const [first, second] = spec.claimedOrder!.map((id) => this.event(id)) as [WorldEvent, WorldEvent];
    if (first.day > second.day) {
      return fail(
        'adjudication',
        'wrong',
        `answer: "${candidate.answer}"; the records date them ${longDate(second.day)} and ${longDate(first.day)}`,
        'the answer puts the two events in the wrong order',
      );
    }
    return undefined;
  }

  /** Aggregation and dossier lists need a time scope, or no gold list can be complete. */
  private adjudicateList({ candidate, spec }: Draft): StageFailure | undefined {
    if (spec.scopeYear !== undefined) return undefined;
    const w = this.ctx.world;
    const person = spec.person ? w.personById.get(spec.person) : undefined;
    const total = person ? w.events.filter((e) => participants(e).includes(person.id)).length : 0;
    return fail(
      'adjudication',
      'ambiguous',
      `question "${candidate.question}" has no time scope; ${total} events involve the entity`,
      'without a scope the expected list is open-ended, so no gold list can be complete',
    );
  }

  /** About people the corpus knows, and about an event the corpus does not record. */
  private adjudicateUnanswerable({ candidate }: Draft): StageFailure | undefined {
    const unknown = extractNames(candidate.question).filter(
      (n) => !this.ctx.entities[n.toLowerCase()] && !/^(What|Which|How)\b/.test(n),
    );
    if (unknown.length > 0) {
      return fail(
        'adjudication',
        'trivial',
        `names not in the corpus: ${unknown.join(', ')}`,
        'the question is trivially unanswerable: it is about someone the corpus never mentions',
      );
    }
    const match = this.unanswerableMatch(candidate.question);
    if (match)
      return fail(
        'adjudication',
        'answerable',
        `event ${match.id} on ${longDate(match.day)}`,
        'the corpus does record such an event, so the question is answerable',
      );
    return undefined;
  }

  /** Worded neutrally, plausible, and contradicted by no top-ranked or other document. */
  private adjudicateFalsePremise({ candidate, spec }: Draft): StageFailure | undefined {
    const q = candidate.question;
    const hedge = HEDGES.exec(q);
    if (hedge)
      return fail(
        'adjudication',
        'tips_off',
        q,
        `the wording ("${hedge[0]}") tips the reader off that the premise may be false`,
      );
    const year = Number(/\b(19|20)\d{2}\b/.exec(q)?.[0] ?? NaN);
    if (!Number.isNaN(year) && (year < this.yearRange[0] || year > this.yearRange[1])) {
      return fail(
        'adjudication',
        'implausible',
        `year ${year}; the corpus covers ${this.yearRange[0]}-${this.yearRange[1]}`,
        'the premise is implausible on its face (outside the period the corpus covers)',
      );
    }
    const p = spec.person!;
    const other = spec.other!;
    const together = (id: string) =>
      [...(this.ctx.docById.get(id)?.mentions ?? [])].find((e) => {
        const parts = participants(this.event(e));
        return parts.includes(p) && parts.includes(other);
      });
    for (const id of candidate.provenance.absence_doc_ids ?? []) {
      const e = together(id);
      if (e)
        return fail(
          'adjudication',
          'supported',
          `top-5 BM25 doc ${id} records event ${e} with both people`,
          'absence check failed: a top-ranked document states that the two did deal with each other',
        );
    }
    const any = this.ctx.docs.find(
      (d) => d.quality !== 'garbage' && d.people.has(p) && d.people.has(other) && together(d.doc_id),
    );
    if (any)
      return fail(
        'adjudication',
        'supported',
        `${any.doc_id} records event ${together(any.doc_id)} with both people`,
        'support check failed: the corpus documents an interaction between the two, so the premise is not clearly false',
      );
    return undefined;
  }

  /** World check for unanswerable questions: is there an event fitting the question after all? */
  private unanswerableMatch(question: string): WorldEvent | undefined {
    const w = this.ctx.world;
    const month = /in ([A-Z][a-z]+ \d{4})\?$/.exec(question)?.[1];
    if (!month) return undefined;
    const inMonth = w.events.filter((e) => longDate(e.day).endsWith(month));
    const named = w.people.filter((p) => question.includes(`${p.first} ${p.last}`)).map((p) => p.id);
    return inMonth.find((e) => {
      if (e.kind === 'meeting') return named.length >= 2 && named.includes(e.a) && named.includes(e.b);
      if (e.kind === 'payment') return named.includes(e.payee) && question.includes(w.orgById.get(e.payerOrg)!.name);
      if (e.kind === 'flight')
        return named.some((id) => e.passengers.includes(id)) && question.includes(` to ${e.dest} `);
      return false;
    });
  }
}

/** Dates of a text in canonical form. */
export function datesIn(text: string): string[] {
  return [...text.matchAll(new RegExp(DATE_PATTERN.source, 'g'))].map((m) => {
    const d = parseDate(m[0]);
    return d === undefined ? m[0] : longDate(d);
  });
}

const MONTH_WORDS = new Set(
  'january february march april may june july august september october november december on'.split(' '),
);

/** An item is supported by a text when its dates appear there and most of its other words do. */
export function itemSupported(item: string, text: string): boolean {
  const dates = datesIn(item);
  if (dates.length > 0) {
    const have = new Set(datesIn(text));
    if (!dates.every((d) => have.has(d))) return false;
  }
  const stripped = item.replace(new RegExp(DATE_PATTERN.source, 'g'), ' ');
  const tokens = contentTokens(stripped).filter((t) => !MONTH_WORDS.has(t));
  if (tokens.length === 0) return dates.length > 0;
  const have = new Set(contentTokens(text));
  const hits = tokens.filter((t) => have.has(t)).length;
  return hits / tokens.length >= 0.6;
}
