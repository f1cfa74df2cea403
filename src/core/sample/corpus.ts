import type { CorpusDoc } from '../release/types.ts';
import { whitespaceTokens } from '../text/chunks.ts';
import { dayOf, yearOf } from './calendar.ts';
import { applyOcrNoise, binaryJunk, type NoiseLevel } from './ocr-noise.ts';
import { Prng } from './prng.ts';
import { screenQuality, type QualityScreen } from './quality.ts';
import { Renderer, type DocKind, type DraftDoc } from './render.ts';
import type { FlightEvent, LegalEvent, MeetingEvent, Person, World, WorldEvent } from './world.ts';
import { participants } from './world.ts';

/** A corpus doc with what the generator knows about it (never shipped as such). */
export interface SampleDoc extends CorpusDoc {
  kind: DocKind;
  states: Map<string, string>;
  mentions: Set<string>;
  people: Set<string>;
  screen: QualityScreen;
  noise: NoiseLevel;
  tokens: number;
}

export const CORPUS_SIZES = {
  distractorEmails: 980,
  distractorLetters: 170,
  newsletters: 90,
  depositions: 90,
  junk: 36,
  stubs: 30,
};
export const DOC_ID_PREFIX = 'SMPL';
export const SOURCE_URL_BASE = 'https://sample.invalid/volumes';

export function buildCorpus(world: World, seed: number): SampleDoc[] {
  const rng = Prng.derive(seed, 'corpus');
  const r = new Renderer(world, rng);
  const drafts: DraftDoc[] = [];
  const noiseFor = (scan: number): NoiseLevel =>
    rng.chance(scan)
      ? rng.weighted([
          ['light', 0.3],
          ['medium', 0.35],
          ['heavy', 0.35],
        ] as const)
      : 'none';
  const threadLen = (p: number) => (rng.chance(p) ? rng.int(5, 11) : 0);

  const meetings = world.events.filter((e): e is MeetingEvent => e.kind === 'meeting');
  const onCalendar: MeetingEvent[] = [];
  for (const e of meetings) {
    const email = rng.chance(0.72);
    if (email) drafts.push(r.meetingEmail(e, threadLen(0.4)));
    if (!email || rng.chance(0.5)) onCalendar.push(e);
  }
  // Calendar pages group a person's meetings of the same week.
  const weeks = new Map<string, MeetingEvent[]>();
  for (const e of onCalendar) {
    const owner = rng.chance(0.5) ? e.a : e.b;
    const week = Math.floor((e.day - 4) / 7);
    const key = `${owner}|${week}`;
    weeks.set(key, [...(weeks.get(key) ?? []), e]);
  }
  for (const [key, list] of weeks) {
    const [owner, week] = key.split('|') as [string, string];
    drafts.push(r.calendar(world.personById.get(owner)!, list, Number(week) * 7 + 4));
  }

  const flights = world.events.filter((e): e is FlightEvent => e.kind === 'flight');
  for (const plane of world.aircraft) {
    const own = flights.filter((f) => f.tail === plane.tail);
    let page = 1;
    for (let i = 0; i < own.length;) {
      const n = rng.int(8, 16);
      drafts.push(r.flightLog(plane.tail, own.slice(i, i + n), page++, noiseFor(0.45)));
      i += n;
    }
  }
  for (const e of flights) {
    if (rng.chance(0.62)) drafts.push(r.manifest(e, noiseFor(0.3)));
    if (rng.chance(0.22)) drafts.push(r.flightEmail(e));
  }

  for (const e of world.events) {
    if (e.kind === 'payment') {
      const wire = rng.chance(0.8);
      if (wire) drafts.push(r.wire(e, noiseFor(0.3)));
      if (!wire || rng.chance(0.35)) drafts.push(r.invoice(e, noiseFor(0.3)));
      if (rng.chance(0.25)) drafts.push(r.paymentEmail(e));
    } else if (e.kind === 'property') {
      drafts.push(r.closingLetter(e, noiseFor(0.55)));
      if (rng.chance(0.5)) drafts.push(r.propertyEmail(e));
    } else if (e.kind === 'legal') {
      drafts.push(r.courtNotice(e, noiseFor(0.35)));
      if (rng.chance(0.4)) drafts.push(r.legalEmail(e));
    }
  }

  const legal = world.events.filter((e): e is LegalEvent => e.kind === 'legal');
  const eventsOf = new Map<string, WorldEvent[]>();
  for (const e of world.events) for (const id of participants(e)) eventsOf.set(id, [...(eventsOf.get(id) ?? []), e]);
  const deponents = world.people.filter((p) => (eventsOf.get(p.id)?.length ?? 0) >= 4);
  for (let i = 0; i < CORPUS_SIZES.depositions; i++) {
    const deponent = rng.pick(deponents);
    const own = eventsOf.get(deponent.id)!.filter((e) => e.kind !== 'legal');
    drafts.push(
      r.deposition(
        deponent,
        rng.pick(legal),
        rng.sample(own, rng.int(5, 9)).sort((a, b) => a.day - b.day),
        noiseFor(0.25),
      ),
    );
  }

  const mentionSome = (exclude: Person[]) =>
    rng.sample(
      world.people.filter((p) => !exclude.includes(p)),
      rng.int(1, 3),
    );
  const someDay = () => rng.int(dayOf(2004, 1, 1), dayOf(2016, 12, 31));
  for (let i = 0; i < CORPUS_SIZES.distractorEmails; i++) {
    const from = rng.weighted(world.people.map((p) => [p, p.weight] as const));
    const to = rng.pick(world.people.filter((p) => p !== from));
    drafts.push(r.distractorEmail(from, to, mentionSome([from, to]), someDay(), threadLen(0.5)));
  }
  for (let i = 0; i < CORPUS_SIZES.distractorLetters; i++) {
    const from = rng.pick(world.people);
    const to = rng.pick(world.people.filter((p) => p !== from));
    drafts.push(r.distractorLetter(from, to, mentionSome([from, to]), someDay(), noiseFor(0.6)));
  }
  for (let i = 0; i < CORPUS_SIZES.newsletters; i++) {
    drafts.push(r.newsletter(rng.pick(world.places), mentionSome([]), someDay(), noiseFor(0.4)));
  }
  for (let i = 0; i < CORPUS_SIZES.junk; i++) drafts.push(r.junk(binaryJunk(rng, rng.int(150, 3000))));
  for (let i = 0; i < CORPUS_SIZES.stubs; i++) drafts.push(r.shortStub());

  // Ids follow a shuffled order with gaps, like Bates numbers across volumes.
  const order = rng.shuffle(drafts);
  const docs: SampleDoc[] = [];
  let next = 1000 + rng.int(0, 500);
  const noiseRng = Prng.derive(seed, 'ocr');
  for (const draft of order) {
    next += rng.int(1, 37);
    const docId = `${DOC_ID_PREFIX}${String(next).padStart(8, '0')}`;
    const text = applyOcrNoise(draft.text, draft.noise, noiseRng);
    const volume = `VOL${String(1 + Math.floor(next / 25_000)).padStart(3, '0')}`;
    docs.push({
      doc_id: docId,
      text,
      quality: 'clean',
      meta: {
        file_name: `${volume}/${docId}.${draft.fileType}`,
        file_type: draft.fileType,
        online_url: `${SOURCE_URL_BASE}/${volume}/${docId}.${draft.fileType}`,
      },
      kind: draft.kind,
      states: draft.states,
      mentions: draft.mentions,
      people: draft.people,
      screen: screenQuality(text),
      noise: draft.noise,
      tokens: whitespaceTokens(text).length,
    });
  }
  for (const doc of docs) doc.quality = doc.screen.quality;
  return docs;
}

/** The year span of the world, for card text. */
export function yearSpan(world: World): [number, number] {
  const days = world.events.map((e) => e.day);
  return [yearOf(Math.min(...days)), yearOf(Math.max(...days))];
}
