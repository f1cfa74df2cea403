import { longDate, money, moneyWhole, monthYear } from './calendar.ts';
import type { World, WorldEvent } from './world.ts';
import { formalName, fullName } from './world.ts';

/** What kind of span answers a question; the reader and the closed-book guesser work per kind. */
export type AnswerKind =
  'money' | 'date' | 'time' | 'person' | 'place' | 'venue' | 'tail' | 'caseno' | 'reference' | 'org' | 'phrase';

export interface AttrSpec {
  key: string;
  kind: WorldEvent['kind'];
  attr: string;
  answerKind: AnswerKind;
  /** 1-5; the adjudicator calls anything below 3 trivial. */
  salience: number;
  /** Which other fields the question names (the adjudicator's ambiguity check matches on them). */
  constraints: string[];
  question(e: WorldEvent, w: World, name: (id: string) => string): string;
}

const P = (w: World, id: string) => w.personById.get(id)!;
const org = (w: World, id: string) => w.orgById.get(id)?.name ?? id;

export function answerOf(w: World, e: WorldEvent, attr: string): string {
  const v = fieldOf(w, e, attr);
  if (v === undefined) throw new Error(`event ${e.id} has no attribute ${attr}`);
  return v;
}

/** The canonical surface of any field of an event (also used for constraint matching). */
export function fieldOf(w: World, e: WorldEvent, field: string): string | undefined {
  if (field === 'date') return longDate(e.day);
  if (field === 'month') return monthYear(e.day);
  switch (e.kind) {
    case 'meeting':
      return {
        a: fullName(P(w, e.a)),
        b: fullName(P(w, e.b)),
        venue: e.venue,
        town: e.town,
        topic: e.topic,
        time: e.time,
      }[field];
    case 'flight':
      return {
        tail: e.tail,
        origin: e.origin,
        dest: e.dest,
        pilot: fullName(P(w, e.pilot)),
        departs: e.departs,
        pax: fullName(P(w, e.passengers[0]!)),
      }[field];
    case 'payment':
      return {
        amount: money(e.cents),
        purpose: e.purpose,
        bank: org(w, e.bankOrg),
        reference: e.reference,
        payer: org(w, e.payerOrg),
        payee: fullName(P(w, e.payee)),
      }[field];
    case 'property':
      return {
        price: moneyWhole(e.dollars),
        buyer: fullName(P(w, e.buyer)),
        seller: fullName(P(w, e.seller)),
        address: e.address,
        town: e.town,
        escrow: org(w, e.escrowOrg),
      }[field];
    case 'legal':
      return {
        motion: e.motion,
        judge: formalName(P(w, e.judge)),
        caseNo: e.caseNo,
        caseName: e.caseName,
        court: e.court,
        filer: fullName(P(w, e.filer)),
        party: fullName(P(w, e.party)),
      }[field];
  }
}

const as = <K extends WorldEvent['kind']>(e: WorldEvent, kind: K) => {
  if (e.kind !== kind) throw new Error(`expected a ${kind} event, got ${e.kind}`);
  return e as Extract<WorldEvent, { kind: K }>;
};

export const ATTRS: AttrSpec[] = [
  {
    key: 'meeting.venue',
    kind: 'meeting',
    attr: 'venue',
    answerKind: 'venue',
    salience: 4,
    constraints: ['a', 'b', 'date'],
    question: (e, w, n) => {
      const m = as(e, 'meeting');
      return `Where did ${n(m.a)} meet ${n(m.b)} on ${longDate(m.day)}?`;
    },
  },
  {
    key: 'meeting.topic',
    kind: 'meeting',
    attr: 'topic',
    answerKind: 'phrase',
    salience: 4,
    constraints: ['a', 'b', 'date'],
    question: (e, w, n) => {
      const m = as(e, 'meeting');
      return `What did ${n(m.a)} want to go through with ${n(m.b)} at their ${longDate(m.day)} meeting at the ${m.venue}?`;
    },
  },
  {
    key: 'meeting.date',
    kind: 'meeting',
    attr: 'date',
    answerKind: 'date',
    salience: 4,
    constraints: ['a', 'b', 'venue', 'town'],
    question: (e, w, n) => {
      const m = as(e, 'meeting');
      return `On what date did ${n(m.a)} meet ${n(m.b)} at the ${m.venue} in ${m.town}?`;
    },
  },
  {
    key: 'meeting.time',
    kind: 'meeting',
    attr: 'time',
    answerKind: 'time',
    salience: 2,
    constraints: ['a', 'b', 'date'],
    question: (e, w, n) => {
      const m = as(e, 'meeting');
      return `At what time was ${n(m.a)}'s meeting with ${n(m.b)} on ${longDate(m.day)} set to start?`;
    },
  },
  {
    key: 'flight.dest',
    kind: 'flight',
    attr: 'dest',
    answerKind: 'place',
    salience: 4,
    constraints: ['tail', 'pax', 'origin', 'date'],
    question: (e, w, n) => {
      const f = as(e, 'flight');
      return `Where did aircraft ${f.tail} take ${n(f.passengers[0]!)} from ${f.origin} on ${longDate(f.day)}?`;
    },
  },
  {
    key: 'flight.origin',
    kind: 'flight',
    attr: 'origin',
    answerKind: 'place',
    salience: 3,
    constraints: ['tail', 'pax', 'dest', 'date'],
    question: (e, w, n) => {
      const f = as(e, 'flight');
      return `From which airfield did ${f.tail} depart on ${longDate(f.day)} when it flew ${n(f.passengers[0]!)} to ${f.dest}?`;
    },
  },
  {
    key: 'flight.pilot',
    kind: 'flight',
    attr: 'pilot',
    answerKind: 'person',
    salience: 3,
    constraints: ['tail', 'pax', 'origin', 'dest', 'date'],
    question: (e, w, n) => {
      const f = as(e, 'flight');
      return `Who was the pilot in command when ${f.tail} flew ${n(f.passengers[0]!)} from ${f.origin} to ${f.dest} on ${longDate(f.day)}?`;
    },
  },
  {
    key: 'flight.tail',
    kind: 'flight',
    attr: 'tail',
    answerKind: 'tail',
    salience: 4,
    constraints: ['pax', 'origin', 'dest', 'date'],
    question: (e, w, n) => {
      const f = as(e, 'flight');
      return `Which aircraft carried ${n(f.passengers[0]!)} from ${f.origin} to ${f.dest} on ${longDate(f.day)}?`;
    },
  },
  {
    key: 'flight.departs',
    kind: 'flight',
    attr: 'departs',
    answerKind: 'time',
    salience: 2,
    constraints: ['tail', 'origin', 'date'],
    question: (e) => {
      const f = as(e, 'flight');
      return `At what time did ${f.tail} leave ${f.origin} on ${longDate(f.day)}?`;
    },
  },
  {
    key: 'payment.amount',
    kind: 'payment',
    attr: 'amount',
    answerKind: 'money',
    salience: 5,
    constraints: ['payer', 'payee', 'date'],
    question: (e, w, n) => {
      const p = as(e, 'payment');
      return `How much did ${org(w, p.payerOrg)} wire to ${n(p.payee)} on ${longDate(p.day)}?`;
    },
  },
  {
    key: 'payment.purpose',
    kind: 'payment',
    attr: 'purpose',
    answerKind: 'phrase',
    salience: 4,
    constraints: ['payer', 'payee', 'date'],
    question: (e, w, n) => {
      const p = as(e, 'payment');
      return `What was the stated purpose of the ${longDate(p.day)} payment from ${org(w, p.payerOrg)} to ${n(p.payee)}?`;
    },
  },
  {
    key: 'payment.bank',
    kind: 'payment',
    attr: 'bank',
    answerKind: 'org',
    salience: 3,
    constraints: ['payer', 'payee', 'date'],
    question: (e, w, n) => {
      const p = as(e, 'payment');
      return `Which bank sent the ${longDate(p.day)} wire from ${org(w, p.payerOrg)} to ${n(p.payee)}?`;
    },
  },
  {
    key: 'payment.reference',
    kind: 'payment',
    attr: 'reference',
    answerKind: 'reference',
    salience: 2,
    constraints: ['payer', 'payee', 'date'],
    question: (e, w, n) => {
      const p = as(e, 'payment');
      return `What reference number appears on the ${longDate(p.day)} wire from ${org(w, p.payerOrg)} to ${n(p.payee)}?`;
    },
  },
  {
    key: 'property.price',
    kind: 'property',
    attr: 'price',
    answerKind: 'money',
    salience: 5,
    constraints: ['buyer', 'seller', 'address'],
    question: (e, w, n) => {
      const r = as(e, 'property');
      return `What price did ${n(r.buyer)} pay ${n(r.seller)} for ${r.address}, ${r.town}?`;
    },
  },
  {
    key: 'property.buyer',
    kind: 'property',
    attr: 'buyer',
    answerKind: 'person',
    salience: 4,
    constraints: ['address', 'seller', 'month'],
    question: (e, w, n) => {
      const r = as(e, 'property');
      return `Who bought ${r.address}, ${r.town} from ${n(r.seller)} in ${monthYear(r.day)}?`;
    },
  },
  {
    key: 'property.seller',
    kind: 'property',
    attr: 'seller',
    answerKind: 'person',
    salience: 4,
    constraints: ['address', 'buyer'],
    question: (e, w, n) => {
      const r = as(e, 'property');
      return `Who sold ${r.address}, ${r.town} to ${n(r.buyer)}?`;
    },
  },
  {
    key: 'property.date',
    kind: 'property',
    attr: 'date',
    answerKind: 'date',
    salience: 3,
    constraints: ['address', 'buyer'],
    question: (e, w, n) => {
      const r = as(e, 'property');
      return `On what date did the sale of ${r.address}, ${r.town} to ${n(r.buyer)} close?`;
    },
  },
  {
    key: 'legal.motion',
    kind: 'legal',
    attr: 'motion',
    answerKind: 'phrase',
    salience: 4,
    constraints: ['filer', 'party', 'caseName', 'date'],
    question: (e, w, n) => {
      const l = as(e, 'legal');
      return `What did ${n(l.filer)} file on behalf of ${n(l.party)} in ${l.caseName} on ${longDate(l.day)}?`;
    },
  },
  {
    key: 'legal.judge',
    kind: 'legal',
    attr: 'judge',
    answerKind: 'person',
    salience: 4,
    constraints: ['caseName', 'filer', 'date'],
    question: (e, w, n) => {
      const l = as(e, 'legal');
      return `Which judge was assigned to ${l.caseName} when ${n(l.filer)} filed a ${l.motion} on ${longDate(l.day)}?`;
    },
  },
  {
    key: 'legal.caseNo',
    kind: 'legal',
    attr: 'caseNo',
    answerKind: 'caseno',
    salience: 3,
    constraints: ['court', 'caseName'],
    question: (e) => {
      const l = as(e, 'legal');
      return `What case number did the ${l.court} give to ${l.caseName}?`;
    },
  },
  {
    key: 'legal.date',
    kind: 'legal',
    attr: 'date',
    answerKind: 'date',
    salience: 4,
    constraints: ['filer', 'motion', 'caseName'],
    question: (e, w, n) => {
      const l = as(e, 'legal');
      return `On what date did ${n(l.filer)} file a ${l.motion} in ${l.caseName}?`;
    },
  },
];

export const ATTR_BY_KEY = new Map(ATTRS.map((a) => [a.key, a]));

export function factKey(e: WorldEvent, attr: string): string {
  return `${e.id}.${attr}`;
}
