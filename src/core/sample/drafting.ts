import type { Candidate, GoldItem, TaskType } from '../release/types.ts';
import { EMAIL_DISCLAIMER } from './boilerplate.ts';
import { isoDate, longDate, monthYear, yearOf } from './calendar.ts';
import type { PipelineContext } from './context.ts';
import { FALSE_PREMISE_PIPELINE_VERSION, GENERATOR_MODEL, PIPELINE_VERSION } from './context.ts';
import { ATTRS, answerOf, factKey, fieldOf, type AttrSpec } from './facts.ts';
import { ISLANDS, MEETING_TOPICS, STREETS, VENUES } from './names.ts';
import type { Prng } from './prng.ts';
import type { Person, WorldEvent } from './world.ts';
import { formalName, fullName, participants } from './world.ts';

/**
 * Candidate drafting, fact first. Like an LLM drafter, it is noisy on purpose: a share of drafts
 * carry a flaw (deictic wording, a wrong or embellished answer, a trivial target, a leaked answer,
 * a missing scope...). The gauntlet never reads `spec.noise`; it has to find the flaw itself.
 */
export interface DraftSpec {
  noise: string;
  events: string[];
  attrKey?: string;
  /** Fields of the event the question names (the adjudicator matches on them). */
  constraints?: string[];
  /** Aggregation/dossier: the fact each item was drafted from (parallel to items). */
  itemFacts?: string[];
  person?: string;
  other?: string;
  /** Timeline: the event ids in the order the answer claims. */
  claimedOrder?: [string, string];
  scopeYear?: number;
}

export interface Draft {
  candidate: Candidate;
  spec: DraftSpec;
}

export const OUTSIDERS = ['Orla Fenchurch-Bay', 'Magnus Treveleyan-Oakes', 'Sidonie Harquill', 'Everard Pinchbeck-Loe'];
const ADVERB: Record<string, string> = { alleged: 'allegedly', rumoured: 'reportedly', supposed: 'supposedly' };
const EMEND = [
  'paid in cash at the time',
  'arranged in secret by the trustees',
  'after a heated argument',
  'on the advice of an outside lawyer',
];

function deictic(question: string, rng: Prng): string {
  const lower = question[0]!.toLowerCase() + question.slice(1);
  return rng.pick([
    `According to this email, ${lower}`,
    `In the attached letter, ${lower}`,
    `Based on the document above, ${lower}`,
    `As the sender says, ${lower}`,
  ]);
}

export class Drafter {
  private readonly clean: (factKey: string) => string[];
  constructor(
    private readonly ctx: PipelineContext,
    private readonly rng: Prng,
  ) {
    this.clean = (key) => (ctx.statedIn.get(key) ?? []).filter((id) => ctx.docById.get(id)!.quality === 'clean');
  }

  private name(id: string): string {
    const p = this.ctx.world.personById.get(id)!;
    return this.rng.chance(0.8) ? fullName(p) : formalName(p);
  }

  private base(
    type: TaskType,
    question: string,
    answer: string | null,
    items: GoldItem[] | null,
    sources: string[],
    extra: Record<string, unknown> = {},
  ): Candidate {
    return {
      task_id: this.rng.uuid4(),
      type,
      question,
      answer,
      items,
      source_doc_ids: [...new Set(sources)].sort(),
      provenance: { generator_model: GENERATOR_MODEL, pipeline_version: PIPELINE_VERSION, ...extra },
    };
  }

  draft(type: TaskType): Draft | undefined {
    switch (type) {
      case 'single_hop':
        return this.singleHop();
      case 'aggregation':
        return this.aggregation();
      case 'timeline':
        return this.timeline();
      case 'dossier':
        return this.dossier();
      case 'unanswerable':
        return this.unanswerable();
      case 'false_premise':
        return this.falsePremise();
    }
  }

  singleHop(): Draft | undefined {
    const rng = this.rng;
    const w = this.ctx.world;
    const noise = rng.weighted([
      ['none', 0.2],
      ['deictic', 0.13],
      ['no_entity', 0.06],
      ['boilerplate', 0.05],
      ['wrong', 0.1],
      ['leak', 0.06],
      ['trivial', 0.08],
      ['vague', 0.09],
      ['embellish', 0.07],
      ['weak_source', 0.06],
    ] as const);
    if (noise === 'boilerplate') return this.boilerplateQuestion();
    const pool = ATTRS.filter((a) => (noise === 'trivial' ? a.salience < 3 : a.salience >= 3));
    for (let attempt = 0; attempt < 30; attempt++) {
      const attr = rng.pick(pool);
      const event = rng.pick(w.events.filter((e) => e.kind === attr.kind));
      const key = factKey(event, attr.attr);
      const sources = this.clean(key);
      if (sources.length === 0) continue;
      let source = rng.pick(sources);
      let question = attr.question(event, w, (id) => this.name(id));
      let answer = answerOf(w, event, attr.attr);
      let constraints = attr.constraints;
      if (noise === 'deictic') question = deictic(question, rng);
      if (noise === 'no_entity') {
        question = this.stripEntities(question, event, attr);
        constraints = constraints.filter((c) =>
          ['date', 'month', 'venue', 'town', 'origin', 'dest', 'tail', 'address', 'motion'].includes(c),
        );
      }
      if (noise === 'wrong') {
        const other = rng.pick(w.events.filter((e) => e.kind === attr.kind && e.id !== event.id));
        answer = answerOf(w, other, attr.attr);
      }
      if (noise === 'leak') question = `${question.slice(0, -1)}, was it ${answer}?`;
      if (noise === 'embellish') answer = `${answer}, ${rng.pick(EMEND)}`;
      if (noise === 'vague') {
        const dropped = constraints.filter((c) => c !== 'date' && c !== 'month');
        if (dropped.length === constraints.length) continue;
        constraints = dropped;
        question = question
          .replace(/ on \d{1,2} [A-Z][a-z]+ \d{4}| in [A-Z][a-z]+ \d{4}(?=\?)/, '')
          .replace(/ the \d{1,2} [A-Z][a-z]+ \d{4} /, ' the ')
          .replace(/ their \d{1,2} [A-Z][a-z]+ \d{4} /, ' their ');
      }
      if (noise === 'weak_source') {
        const weak = this.ctx.docs.filter(
          (d) => d.quality === 'clean' && d.mentions.has(event.id) && !d.states.has(key),
        );
        if (weak.length > 0) source = rng.pick(weak).doc_id;
      }
      const candidate = this.base('single_hop', question, answer, null, [source], { salience: attr.salience });
      return { candidate, spec: { noise, events: [event.id], attrKey: attr.key, constraints } };
    }
    return undefined;
  }

  private stripEntities(question: string, event: WorldEvent, attr: AttrSpec): string {
    const generic: Record<string, string> = {
      a: 'she',
      b: 'him',
      pax: 'the client',
      payee: 'her',
      payer: 'the company',
      buyer: 'the buyer',
      seller: 'the seller',
      filer: 'the lawyer',
      party: 'the client',
      tail: 'the jet',
      origin: 'the island',
      dest: 'the island',
      venue: 'hotel',
      town: 'town',
      address: 'the house',
      caseName: 'the case',
      court: 'court',
      motion: 'motion',
    };
    let q = question;
    for (const c of attr.constraints) {
      const value = fieldOf(this.ctx.world, event, c);
      if (value && generic[c]) q = q.split(value).join(generic[c]);
    }
    for (const p of this.ctx.world.people) q = q.split(formalName(p)).join('her').split(fullName(p)).join('her');
    return q;
  }

  /** A question whose answer is the email disclaimer: boilerplate, not a fact. */
  private boilerplateQuestion(): Draft | undefined {
    const emails = this.ctx.docs.filter(
      (d) => d.quality === 'clean' && d.kind === 'email' && d.text.includes(EMAIL_DISCLAIMER),
    );
    if (emails.length === 0) return undefined;
    const doc = this.rng.pick(emails);
    const from = /^From: ([^<\n]+) </m.exec(doc.text)?.[1]?.trim() ?? 'the sender';
    const to = /^To: ([^<\n]+) </m.exec(doc.text)?.[1]?.trim() ?? 'the recipient';
    const question = `What does the notice at the end of ${from}'s email to ${to} ask an unintended recipient to do?`;
    const candidate = this.base(
      'single_hop',
      question,
      'notify the sender immediately and delete this message',
      null,
      [doc.doc_id],
      { salience: 3 },
    );
    return { candidate, spec: { noise: 'boilerplate', events: [] } };
  }

  private shortest(ids: string[]): string {
    return ids.reduce((a, b) => (this.ctx.docById.get(b)!.text.length < this.ctx.docById.get(a)!.text.length ? b : a));
  }

  private eventsOf(personId: string): WorldEvent[] {
    return this.ctx.world.events.filter((e) => participants(e).includes(personId));
  }

  private describe(e: WorldEvent, personId: string): { long: string; short: string; dateKey: string } {
    const n = (id: string) => fullName(this.ctx.world.personById.get(id)!);
    const org = (id: string) => this.ctx.world.orgById.get(id)!.name;
    const dateKey = factKey(e, 'date');
    switch (e.kind) {
      case 'meeting': {
        const other = n(e.a === personId ? e.b : e.a);
        return {
          long: `${n(personId)}'s meeting with ${other} at the ${e.venue}`,
          short: `the meeting with ${other} at the ${e.venue}`,
          dateKey,
        };
      }
      case 'flight':
        return {
          long: `${n(personId)}'s flight from ${e.origin} to ${e.dest} aboard ${e.tail}`,
          short: `the flight from ${e.origin} to ${e.dest} aboard ${e.tail}`,
          dateKey,
        };
      case 'payment':
        return {
          long: `the ${e.purpose} payment from ${org(e.payerOrg)} to ${n(personId)}`,
          short: `the ${e.purpose} payment from ${org(e.payerOrg)}`,
          dateKey,
        };
      case 'property':
        return {
          long: `the sale of ${e.address}, ${e.town} involving ${n(personId)}`,
          short: `the sale of ${e.address}, ${e.town}`,
          dateKey,
        };
      case 'legal':
        return { long: `the ${e.motion} filed in ${e.caseName}`, short: `the ${e.motion} in ${e.caseName}`, dateKey };
    }
  }

  /** Item text of a fact for lists: value plus date. */
  private itemText(e: WorldEvent, personId: string): { text: string; key: string } {
    const w = this.ctx.world;
    const n = (id: string) => fullName(w.personById.get(id)!);
    switch (e.kind) {
      case 'flight':
        return { text: `${e.dest} on ${longDate(e.day)}`, key: factKey(e, 'dest') };
      case 'payment':
        return {
          text: `${answerOf(w, e, 'amount')} from ${w.orgById.get(e.payerOrg)!.name} on ${longDate(e.day)}`,
          key: factKey(e, 'amount'),
        };
      case 'meeting':
        return {
          text: `${n(e.a === personId ? e.b : e.a)} at the ${e.venue} on ${longDate(e.day)}`,
          key: factKey(e, 'venue'),
        };
      case 'property':
        return { text: `${e.address}, ${e.town} on ${longDate(e.day)}`, key: factKey(e, 'price') };
      case 'legal':
        return { text: `${e.motion} on ${longDate(e.day)}`, key: factKey(e, 'motion') };
    }
  }

  private entityDocs(p: Person): string[] | undefined {
    return this.ctx.entities[fullName(p).toLowerCase()]?.doc_ids;
  }

  aggregation(): Draft | undefined {
    const rng = this.rng;
    const w = this.ctx.world;
    const noise = rng.weighted([
      ['none', 0.24],
      ['deictic', 0.14],
      ['single_doc', 0.18],
      ['wrong_item', 0.16],
      ['missing_doc_ids', 0.05],
      ['vague', 0.15],
    ] as const);
    for (let attempt = 0; attempt < 40; attempt++) {
      const person = rng.weighted(w.people.map((p) => [p, p.weight] as const));
      const aliasDocs = this.entityDocs(person);
      if (!aliasDocs) continue;
      const template = rng.pick(['flight', 'payment', 'meeting'] as const);
      const year = rng.int(2004, 2016);
      let events = this.eventsOf(person.id).filter(
        (e) =>
          e.kind === template && (template !== 'flight' || (e.kind === 'flight' && e.passengers.includes(person.id))),
      );
      if (noise !== 'vague') events = events.filter((e) => yearOf(e.day) === year);
      const usable = events
        .map((e) => ({ e, ...this.itemText(e, person.id) }))
        .filter((x) => this.clean(x.key).length > 0);
      if (usable.length < 2 || usable.length > 8) continue;
      let chosen = usable;
      if (noise === 'single_doc') {
        // The drafter read one long doc and listed only what it states.
        const counts = new Map<string, typeof usable>();
        for (const x of usable) for (const d of this.clean(x.key)) counts.set(d, [...(counts.get(d) ?? []), x]);
        const multi = [...counts.entries()].filter(([, xs]) => xs.length >= 2);
        if (multi.length === 0) continue;
        chosen = rng.pick(multi)[1];
      }
      const who = fullName(person);
      const scope = noise === 'vague' ? '' : ` in ${year}`;
      let question = {
        flight: `Which places did ${who} fly to aboard private aircraft${scope}, and on what dates?`,
        payment: `Which payments did ${who} receive${scope}, from whom and when?`,
        meeting: `Whom did ${who} meet${scope}, where and when?`,
      }[template];
      if (noise === 'deictic') question = deictic(question, rng);
      const items: GoldItem[] = chosen.map((x) => ({
        item: x.text,
        doc_ids: (this.ctx.statedIn.get(x.key) ?? []).slice().sort(),
      }));
      if (noise === 'wrong_item') {
        const i = rng.int(0, items.length - 1);
        const x = chosen[i]!;
        items[i] = {
          item: x.text.replace(longDate(x.e.day), longDate(x.e.day + rng.int(2, 40))),
          doc_ids: items[i]!.doc_ids,
        };
      }
      if (noise === 'missing_doc_ids') items[rng.int(0, items.length - 1)]!.doc_ids = [];
      // The drafter lists each item from the shortest clean document stating it.
      const sources = chosen.map((x) => this.shortest(this.clean(x.key)));
      const candidate = this.base('aggregation', question, null, items, sources, {
        bounding_entity: who.toLowerCase(),
        candidate_doc_ids: aliasDocs.slice(0, 50),
      });
      return {
        candidate,
        spec: {
          noise,
          events: chosen.map((x) => x.e.id),
          itemFacts: chosen.map((x) => x.key),
          person: person.id,
          ...(noise === 'vague' ? {} : { scopeYear: year }),
        },
      };
    }
    return undefined;
  }

  timeline(): Draft | undefined {
    const rng = this.rng;
    const w = this.ctx.world;
    const noise = rng.weighted([
      ['none', 0.28],
      ['swapped', 0.2],
      ['same_doc', 0.14],
      ['deictic', 0.14],
      ['wrong_date', 0.18],
    ] as const);
    for (let attempt = 0; attempt < 40; attempt++) {
      const person = rng.weighted(w.people.map((p) => [p, p.weight] as const));
      const own = this.eventsOf(person.id).filter((e) => this.clean(factKey(e, 'date')).length > 0);
      if (own.length < 2) continue;
      const e1 = rng.pick(own);
      const near = own.filter(
        (e) => e.id !== e1.id && Math.abs(e.day - e1.day) >= 3 && Math.abs(e.day - e1.day) <= 150,
      );
      if (near.length === 0) continue;
      const e2 = rng.pick(near);
      const [first, second] = e1.day < e2.day ? [e1, e2] : [e2, e1];
      const d1 = this.describe(e1, person.id);
      const d2 = this.describe(e2, person.id);
      let s1 = rng.pick(this.clean(d1.dateKey));
      let s2 = rng.pick(this.clean(d2.dateKey));
      if (noise === 'same_doc') {
        const both = this.clean(d1.dateKey).filter((d) => this.clean(d2.dateKey).includes(d));
        if (both.length === 0) continue;
        s1 = s2 = rng.pick(both);
      } else if (s1 === s2) continue;
      let question = `Which came first: ${d1.long} or ${d2.long}, and how many days apart were they?`;
      if (noise === 'deictic') question = deictic(question, rng);
      const claimed: [WorldEvent, WorldEvent] = noise === 'swapped' ? [second, first] : [first, second];
      const gap = Math.abs(e1.day - e2.day);
      const dayOf = (e: WorldEvent) => (noise === 'wrong_date' && e === claimed[1] ? e.day + rng.int(5, 60) : e.day);
      const ds = (e: WorldEvent) => this.describe(e, person.id).short;
      const answer = `${capital(ds(claimed[0]))} on ${longDate(dayOf(claimed[0]))} came first, ${gap} days before ${ds(claimed[1])} on ${longDate(dayOf(claimed[1]))}.`;
      const candidate = this.base('timeline', question, answer, null, [s1, s2]);
      return {
        candidate,
        spec: { noise, events: [e1.id, e2.id], person: person.id, claimedOrder: [claimed[0].id, claimed[1].id] },
      };
    }
    return undefined;
  }

  dossier(): Draft | undefined {
    const rng = this.rng;
    const w = this.ctx.world;
    const noise = rng.weighted([
      ['none', 0.36],
      ['deictic', 0.16],
      ['wrong_date', 0.2],
      ['single_doc', 0.12],
      ['vague', 0.16],
    ] as const);
    const targets = Object.keys(this.ctx.targets);
    for (let attempt = 0; attempt < 40; attempt++) {
      const target = rng.pick(targets);
      const person = w.people.find((p) => fullName(p).toLowerCase() === target);
      if (!person) continue;
      const year = rng.int(2004, 2016);
      let events = this.eventsOf(person.id).filter((e) => this.clean(factKey(e, 'date')).length > 0);
      if (noise !== 'vague') events = events.filter((e) => yearOf(e.day) === year);
      if (events.length < 3 || events.length > 7) continue;
      let chosen = events;
      if (noise === 'single_doc') {
        const counts = new Map<string, WorldEvent[]>();
        for (const e of events)
          for (const d of this.clean(factKey(e, 'date'))) counts.set(d, [...(counts.get(d) ?? []), e]);
        const multi = [...counts.values()].filter((xs) => xs.length >= 3);
        if (multi.length === 0) continue;
        chosen = rng.pick(multi);
      }
      const who = fullName(person);
      const items: GoldItem[] = chosen.map((e) => {
        const day = noise === 'wrong_date' && e === chosen[0] ? e.day + rng.int(3, 30) : e.day;
        return {
          item: `${isoDate(day)} \u2014 ${capital(this.describe(e, person.id).long)}.`,
          doc_ids: (this.ctx.statedIn.get(factKey(e, 'date')) ?? []).slice().sort(),
        };
      });
      let question =
        noise === 'vague'
          ? `Compile a dated record of everything documented about ${who}.`
          : `Compile a dated record of ${who}'s documented meetings, flights, payments, property deals and court filings in ${year}.`;
      if (noise === 'deictic') question = deictic(question, rng);
      const sources = chosen.map((e) => this.shortest(this.clean(factKey(e, 'date'))));
      const candidate = this.base('dossier', question, null, items, sources, {
        target_entity: target,
        candidate_doc_ids: (this.entityDocs(person) ?? []).slice(0, 50),
      });
      return {
        candidate,
        spec: {
          noise,
          events: chosen.map((e) => e.id),
          itemFacts: chosen.map((e) => factKey(e, 'date')),
          person: person.id,
          ...(noise === 'vague' ? {} : { scopeYear: year }),
        },
      };
    }
    return undefined;
  }

  unanswerable(): Draft | undefined {
    const rng = this.rng;
    const w = this.ctx.world;
    const noise = rng.weighted([
      ['none', 0.3],
      ['answerable', 0.3],
      ['trivial', 0.16],
      ['deictic', 0.18],
    ] as const);
    const people = w.people.filter((p) => this.entityDocs(p));
    const template = rng.pick(['meeting', 'payment', 'flight'] as const);
    let real: WorldEvent | undefined;
    if (noise === 'answerable') real = rng.pick(w.events.filter((e) => e.kind === template));
    const day = real?.day ?? rng.int(12_450, 17_150);
    const when = monthYear(day);
    let question: string;
    let personId: string;
    let otherId: string | undefined;
    if (template === 'meeting') {
      const a = real?.kind === 'meeting' ? w.personById.get(real.a)! : rng.pick(people);
      const b = real?.kind === 'meeting' ? w.personById.get(real.b)! : rng.pick(people.filter((p) => p !== a));
      const bName = noise === 'trivial' ? rng.pick(OUTSIDERS) : fullName(b);
      question = `What date was the meeting scheduled between ${fullName(a)} and ${bName} in ${when}?`;
      personId = a.id;
      otherId = noise === 'trivial' ? undefined : b.id;
    } else if (template === 'payment') {
      const p = real?.kind === 'payment' ? w.personById.get(real.payee)! : rng.pick(people);
      const org = real?.kind === 'payment' ? w.orgById.get(real.payerOrg)! : rng.pick(w.orgs);
      const who = noise === 'trivial' ? rng.pick(OUTSIDERS) : fullName(p);
      question = `How much did ${org.name} wire to ${who} in ${when}?`;
      personId = p.id;
    } else {
      const p = real?.kind === 'flight' ? w.personById.get(real.passengers[0]!)! : rng.pick(people);
      const dest = real?.kind === 'flight' ? real.dest : rng.pick(ISLANDS);
      const who = noise === 'trivial' ? rng.pick(OUTSIDERS) : fullName(p);
      question = `Which aircraft flew ${who} to ${dest} in ${when}?`;
      personId = p.id;
    }
    if (noise === 'deictic') question = deictic(question, rng);
    const candidate = this.base('unanswerable', question, null, null, []);
    return {
      candidate,
      spec: { noise, events: real ? [real.id] : [], person: personId, ...(otherId ? { other: otherId } : {}) },
    };
  }

  falsePremise(): Draft | undefined {
    const rng = this.rng;
    const w = this.ctx.world;
    const noise = rng.weighted([
      ['none', 0.3],
      ['supported', 0.26],
      ['tips_off', 0.14],
      ['implausible', 0.12],
      ['deictic', 0.12],
    ] as const);
    const targets = Object.keys(this.ctx.targets);
    for (let attempt = 0; attempt < 40; attempt++) {
      const target = rng.pick(targets);
      const p = w.people.find((x) => fullName(x).toLowerCase() === target);
      if (!p) continue;
      const partners = new Set(this.eventsOf(p.id).flatMap((e) => participants(e)));
      partners.delete(p.id);
      const pool = w.people.filter(
        (q) => q !== p && (noise === 'supported' ? partners.has(q.id) : !partners.has(q.id)) && this.entityDocs(q),
      );
      if (pool.length === 0) continue;
      const q = rng.pick(pool);
      const year = noise === 'implausible' ? rng.pick([1979, 1986, 2031, 2040]) : rng.int(2005, 2016);
      const hedge = noise === 'tips_off' ? rng.pick(['alleged ', 'rumoured ', 'supposed ']) : '';
      const P = fullName(p);
      const Q = fullName(q);
      const kind = rng.pick(['lunch', 'flight', 'interview', 'purchase'] as const);
      let question: string;
      let falseElement: string;
      if (kind === 'lunch') {
        question = `What did ${P} and ${Q} discuss during their ${hedge}${year} working lunch at the ${rng.pick(VENUES)}?`;
        falseElement = `working lunch between ${P} and ${Q}`;
      } else if (kind === 'flight') {
        question = `Where did ${P} and ${Q} fly together on their ${hedge}private trip aboard ${rng.pick(w.aircraft).tail} in ${year}?`;
        falseElement = `private flight taken together by ${P} and ${Q}`;
      } else if (kind === 'interview') {
        question = `What did ${P} tell ${Q} during their ${hedge}${year} recorded interview about ${rng.pick(MEETING_TOPICS)}?`;
        falseElement = `recorded interview between ${P} and ${Q}`;
      } else {
        question = `How much did ${P} and ${Q} pay for the house they ${hedge ? `${ADVERB[hedge.trim()] ?? 'reportedly'} ` : ''}bought together on ${rng.pick(STREETS)} in ${year}?`;
        falseElement = `joint property purchase by ${P} and ${Q}`;
      }
      if (noise === 'deictic') question = deictic(question, rng);
      const absence = this.ctx.retrievers[0]!.search(question, 5);
      const candidate: Candidate = {
        ...this.base('false_premise', question, null, null, [], { target_entity: target, absence_doc_ids: absence }),
        false_element: falseElement,
      };
      candidate.provenance.pipeline_version = FALSE_PREMISE_PIPELINE_VERSION;
      return { candidate, spec: { noise, events: [], person: p.id, other: q.id, scopeYear: year } };
    }
    return undefined;
  }
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
