// The simulator's event stream over real HTTP: snapshot first, ids that grow, replay after Last-Event-ID, pings,
// `end` on settlement, and the stream faults. Pings and faults run on the simulated clock (faultClock 'sim'), so no
// test waits for real time to pass: after a move of the clock the simulator writes the world's messages, then a ping
// to every open connection, and a test waits for that ping to know everything the move sent has arrived.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EventOddsSchema,
  OddsMessageSchema,
  PATHS,
  ScoreMessageSchema,
  parseMarkets,
  parseRecord,
} from '../../src/shared/api';
import { startSimulator, type Simulator } from '../../src/sim';
import { openSse, type SseConnection, type SseMessage } from '../../src/sim/testing';

const KEY = 'stream-enterprise';
let sim: Simulator;
const streamUrl = (id: number) => `${sim.url}${PATHS.stream}?event_id=${id}`;

/** An event in the book that stays there for a while: pre-match, starting at least 3 hours from now. */
function quietEvent(): number {
  for (const id of sim.truth.bookIds()) {
    const ev = sim.truth.event(id);
    if (ev && ev.live_status !== 1 && Date.parse(`${ev.starts}Z`) - sim.now() > 3 * 3600_000) return id;
  }
  throw new Error('no quiet event');
}

function checkPayload(m: SseMessage): void {
  const data: unknown = JSON.parse(m.data);
  if (m.event === 'snapshot') {
    const r = parseRecord(EventOddsSchema, data, '');
    expect(r.ok).toBe(true);
    expect(parseMarkets((data as { markets: unknown[] }).markets).problems).toEqual([]);
  } else if (m.event === 'odds') {
    expect(parseRecord(OddsMessageSchema, data, '').ok).toBe(true);
    expect(parseMarkets((data as { markets: unknown[] }).markets).problems).toEqual([]);
  } else if (m.event === 'score') {
    expect(parseRecord(ScoreMessageSchema, data, '').ok).toBe(true);
  }
}

/** Waits for real I/O the manual clock does not move (a ping to arrive), bounded; polls, never sleeps a set time. */
async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * Moves the simulated clock by at least one ping interval and waits for the ping that follows the move on `c`: the
 * messages the move produced were written before it, so they have all arrived.
 */
async function advanceAndDrain(c: SseConnection, seconds: number): Promise<void> {
  const pings = c.parser.comments.length;
  await sim.advance(seconds);
  await until(() => c.parser.comments.length > pings, 'the ping after the move');
}

beforeAll(async () => {
  sim = await startSimulator({
    seed: 5,
    events: 30,
    pingIntervalMs: 40,
    faultClock: 'sim',
    keys: [{ key: KEY, plan: 'enterprise' }],
  });
});
afterAll(() => sim.close());

describe('stream', () => {
  it('opens with a snapshot equal to the truth, then odds messages with growing ids and valid payloads', async () => {
    const id = quietEvent();
    const c = await openSse(streamUrl(id), KEY);
    expect(c.status).toBe(200);
    expect(c.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const [first] = await c.waitFor(1);
    expect(first?.event).toBe('snapshot');
    expect(JSON.parse(first?.data ?? '')).toEqual(sim.truth.event(id));
    expect(c.parser.retry).toBe(2000);
    await advanceAndDrain(c, 600);
    expect(c.messages.length).toBeGreaterThanOrEqual(4);
    const ids = c.messages.map((m) => Number(m.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBe((ids[i - 1] ?? 0) + 1);
    c.messages.forEach(checkPayload);
    expect(c.messages.slice(1).every((m) => m.event === 'odds')).toBe(true);
    // Applying the updates to the snapshot gives what a perfect client holds.
    const held = new Map(
      (JSON.parse(first?.data ?? '') as { markets: Array<{ line_id: number }> }).markets.map((m) => [m.line_id, m]),
    );
    for (const m of c.messages.slice(1))
      for (const mk of (JSON.parse(m.data) as { markets: Array<{ line_id: number }> }).markets)
        held.set(mk.line_id, mk);
    expect([...held.values()]).toEqual(sim.truth.event(id)?.markets);
    c.close();
  });

  it('sends `: ping` comments on the configured interval', async () => {
    const c = await openSse(streamUrl(quietEvent()), KEY);
    await c.waitFor(1);
    // One ping each time the interval (40 simulated ms) has passed since the last.
    for (let i = 1; i <= 3; i++) {
      await sim.advance(0.04);
      await until(() => c.parser.comments.length >= i, `ping ${i}`);
      expect(c.parser.comments).toEqual(Array.from({ length: i }, () => 'ping'));
    }
    c.close();
  });

  it('a reconnect with Last-Event-ID replays exactly the missed messages; a fresh or unusable one gets a snapshot', async () => {
    const id = quietEvent();
    const a = await openSse(streamUrl(id), KEY);
    await a.waitFor(1);
    await sim.advance(300);
    await a.waitFor(3);
    const seenUpTo = a.messages[1]?.id ?? '';
    a.close();
    await sim.advance(900);
    const full = await openSse(streamUrl(id), KEY);
    const [snap] = await full.waitFor(1);
    full.close();
    const lastId = Number(snap?.id);
    expect(lastId).toBeGreaterThan(Number(a.messages[a.messages.length - 1]?.id));

    const b = await openSse(streamUrl(id), KEY, seenUpTo);
    const missed = lastId - Number(seenUpTo);
    await b.waitFor(missed);
    // A ping after the replay: anything more the opening sent has arrived by then.
    await advanceAndDrain(b, 0.05);
    const ids = b.messages.map((m) => Number(m.id));
    expect(ids.slice(0, missed)).toEqual(Array.from({ length: missed }, (_, i) => Number(seenUpTo) + 1 + i));
    // Nothing replayed twice: past the missed ones only news of the move, if any.
    expect(ids.slice(missed).every((x) => x > lastId)).toBe(true);
    expect(b.messages[0]?.event).not.toBe('snapshot');
    // The replay carries the very messages the first connection saw for the ids both have.
    for (const m of a.messages.slice(2)) expect(b.messages.find((x) => x.id === m.id)).toEqual(m);
    b.close();

    for (const bad of [String(lastId + 50), 'garbage']) {
      const c = await openSse(streamUrl(id), KEY, bad);
      const [m] = await c.waitFor(1);
      expect(m?.event).toBe('snapshot');
      c.close();
    }
  });

  it('ends with `end` (reason settled) and closes when the event settles; a later connection gets `end` at once', async () => {
    const live = sim.truth
      .bookIds()
      .map((i) => sim.truth.event(i))
      .find((e) => e?.live_status === 1);
    if (!live) throw new Error('no live event');
    const c = await openSse(streamUrl(live.event_id), KEY);
    await c.waitFor(1);
    for (let i = 0; i < 60 && !sim.truth.settled().some((s) => s.event_id === live.event_id); i++)
      await sim.advance(600);
    await c.closed;
    const end = c.messages[c.messages.length - 1];
    expect(end?.event).toBe('end');
    expect(JSON.parse(end?.data ?? '')).toEqual({ event_id: live.event_id, reason: 'settled' });
    expect(c.messages.some((m) => m.event === 'score')).toBe(true);
    c.messages.forEach(checkPayload);

    const again = await openSse(streamUrl(live.event_id), KEY);
    await again.closed;
    expect(again.messages).toEqual([end]);
  });

  it('the drop fault closes connections; the stall fault holds every byte, pings included, then delivers', async () => {
    const id = quietEvent();
    const key = sim.addKey('enterprise');
    sim.setFaults({ dropStreamEveryMs: 60 }, key);
    const dropped = await openSse(streamUrl(id), key);
    await dropped.waitFor(1);
    await sim.advance(0.06); // the drop falls due 60 simulated ms after the opening
    await dropped.closed;
    expect(dropped.messages[0]?.event).toBe('snapshot');

    // A stall of ten simulated minutes; a connection without the fault on the same event is the yardstick: once the
    // ping that follows a five-minute move has reached it, the stalled one would have had the move's bytes too.
    sim.setFaults({ stallStreamMs: 600_000 }, key);
    const stalled = await openSse(streamUrl(id), key);
    const calm = await openSse(streamUrl(id), KEY);
    await calm.waitFor(1);
    await advanceAndDrain(calm, 300);
    expect(calm.messages.length).toBeGreaterThan(1); // the move sent messages, the stall held them
    expect(stalled.messages).toEqual([]);
    expect(stalled.parser.comments).toEqual([]);
    // The stall ends within the next five minutes: what it held arrives, snapshot first.
    await sim.advance(300);
    await stalled.waitFor(2, 5000);
    expect(stalled.messages[0]?.event).toBe('snapshot');
    stalled.close();
    calm.close();
    sim.setFaults({}, key);
  });
});
