import { dayOf } from './calendar.ts';
import {
  AIRCRAFT_MODELS,
  COURTS,
  FIRST_NAMES,
  ISLANDS,
  MEETING_TOPICS,
  MIDDLE_INITIALS,
  MOTIONS,
  NICKNAMES,
  ORG_NAMES,
  PAYMENT_PURPOSES,
  ROLES,
  STREETS,
  SURNAMES,
  TITLES,
  TOWNS,
  VENUES,
} from './names.ts';
import type { Prng } from './prng.ts';

/** The invented world the sample corpus is rendered from. Ids are stable within one seed. */
export interface Person {
  id: string;
  first: string;
  last: string;
  middle: string;
  title: string | null;
  nickname: string | null;
  role: string;
  orgId: string | null;
  town: string;
  email: string;
  /** Relative chance of taking part in an event (a few central figures dominate). */
  weight: number;
}

export interface Org {
  id: string;
  name: string;
  short: string;
  kind: string;
  domain: string;
}

export interface Aircraft {
  tail: string;
  model: string;
  ownerOrgId: string;
  base: string;
}

export interface MeetingEvent {
  kind: 'meeting';
  id: string;
  day: number;
  a: string;
  b: string;
  venue: string;
  town: string;
  topic: string;
  time: string;
}
export interface FlightEvent {
  kind: 'flight';
  id: string;
  day: number;
  tail: string;
  origin: string;
  dest: string;
  pilot: string;
  passengers: string[];
  departs: string;
}
export interface PaymentEvent {
  kind: 'payment';
  id: string;
  day: number;
  payerOrg: string;
  payee: string;
  bankOrg: string;
  cents: number;
  purpose: string;
  reference: string;
}
export interface PropertyEvent {
  kind: 'property';
  id: string;
  day: number;
  address: string;
  town: string;
  buyer: string;
  seller: string;
  dollars: number;
  escrowOrg: string;
}
export interface LegalEvent {
  kind: 'legal';
  id: string;
  day: number;
  caseName: string;
  caseNo: string;
  court: string;
  judge: string;
  party: string;
  filer: string;
  motion: string;
}
export type WorldEvent = MeetingEvent | FlightEvent | PaymentEvent | PropertyEvent | LegalEvent;

export interface World {
  people: Person[];
  orgs: Org[];
  aircraft: Aircraft[];
  places: string[];
  events: WorldEvent[];
  personById: Map<string, Person>;
  orgById: Map<string, Org>;
  eventById: Map<string, WorldEvent>;
}

export const WORLD_SIZES = { people: 64, meetings: 430, flights: 360, payments: 360, properties: 90, legal: 70 };
const FIRST_DAY = dayOf(2004, 1, 5);
const LAST_DAY = dayOf(2016, 12, 20);

export function fullName(p: Person): string {
  return `${p.first} ${p.last}`;
}

/** The formal form used in headers and filings, e.g. "Dr. Mara Okonkwo-Reyes" or "Mara T. Okonkwo-Reyes". */
export function formalName(p: Person): string {
  return p.title ? `${p.title} ${p.first} ${p.last}` : `${p.first} ${p.middle}. ${p.last}`;
}

/** Every way the corpus may write a person's name, longest first. */
export function nameVariants(p: Person): string[] {
  const v = [formalName(p), fullName(p), `${p.first[0]}. ${p.last}`, p.last, p.first];
  if (p.nickname) v.push(p.nickname);
  return [...new Set(v)];
}

export function participants(e: WorldEvent): string[] {
  switch (e.kind) {
    case 'meeting':
      return [e.a, e.b];
    case 'flight':
      return [e.pilot, ...e.passengers];
    case 'payment':
      return [e.payee];
    case 'property':
      return [e.buyer, e.seller];
    case 'legal':
      return [e.party, e.filer, e.judge];
  }
}

export function buildWorld(rng: Prng): World {
  const orgs: Org[] = ORG_NAMES.map(([name, short, kind], i) => ({
    id: `O${i + 1}`,
    name,
    short,
    kind,
    domain: `${short.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
  }));
  const orgsOfKind = (...kinds: string[]) => orgs.filter((o) => kinds.includes(o.kind));
  const firsts = rng.shuffle(FIRST_NAMES);
  const lasts = rng.shuffle(SURNAMES);
  const roleSlots = [
    ...Array<string>(7).fill('pilot'),
    ...Array<string>(6).fill('attorney'),
    ...Array<string>(3).fill('judge'),
    ...Array<string>(6).fill('personal assistant'),
    ...Array<string>(4).fill('banker'),
  ];
  const people: Person[] = [];
  for (let i = 0; i < WORLD_SIZES.people; i++) {
    const first = firsts[i % firsts.length]!;
    const last = lasts[i % lasts.length]!;
    const role = roleSlots[i] ?? rng.pick(ROLES.filter((r) => r !== 'pilot' && r !== 'attorney'));
    const orgPool =
      role === 'pilot'
        ? orgsOfKind('charter operator')
        : role === 'attorney'
          ? orgsOfKind('law firm')
          : role === 'banker'
            ? orgsOfKind('bank')
            : role === 'judge'
              ? []
              : orgs;
    const org = orgPool.length > 0 && rng.chance(0.8) ? rng.pick(orgPool) : null;
    const title =
      role === 'pilot' && rng.chance(0.5)
        ? 'Capt.'
        : role === 'physician' || role === 'scientist'
          ? 'Dr.'
          : role === 'judge'
            ? 'Hon.'
            : rng.chance(0.08)
              ? rng.pick(TITLES.slice(0, 2))
              : null;
    const nick = NICKNAMES[first];
    const domain = org?.domain ?? rng.pick(['harbourmail.example', 'postbox.example', 'islenet.example']);
    people.push({
      id: `P${i + 1}`,
      first,
      last,
      middle: rng.pick(MIDDLE_INITIALS),
      title,
      nickname: nick !== undefined && rng.chance(0.6) ? nick : null,
      role,
      orgId: org?.id ?? null,
      town: rng.pick(TOWNS),
      email: `${first[0]!.toLowerCase()}${last.toLowerCase().replace(/[^a-z]+/g, '')}@${domain}`,
      weight: 1,
    });
  }
  // A dozen central figures take part in most events, as in any real document dump.
  for (const p of rng.sample(
    people.filter((p) => !['pilot', 'judge', 'attorney'].includes(p.role)),
    12,
  )) {
    p.weight = rng.int(5, 9);
  }
  const byRole = (role: string) => people.filter((p) => p.role === role);
  const civilians = people.filter((p) => !['pilot', 'judge'].includes(p.role));
  const pickWeighted = (pool: Person[], exclude: Set<string>) =>
    rng.weighted(pool.filter((p) => !exclude.has(p.id)).map((p) => [p, p.weight] as const));

  const places = [...TOWNS, ...ISLANDS];
  const letters = 'ABCDEFGHJKLMNPRSTVWXYZ';
  const tailSet = new Set<string>();
  while (tailSet.size < 5)
    tailSet.add(`QX-${rng.pick([...letters])}${rng.pick([...letters])}${rng.pick([...letters])}`);
  const aircraft: Aircraft[] = [...tailSet].map((tail, i) => ({
    tail,
    model: AIRCRAFT_MODELS[i % AIRCRAFT_MODELS.length]!,
    ownerOrgId: rng.pick(orgsOfKind('charter operator', 'holding company', 'trust', 'family office')).id,
    base: rng.pick(TOWNS),
  }));

  const events: WorldEvent[] = [];
  const day = () => rng.int(FIRST_DAY, LAST_DAY);
  const time = () => `${rng.int(8, 18)}:${rng.pick(['00', '15', '30', '45'])}`;
  for (let i = 0; i < WORLD_SIZES.meetings; i++) {
    const a = pickWeighted(civilians, new Set());
    const b = pickWeighted(civilians, new Set([a.id]));
    events.push({
      kind: 'meeting',
      id: `M${i + 1}`,
      day: day(),
      a: a.id,
      b: b.id,
      venue: rng.pick(VENUES),
      town: rng.pick(places),
      topic: rng.pick(MEETING_TOPICS),
      time: time(),
    });
  }
  const pilots = byRole('pilot');
  for (let i = 0; i < WORLD_SIZES.flights; i++) {
    const plane = rng.pick(aircraft);
    const origin = rng.chance(0.45) ? plane.base : rng.pick(places);
    const dest = rng.pick(places.filter((p) => p !== origin));
    const n = rng.int(1, 4);
    const pax = new Set<string>();
    while (pax.size < n) pax.add(pickWeighted(civilians, pax).id);
    events.push({
      kind: 'flight',
      id: `F${i + 1}`,
      day: day(),
      tail: plane.tail,
      origin,
      dest,
      pilot: rng.pick(pilots).id,
      passengers: [...pax],
      departs: time(),
    });
  }
  const banks = orgsOfKind('bank');
  const payers = orgs.filter((o) => o.kind !== 'bank');
  for (let i = 0; i < WORLD_SIZES.payments; i++) {
    const d = day();
    events.push({
      kind: 'payment',
      id: `W${i + 1}`,
      day: d,
      payerOrg: rng.pick(payers).id,
      payee: pickWeighted(civilians, new Set()).id,
      bankOrg: rng.pick(banks).id,
      cents: rng.int(15, 9_800) * 500 + rng.pick([0, 0, 0, 25, 50, 75]) * 1 + rng.int(0, 3) * 1000,
      purpose: rng.pick(PAYMENT_PURPOSES),
      reference: `${rng.pick(['FVB', 'APB'])}-${String(rng.int(100000, 999999))}`,
    });
  }
  const usedAddresses = new Set<string>();
  for (let i = 0; i < WORLD_SIZES.properties; i++) {
    let address: string;
    do {
      address = `${rng.int(2, 240)} ${rng.pick(STREETS)}`;
    } while (usedAddresses.has(address));
    usedAddresses.add(address);
    const buyer = pickWeighted(civilians, new Set());
    const seller = pickWeighted(civilians, new Set([buyer.id]));
    events.push({
      kind: 'property',
      id: `R${i + 1}`,
      day: day(),
      address,
      town: rng.pick(places),
      buyer: buyer.id,
      seller: seller.id,
      dollars: rng.int(18, 960) * 5_000,
      escrowOrg: rng.pick(orgsOfKind('escrow agent', 'law firm', 'registered agent')).id,
    });
  }
  const attorneys = byRole('attorney');
  const judges = byRole('judge');
  for (let i = 0; i < WORLD_SIZES.legal; i++) {
    const d = day();
    const party = pickWeighted(
      civilians.filter((p) => p.role !== 'attorney'),
      new Set(),
    );
    const opponent = rng.chance(0.5) ? rng.pick(orgs).name : fullName(pickWeighted(civilians, new Set([party.id])));
    const yy = String(new Date(d * 86_400_000).getUTCFullYear() % 100).padStart(2, '0');
    events.push({
      kind: 'legal',
      id: `L${i + 1}`,
      day: d,
      caseName: `${party.last} v. ${opponent}`,
      caseNo: `${yy}-${rng.pick(['CV', 'CA', 'CH'])}-${String(rng.int(100, 99999)).padStart(5, '0')}`,
      court: rng.pick(COURTS),
      judge: rng.pick(judges).id,
      party: party.id,
      filer: rng.pick(attorneys).id,
      motion: rng.pick(MOTIONS),
    });
  }
  events.sort((x, y) => x.day - y.day || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  return {
    people,
    orgs,
    aircraft,
    places,
    events,
    personById: new Map(people.map((p) => [p.id, p])),
    orgById: new Map(orgs.map((o) => [o.id, o])),
    eventById: new Map(events.map((e) => [e.id, e])),
  };
}
