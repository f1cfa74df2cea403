import {
  DEPOSITION_PREAMBLE,
  EMAIL_DISCLAIMER,
  FAX_FOOTER,
  FILLER_SENTENCES,
  NEWSLETTER_PARAGRAPHS,
  SIGN_OFFS,
} from './boilerplate.ts';
import { isoDate, longDate, money, moneyWhole, slashDate, usDate, weekday } from './calendar.ts';
import type { NoiseLevel } from './ocr-noise.ts';
import type { Prng } from './prng.ts';
import type {
  FlightEvent,
  LegalEvent,
  MeetingEvent,
  PaymentEvent,
  Person,
  PropertyEvent,
  World,
  WorldEvent,
} from './world.ts';
import { formalName, fullName } from './world.ts';

export type DocKind =
  | 'email'
  | 'email_thread'
  | 'calendar'
  | 'flight_log'
  | 'manifest'
  | 'wire'
  | 'invoice'
  | 'letter'
  | 'court_notice'
  | 'deposition'
  | 'newsletter'
  | 'garbage';

/** A rendered document before ids, noise and screening: what it states and whom it names. */
export interface DraftDoc {
  kind: DocKind;
  fileType: 'pdf' | 'eml';
  text: string;
  noise: NoiseLevel;
  /** factKey "<eventId>.<attr>" -> the exact surface written in the text. */
  states: Map<string, string>;
  /** Events the doc refers to (stated fully or only in part). */
  mentions: Set<string>;
  people: Set<string>;
}

class Builder {
  readonly lines: string[] = [];
  readonly states = new Map<string, string>();
  readonly mentions = new Set<string>();
  readonly people = new Set<string>();
  line(text = ''): this {
    this.lines.push(text);
    return this;
  }
  state(e: WorldEvent, attr: string, surface: string): string {
    this.states.set(`${e.id}.${attr}`, surface);
    this.mentions.add(e.id);
    return surface;
  }
  person(p: Person): Person {
    this.people.add(p.id);
    return p;
  }
  done(kind: DocKind, fileType: 'pdf' | 'eml', noise: NoiseLevel = 'none'): DraftDoc {
    return {
      kind,
      fileType,
      noise,
      text: this.lines.join('\n'),
      states: this.states,
      mentions: this.mentions,
      people: this.people,
    };
  }
}

export class Renderer {
  constructor(
    private readonly world: World,
    private readonly rng: Prng,
  ) {}

  private p(id: string): Person {
    const person = this.world.personById.get(id);
    if (!person) throw new Error(`unknown person ${id}`);
    return person;
  }
  private orgName(id: string): string {
    return this.world.orgById.get(id)?.name ?? id;
  }
  private filler(n: number): string {
    return this.rng.sample(FILLER_SENTENCES, n).join(' ');
  }
  private casual(p: Person): string {
    return p.nickname && this.rng.chance(0.5) ? p.nickname : p.first;
  }
  private initialName(p: Person): string {
    return `${p.first[0]}. ${p.last}`;
  }

  private emailHeader(b: Builder, from: Person, to: Person, day: number, subject: string, cc: Person[] = []): void {
    b.person(from);
    b.person(to);
    b.line(`From: ${fullName(from)} <${from.email}>`);
    b.line(
      `Sent: ${weekday(day)}, ${usDate(day)} ${this.rng.int(6, 11)}:${String(this.rng.int(0, 59)).padStart(2, '0')} ${this.rng.pick(['AM', 'PM'])}`,
    );
    b.line(`To: ${fullName(to)} <${to.email}>`);
    if (cc.length > 0) b.line(`Cc: ${cc.map((c) => `${fullName(b.person(c))} <${c.email}>`).join('; ')}`);
    b.line(`Subject: ${subject}`);
    b.line();
  }

  private emailFooter(b: Builder, from: Person): void {
    b.line();
    b.line(this.rng.pick(SIGN_OFFS));
    b.line(this.rng.chance(0.5) ? from.first : formalName(from));
    if (this.rng.chance(0.7)) {
      b.line();
      b.line(EMAIL_DISCLAIMER);
    }
  }

  /** Earlier messages quoted below a reply: chatter that states no facts, but makes threads long. */
  private quotedHistory(b: Builder, a: Person, c: Person, day: number, n: number): void {
    for (let i = 1; i <= n; i++) {
      const [from, to] = i % 2 === 1 ? [c, a] : [a, c];
      const d = day - i * this.rng.int(1, 4);
      b.line();
      b.line('-----Original Message-----');
      b.line(`From: ${fullName(from)} <${from.email}>`);
      b.line(`Sent: ${weekday(d)}, ${usDate(d)}`);
      b.line(`To: ${fullName(to)}`);
      b.line(
        `Subject: ${this.rng.pick(['Re: catching up', 'Re: next week', 'Re: the house', 'Re: quick question', 'Re: plans'])}`,
      );
      b.line();
      b.line(`${this.casual(to)}, ${this.filler(this.rng.int(3, 6))}`);
      b.line();
      b.line(this.rng.pick(SIGN_OFFS));
      b.line(from.first);
      if (this.rng.chance(0.6)) b.line(EMAIL_DISCLAIMER);
    }
  }

  meetingEmail(e: MeetingEvent, threadLength: number): DraftDoc {
    const b = new Builder();
    const a = this.p(e.a);
    const other = this.p(e.b);
    const sent = e.day - this.rng.int(1, 9);
    this.emailHeader(
      b,
      a,
      other,
      sent,
      `${this.rng.pick(['Meeting', 'Catch up', 'Our talk', 'Next week'])} at the ${e.venue}`,
    );
    b.line(`${this.casual(other)},`);
    b.line();
    const dateText = this.rng.pick([longDate, usDate])(e.day);
    b.line(
      `Confirming that we will meet at the ${b.state(e, 'venue', e.venue)} in ${b.state(e, 'town', e.town)} on ${b.state(e, 'date', dateText)} at ${b.state(e, 'time', e.time)}. ` +
        `I would like to use the time to go through ${b.state(e, 'topic', e.topic)}.`,
    );
    b.line(this.filler(this.rng.int(1, 3)));
    this.emailFooter(b, a);
    if (threadLength > 0) this.quotedHistory(b, a, other, sent, threadLength);
    return b.done(threadLength > 0 ? 'email_thread' : 'email', 'eml');
  }

  calendar(owner: Person, events: MeetingEvent[], weekStart: number): DraftDoc {
    const b = new Builder();
    b.person(owner);
    b.line(`CALENDAR - ${formalName(owner).toUpperCase()}`);
    b.line(`Week of ${longDate(weekStart)}`);
    b.line();
    for (const e of events) {
      const other = this.p(e.a === owner.id ? e.b : e.a);
      b.person(other);
      b.line(
        `${weekday(e.day)} ${b.state(e, 'date', slashDate(e.day))}  ${b.state(e, 'time', e.time)}  Meeting with ${fullName(other)}`,
      );
      b.line(`    Location: ${b.state(e, 'venue', e.venue)}, ${b.state(e, 'town', e.town)}`);
      if (this.rng.chance(0.6)) b.line(`    Notes: ${b.state(e, 'topic', e.topic)}`);
      b.line();
    }
    if (this.rng.chance(0.5)) b.line(`Reminder: ${this.filler(1)}`);
    b.line(
      'Prepared by the office. Please send any changes to this schedule to the office before the end of the day, and check the travel times with the driver.',
    );
    return b.done('calendar', 'pdf');
  }

  manifest(e: FlightEvent, noise: NoiseLevel): DraftDoc {
    const b = new Builder();
    const plane = this.world.aircraft.find((a) => a.tail === e.tail)!;
    const operator = this.orgName(plane.ownerOrgId).toUpperCase();
    const pilot = this.p(e.pilot);
    b.person(pilot);
    b.line(`${operator} - PASSENGER MANIFEST`);
    b.line(`Aircraft: ${b.state(e, 'tail', e.tail)} (${plane.model})`);
    b.line(`Date: ${b.state(e, 'date', slashDate(e.day))}    Departure: ${b.state(e, 'departs', e.departs)}`);
    b.line(`Route: ${b.state(e, 'origin', e.origin)} to ${b.state(e, 'dest', e.dest)}`);
    b.line(`Pilot in command: ${b.state(e, 'pilot', fullName(pilot))}`);
    b.line('Passengers:');
    e.passengers.forEach((id, i) => {
      const pax = b.person(this.p(id));
      b.line(`  ${i + 1}. ${b.state(e, `pax.${id}`, fullName(pax))}`);
    });
    b.line(
      'All passengers were checked against the booking list before departure. The pilot in command is responsible for the safety of the aircraft and of everyone on board.',
    );
    b.line(
      `Remarks: ${this.rng.pick(['Catering on board.', 'Two bags in the hold.', 'Ground transport arranged on arrival.', 'No remarks.', 'Fuel stop not required.'])}`,
    );
    return b.done('manifest', 'pdf', noise);
  }

  flightLog(tail: string, flights: FlightEvent[], page: number, noise: NoiseLevel): DraftDoc {
    const b = new Builder();
    b.line(`PILOT LOG BOOK - AIRCRAFT ${tail} - PAGE ${page}`);
    b.line('DATE | FROM | TO | PILOT | PASSENGERS | NOTES');
    for (const e of flights) {
      const pilot = b.person(this.p(e.pilot));
      b.mentions.add(e.id);
      b.states.set(`${e.id}.tail`, tail);
      const pax = e.passengers.map((id) => {
        const person = b.person(this.p(id));
        return b.state(e, `pax.${id}`, this.initialName(person));
      });
      b.line(
        `${b.state(e, 'date', isoDate(e.day))} | ${b.state(e, 'origin', e.origin)} | ${b.state(e, 'dest', e.dest)} | ${b.state(e, 'pilot', this.initialName(pilot))} | ${pax.join(', ')} | ${this.rng.pick(['', '', 'wx delay', 'fuel', 'pax late', 'smooth'])}`,
      );
    }
    b.line();
    b.line(`Total flights on this page: ${flights.length}`);
    return b.done('flight_log', 'pdf', noise);
  }

  flightEmail(e: FlightEvent): DraftDoc {
    const b = new Builder();
    const pax = this.p(e.passengers[0]!);
    const assistants = this.world.people.filter((p) => p.role === 'personal assistant');
    const from = this.rng.pick(assistants);
    this.emailHeader(b, from, pax, e.day - this.rng.int(1, 5), 'Travel arrangements');
    b.line(`${this.casual(pax)},`);
    b.line();
    b.line(
      `The plane (${b.state(e, 'tail', e.tail)}) will leave ${b.state(e, 'origin', e.origin)} at ${b.state(e, 'departs', e.departs)} on ${b.state(e, 'date', usDate(e.day))} and fly you to ${b.state(e, 'dest', e.dest)}. ` +
        `${b.state(e, 'pilot', fullName(b.person(this.p(e.pilot))))} will be flying.`,
    );
    if (e.passengers.length > 1) {
      const others = e.passengers.slice(1).map((id) => b.state(e, `pax.${id}`, fullName(b.person(this.p(id)))));
      b.line(`Also travelling: ${others.join(', ')}.`);
    }
    b.line(this.filler(this.rng.int(1, 2)));
    this.emailFooter(b, from);
    return b.done('email', 'eml');
  }

  wire(e: PaymentEvent, noise: NoiseLevel): DraftDoc {
    const b = new Builder();
    const payee = b.person(this.p(e.payee));
    b.line(this.orgName(e.bankOrg).toUpperCase());
    b.line('OUTGOING WIRE TRANSFER CONFIRMATION');
    b.line();
    b.line(`Value date: ${b.state(e, 'date', longDate(e.day))}`);
    b.line(`Reference: ${b.state(e, 'reference', e.reference)}`);
    b.line(`Ordering customer: ${b.state(e, 'payer', this.orgName(e.payerOrg))}`);
    b.line(`Beneficiary: ${b.state(e, 'payee', fullName(payee))}`);
    b.line(`Amount: ${b.state(e, 'amount', `USD ${money(e.cents).slice(1)}`)}`);
    b.line(`Details of payment: ${b.state(e, 'purpose', e.purpose)}`);
    b.states.set(`${e.id}.bank`, this.orgName(e.bankOrg).toUpperCase());
    b.line();
    b.line(
      'This confirmation is for your records. Please check the details and contact your relationship manager if anything is incorrect.',
    );
    if (noise !== 'none') b.line(FAX_FOOTER);
    return b.done('wire', 'pdf', noise);
  }

  invoice(e: PaymentEvent, noise: NoiseLevel): DraftDoc {
    const b = new Builder();
    const payee = b.person(this.p(e.payee));
    b.line(`INVOICE No. ${this.rng.int(100, 999)}-${this.rng.int(10, 99)}`);
    b.line(`From: ${formalName(payee)}, ${payee.town}`);
    b.line(`To: Accounts Payable, ${b.state(e, 'payer', this.orgName(e.payerOrg))}`);
    b.line(`Date: ${usDate(e.day - this.rng.int(7, 30))}`);
    b.line();
    b.line(`Description: ${b.state(e, 'purpose', e.purpose)}`);
    b.line(`Amount due: ${b.state(e, 'amount', money(e.cents))}`);
    b.line('Payment terms: thirty days. Please pay by bank transfer to the account on file.');
    return b.done('invoice', 'pdf', noise);
  }

  paymentEmail(e: PaymentEvent): DraftDoc {
    const b = new Builder();
    const payee = this.p(e.payee);
    const bankers = this.world.people.filter((p) => p.role === 'banker' || p.role === 'accountant');
    const from = this.rng.pick(bankers.length > 0 ? bankers : this.world.people);
    this.emailHeader(b, from, payee, e.day + this.rng.int(0, 3), 'Payment sent');
    b.line(`${this.casual(payee)},`);
    b.line();
    b.line(
      `The wire of ${b.state(e, 'amount', money(e.cents))} from ${b.state(e, 'payer', this.orgName(e.payerOrg))} for ${b.state(e, 'purpose', e.purpose)} went out on ${b.state(e, 'date', usDate(e.day))}. It should reach your account within two days.`,
    );
    b.line(this.filler(this.rng.int(1, 3)));
    this.emailFooter(b, from);
    return b.done('email', 'eml');
  }

  closingLetter(e: PropertyEvent, noise: NoiseLevel): DraftDoc {
    const b = new Builder();
    const buyer = b.person(this.p(e.buyer));
    const seller = b.person(this.p(e.seller));
    const escrow = this.orgName(e.escrowOrg);
    b.line(escrow.toUpperCase());
    b.line(
      `${this.rng.int(1, 90)} ${this.rng.pick(['Harbour Street', 'Market Square', 'Chapel Row'])}, ${this.rng.pick(this.world.places)}`,
    );
    b.line();
    b.line(usDate(e.day + this.rng.int(1, 6)));
    b.line();
    b.line(`Dear ${buyer.title ?? this.rng.pick(['Mr.', 'Ms.'])} ${buyer.last},`);
    b.line();
    b.line(
      `We write to confirm that the sale of ${b.state(e, 'address', e.address)}, ${b.state(e, 'town', e.town)}, from ${b.state(e, 'seller', fullName(seller))} to ${b.state(e, 'buyer', fullName(buyer))} closed on ${b.state(e, 'date', longDate(e.day))} for a purchase price of ${b.state(e, 'price', moneyWhole(e.dollars))}.`,
    );
    b.states.set(`${e.id}.escrow`, escrow);
    b.line(
      'The deed has been sent for recording and the keys will be released by the agent on request. The balance of the deposit, less our fees, has been returned to the account from which it was paid.',
    );
    b.line(this.filler(this.rng.int(1, 2)));
    b.line();
    b.line('Yours sincerely,');
    b.line(`Closing Department, ${escrow}`);
    return b.done('letter', 'pdf', noise);
  }

  propertyEmail(e: PropertyEvent): DraftDoc {
    const b = new Builder();
    const buyer = this.p(e.buyer);
    const to = this.p(this.rng.pick(this.world.people.filter((p) => p.id !== buyer.id)).id);
    this.emailHeader(b, buyer, to, e.day + this.rng.int(1, 20), `Re: ${e.address}`);
    b.line(`${this.casual(to)},`);
    b.line();
    b.line(
      `We finally have ${b.state(e, 'address', e.address)}. The price was ${b.state(e, 'price', moneyWhole(e.dollars))}, which is more than I wanted to pay, but ${b.state(e, 'seller', fullName(b.person(this.p(e.seller))))} would not move.`,
    );
    b.states.set(`${e.id}.buyer`, fullName(buyer));
    b.line(this.filler(this.rng.int(2, 4)));
    this.emailFooter(b, buyer);
    return b.done('email', 'eml');
  }

  courtNotice(e: LegalEvent, noise: NoiseLevel): DraftDoc {
    const b = new Builder();
    const judge = b.person(this.p(e.judge));
    const filer = b.person(this.p(e.filer));
    const party = b.person(this.p(e.party));
    const firm = filer.orgId ? this.orgName(filer.orgId) : 'counsel of record';
    b.line(b.state(e, 'court', e.court).toUpperCase());
    b.line(`Case No. ${b.state(e, 'caseNo', e.caseNo)}`);
    b.line(b.state(e, 'caseName', e.caseName));
    b.line();
    b.line('NOTICE OF FILING');
    b.line();
    b.line(
      `On ${b.state(e, 'date', longDate(e.day))}, ${b.state(e, 'filer', fullName(filer))} of ${firm}, counsel for ${b.state(e, 'party', fullName(party))}, filed a ${b.state(e, 'motion', e.motion)}.`,
    );
    b.line(
      `The matter is assigned to ${b.state(e, 'judge', formalName(judge))}. Any response is due within fourteen days of service.`,
    );
    b.line();
    b.line('Clerk of the Court');
    return b.done('court_notice', 'pdf', noise);
  }

  legalEmail(e: LegalEvent): DraftDoc {
    const b = new Builder();
    const filer = this.p(e.filer);
    const party = this.p(e.party);
    this.emailHeader(b, filer, party, e.day, `${e.caseName} - filing`);
    b.line(`${this.casual(party)},`);
    b.line();
    b.line(
      `As discussed, today (${b.state(e, 'date', usDate(e.day))}) we filed a ${b.state(e, 'motion', e.motion)} in ${b.state(e, 'caseName', e.caseName)}. I will let you know as soon as the court sets a hearing date.`,
    );
    b.line(this.filler(this.rng.int(1, 2)));
    this.emailFooter(b, filer);
    return b.done('email', 'eml');
  }

  /** A long Q/A transcript; its facts sit after a long preamble (beyond a 2,500-char excerpt). */
  deposition(deponent: Person, legal: LegalEvent, events: WorldEvent[], noise: NoiseLevel): DraftDoc {
    const b = new Builder();
    b.person(deponent);
    b.line(legal.court.toUpperCase());
    b.line(`Case No. ${legal.caseNo}`);
    b.line(legal.caseName);
    b.line();
    b.line(`VIDEOTAPED DEPOSITION OF ${fullName(deponent).toUpperCase()}`);
    b.line(`Taken on ${longDate(legal.day + this.rng.int(20, 200))}`);
    b.line();
    for (const l of DEPOSITION_PREAMBLE) b.line(l);
    b.line(`A. ${formalName(deponent)}.`);
    b.line(`Q. And what is your occupation?`);
    b.line(`A. I work as a ${deponent.role}.`);
    b.line('Q. Have you ever been deposed before?');
    b.line(`A. ${this.rng.pick(['No, this is the first time.', 'Once, many years ago.', 'Yes, twice.'])}`);
    b.line('Q. You understand that you are under oath today?');
    b.line('A. I do.');
    b.line('Q. If you do not understand a question, will you tell me so that I can rephrase it?');
    b.line('A. Yes.');
    for (const e of events) this.depositionBlock(b, deponent, e);
    b.line('MR. COUNSEL: I have no further questions at this time. We reserve the rest of our time.');
    b.line('THE VIDEOGRAPHER: This concludes the deposition. We are going off the record.');
    return b.done('deposition', 'pdf', noise);
  }

  private depositionBlock(b: Builder, deponent: Person, e: WorldEvent): void {
    const name = (id: string) => fullName(b.person(this.p(id)));
    switch (e.kind) {
      case 'meeting': {
        const other = name(e.a === deponent.id ? e.b : e.a);
        b.line(`Q. Did you meet ${other} on ${b.state(e, 'date', longDate(e.day))}?`);
        b.line(`A. Yes. We met at the ${b.state(e, 'venue', e.venue)} in ${b.state(e, 'town', e.town)}.`);
        b.line('Q. What was the purpose of that meeting?');
        b.line(`A. We talked about ${b.state(e, 'topic', e.topic)}. ${this.filler(1)}`);
        break;
      }
      case 'flight':
        b.line(`Q. Were you aboard aircraft ${b.state(e, 'tail', e.tail)} on ${b.state(e, 'date', longDate(e.day))}?`);
        b.line(`A. I was. We flew from ${b.state(e, 'origin', e.origin)} to ${b.state(e, 'dest', e.dest)}.`);
        b.line('Q. Who flew the plane?');
        b.line(`A. ${b.state(e, 'pilot', name(e.pilot))}, as far as I remember.`);
        break;
      case 'payment':
        b.line(
          `Q. Did you receive a payment from ${b.state(e, 'payer', this.orgName(e.payerOrg))} on or about ${b.state(e, 'date', longDate(e.day))}?`,
        );
        b.line(`A. Yes, ${b.state(e, 'amount', money(e.cents))}.`);
        b.line('Q. What was it for?');
        b.line(`A. It was described as ${b.state(e, 'purpose', e.purpose)}. ${this.filler(1)}`);
        break;
      case 'property':
        b.line(`Q. Let us turn to ${b.state(e, 'address', e.address)}. Who bought that property?`);
        b.line(`A. ${b.state(e, 'buyer', name(e.buyer))} did, on ${b.state(e, 'date', longDate(e.day))}.`);
        b.line('Q. And the price?');
        b.line(`A. ${b.state(e, 'price', moneyWhole(e.dollars))}, I believe.`);
        break;
      case 'legal':
        b.line(
          `Q. Are you aware that a ${b.state(e, 'motion', e.motion)} was filed in ${b.state(e, 'caseName', e.caseName)}?`,
        );
        b.line(`A. Yes, I was told it was filed on ${b.state(e, 'date', longDate(e.day))}.`);
        break;
    }
    b.line(
      `Q. ${this.rng.pick(['Is there anything else you remember about that?', 'Did you keep any notes?', 'Who else knew about it?'])}`,
    );
    b.line(
      `A. ${this.rng.pick(['Not that I recall.', 'No.', 'I would have to check my records.', 'I do not remember the details.'])}`,
    );
  }

  /** Chatter among people of the world: names people and places, states no fact. */
  distractorEmail(from: Person, to: Person, mentioned: Person[], day: number, threadLength: number): DraftDoc {
    const b = new Builder();
    this.emailHeader(
      b,
      from,
      to,
      day,
      this.rng.pick(['Catching up', 'Quick question', 'Dinner', 'This weekend', 'Follow up', 'Re: plans']),
    );
    b.line(`${this.casual(to)},`);
    b.line();
    for (const m of mentioned) {
      b.person(m);
      b.line(
        this.rng.pick([
          `${fullName(m)} asked after you and sends regards.`,
          `I ran into ${fullName(m)} in ${this.rng.pick(this.world.places)} last week.`,
          `Do you have a number for ${fullName(m)}? Mine seems to be out of date.`,
          `${m.first} says the house in ${m.town} is finally finished.`,
          `Please do not mention any of this to ${fullName(m)} yet.`,
        ]),
      );
    }
    b.line(this.filler(this.rng.int(2, 5)));
    this.emailFooter(b, from);
    if (threadLength > 0) this.quotedHistory(b, from, to, day, threadLength);
    return b.done(threadLength > 0 ? 'email_thread' : 'email', 'eml');
  }

  distractorLetter(from: Person, to: Person, mentioned: Person[], day: number, noise: NoiseLevel): DraftDoc {
    const b = new Builder();
    b.person(from);
    b.person(to);
    b.line(formalName(from));
    b.line(from.town);
    b.line();
    b.line(longDate(day));
    b.line();
    b.line(`Dear ${to.first},`);
    b.line();
    b.line(this.filler(this.rng.int(3, 6)));
    for (const m of mentioned)
      b.line(
        `I understand that ${fullName(b.person(m))} will be in ${m.town} for some of the season. ${this.filler(1)}`,
      );
    b.line(this.filler(this.rng.int(2, 4)));
    b.line();
    b.line('With best wishes,');
    b.line(from.first);
    return b.done('letter', 'pdf', noise);
  }

  newsletter(town: string, mentioned: Person[], day: number, noise: NoiseLevel): DraftDoc {
    const b = new Builder();
    b.line(`${town.toUpperCase()} COMMUNITY NEWS`);
    b.line(`Issue of ${usDate(day)}`);
    b.line();
    for (const para of this.rng.sample(NEWSLETTER_PARAGRAPHS, this.rng.int(3, 7))) {
      b.line(para);
      b.line();
    }
    for (const m of mentioned) {
      b.person(m);
      b.line(
        `Our thanks go to ${fullName(m)} for ${this.rng.pick(['opening the garden to visitors', 'a generous gift to the library', 'judging the flower show', 'hosting the quiz night'])}.`,
      );
    }
    return b.done('newsletter', 'pdf', noise);
  }

  shortStub(): DraftDoc {
    const b = new Builder();
    b.line(
      this.rng.pick([
        'Page 2 of 7',
        'FAX COVER SHEET',
        '[illegible]',
        'Exhibit 14',
        'CONFIDENTIAL',
        'Sent from my phone',
        'see attached',
        'Pages: 3',
      ]),
    );
    if (this.rng.chance(0.5)) b.line(this.rng.pick(['', '-- end --', 'Received', 'Draft']));
    return b.done('garbage', 'pdf');
  }

  junk(text: string): DraftDoc {
    const b = new Builder();
    b.line(text);
    return b.done('garbage', 'pdf');
  }
}
