/**
 * The embeds of a page take turns with their pin checks (issue 12, five embeds): a frame checks
 * once no other started frame is loading, one at a time. Real BroadcastChannels (Node's, which
 * deliver between instances of one thread as a browser's do between frames).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EMBEDS_CHANNEL, pageEmbeds, type PageEmbeds } from '../../../src/app/embed/page-embeds.ts';

const opened: PageEmbeds[] = [];
const spies: BroadcastChannel[] = [];

function frame(id: string, turnWaitMaxMs = 60_000): PageEmbeds {
  const f = pageEmbeds({ id, channel: new BroadcastChannel(EMBEDS_CHANNEL), turnWaitMaxMs });
  opened.push(f);
  return f;
}

/** Resolves once a channel message has gone round (messages of one sender arrive in order). */
async function roundTrip(): Promise<void> {
  const a = new BroadcastChannel(EMBEDS_CHANNEL);
  const b = new BroadcastChannel(EMBEDS_CHANNEL);
  spies.push(a, b);
  const got = new Promise<void>((resolve) => (b.onmessage = () => resolve()));
  a.postMessage({ kind: 'noise' });
  await got;
}

/** A check that records when it ran and finishes when told. */
function check(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return {
    run: async () => {
      log.push(`${name} starts`);
      await done;
      log.push(`${name} ends`);
    },
    finish: () => finish(),
  };
}

/** A check that records when it ran and finishes at once. */
function finishedCheck(log: string[], name: string) {
  const c = check(log, name);
  c.finish();
  return c;
}

afterEach(() => {
  for (const f of opened.splice(0)) f.close();
  for (const c of spies.splice(0)) c.close();
});

describe('pageEmbeds', () => {
  it('a frame alone checks at once', async () => {
    const log: string[] = [];
    const a = frame('a');
    const c = finishedCheck(log, 'a');
    await a.checkInTurn(c.run);
    expect(log).toEqual(['a starts', 'a ends']);
  });

  it('waits until every other started frame is shown, including one that started later', async () => {
    const log: string[] = [];
    const a = frame('a');
    const b = frame('b');
    await roundTrip();
    const c = frame('c');
    await roundTrip();
    const ca = finishedCheck(log, 'a');
    const aDone = a.checkInTurn(ca.run);
    await roundTrip();
    expect(log).toEqual([]);
    b.nothingToCheck();
    await roundTrip();
    expect(log).toEqual([]);
    // c started after a: a learnt of it from its hello.
    c.nothingToCheck();
    await aDone;
    expect(log).toEqual(['a starts', 'a ends']);
  });

  it('a newcomer waits for a frame that started before it and is still loading', async () => {
    const log: string[] = [];
    const a = frame('a');
    await roundTrip();
    const b = frame('b');
    await roundTrip();
    const cb = finishedCheck(log, 'b');
    const bDone = b.checkInTurn(cb.run);
    await roundTrip();
    expect(log).toEqual([]);
    a.nothingToCheck();
    await bDone;
    expect(log).toEqual(['b starts', 'b ends']);
  });

  it('a frame that leaves the page, or never settles, does not hold the others for good', async () => {
    const log: string[] = [];
    const a = frame('a');
    const gone = frame('gone');
    await roundTrip();
    const ca = finishedCheck(log, 'a');
    const aDone = a.checkInTurn(ca.run);
    await roundTrip();
    expect(log).toEqual([]);
    gone.close();
    await aDone;
    expect(log).toEqual(['a starts', 'a ends']);

    const x = frame('x', 20);
    frame('stuck');
    await roundTrip();
    const cx = finishedCheck(log, 'x');
    await x.checkInTurn(cx.run);
    expect(log.at(-1)).toBe('x ends');
  });

  it('checks run one at a time, the smallest id first; a newcomer waits for a check under way', async () => {
    const log: string[] = [];
    const a = frame('a');
    const b = frame('b');
    await roundTrip();
    const ca = check(log, 'a');
    const cb = check(log, 'b');
    const bDone = b.checkInTurn(cb.run);
    const aDone = a.checkInTurn(ca.run);
    await expect.poll(() => log).toEqual(['a starts']);
    cb.finish();
    // A frame that starts now learns that a is checking (and b waiting), and waits for both.
    const c = frame('c');
    await roundTrip();
    const cc = finishedCheck(log, 'c');
    const cDone = c.checkInTurn(cc.run);
    await roundTrip();
    expect(log).toEqual(['a starts']);
    ca.finish();
    await Promise.all([aDone, bDone, cDone]);
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
  });

  it('without a channel, a frame checks at once', async () => {
    const log: string[] = [];
    frame('loading-elsewhere');
    await roundTrip();
    const alone = pageEmbeds({ id: 'z', channel: null });
    const c = finishedCheck(log, 'z');
    await alone.checkInTurn(c.run);
    expect(log).toEqual(['z starts', 'z ends']);
  });

  it('ignores messages that are not its own kind', async () => {
    const log: string[] = [];
    const a = frame('a');
    const noise = new BroadcastChannel(EMBEDS_CHANNEL);
    spies.push(noise);
    noise.postMessage({ kind: 'hello' });
    noise.postMessage('hello');
    noise.postMessage({ kind: 'loading', id: 7 });
    await roundTrip();
    const c = finishedCheck(log, 'a');
    await a.checkInTurn(c.run);
    expect(log).toEqual(['a starts', 'a ends']);
  });
});
