// Issue 22: the trading situations the simulator plays, each seen over HTTP and the stream as a client sees it, on the
// manual clock: a pre-match suspension re-offered at another price, quarter lines, a 1X2 market whose draw goes
// missing, table tennis best of 7 (periods 6 and 7), an abandoned match, a side priced 1.0, and outcome words the
// client does not know. Each comes from the world's own seeded dice (found through sim.truth.scenarios()) and from
// a script (sim.script.*).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PATHS,
  PeriodSchema,
  formatServiceTime,
  parseMarkets,
  parseRecords,
  parseServiceTime,
  parseSettledPage,
  type EventOdds,
  type Market,
  type PeriodResult,
  type Prices,
  type SettledEvent,
} from '../../src/shared/api';
import { tennisGamePeriod } from '../../src/shared/periods';
import { startSimulator, type Scenario, type Simulator } from '../../src/sim';
import { get, openSse, type SseMessage } from '../../src/sim/testing';

const KEY = 'scenarios-enterprise';
let sim: Simulator;

const streamUrl = (id: number) => `${sim.url}${PATHS.stream}?event_id=${id}`;
const startsOf = (ev: { starts: string }) => parseServiceTime(ev.starts) ?? NaN;
const truth = (id: number): EventOdds => {
  const ev = sim.truth.event(id);
  if (!ev) throw new Error(`event ${id} is not in the book`);
  return ev;
};
/** Advances the manual clock to `ms` (whole 5 s steps; never backwards). */
const advanceTo = async (ms: number) => sim.advance(Math.max(0, Math.ceil((ms - sim.now()) / 5000) * 5));

/** A stream connection with everything the world emitted for its event delivered before it is read. */
async function watch(id: number) {
  const c = await openSse(streamUrl(id), KEY);
  const [snapshot] = await c.waitFor(1);
  if (snapshot?.event !== 'snapshot') throw new Error('no snapshot');
  let emitted = 0;
  const off = sim.onStreamMessage((eventId) => {
    if (eventId === id) emitted++;
  });
  return {
    snapshot: JSON.parse(snapshot.data) as EventOdds,
    async messages(): Promise<SseMessage[]> {
      await c.waitFor(1 + emitted, 5000);
      return c.messages.slice(1);
    },
    close() {
      off();
      c.close();
    },
  };
}

interface LineUpdate {
  ts: string;
  /** The market exactly as sent. */
  raw: Market;
  /** What the client's parser makes of it (null when it refused it). */
  parsed: Market | null;
  problems: number;
}

/** Every odds message's update of one line, in order, as sent and as parsed. */
function lineUpdates(messages: readonly SseMessage[], lineId: number): LineUpdate[] {
  const out: LineUpdate[] = [];
  for (const m of messages) {
    if (m.event !== 'odds') continue;
    const data = JSON.parse(m.data) as { ts: string; markets: Market[] };
    data.markets.forEach((raw) => {
      if (raw.line_id !== lineId) return;
      const p = parseMarkets([raw]);
      out.push({ ts: data.ts, raw, parsed: p.items[0] ?? null, problems: p.problems.length });
    });
  }
  return out;
}

const lineIn = (ev: EventOdds, lineId: number) => {
  const m = ev.markets.find((x) => x.line_id === lineId);
  if (!m) throw new Error(`no line ${lineId} in ${ev.event_id}`);
  return m;
};

/** The first scenario of a kind still ahead (the world's own, seeded). */
function planned(kind: Scenario['kind'], extra: (s: Scenario) => boolean = () => true): Scenario {
  const s = sim.truth.scenarios().find((x) => x.kind === kind && x.state === 'planned' && extra(x));
  if (!s) throw new Error(`no planned ${kind}`);
  return s;
}

/** A pre-match event offered live, starting at least `hours` from now, optionally of one sport. */
function upcoming(hours: number, sportId?: number): EventOdds {
  const found = sim.truth
    .bookIds()
    .map(truth)
    .filter(
      (e) =>
        e.live_status === 2 &&
        startsOf(e) - sim.now() >= hours * 3600_000 &&
        (sportId === undefined || e.sport_id === sportId),
    )
    .filter((e) => e.markets.every((m) => m.prices !== null))
    .filter((e) => !sim.truth.scenarios().some((s) => s.event_id === e.event_id && s.state === 'planned'));
  const ev = found[0];
  if (!ev) throw new Error('no upcoming event');
  return ev;
}

function liveEvent(filter: (e: EventOdds) => boolean = () => true): EventOdds {
  const ev = sim.truth
    .bookIds()
    .map(truth)
    .find(
      (e) =>
        e.live_status === 1 &&
        filter(e) &&
        !sim.truth.scenarios().some((s) => s.event_id === e.event_id && s.state === 'planned'),
    );
  if (!ev) throw new Error('no live event');
  return ev;
}

async function settledPage(): Promise<SettledEvent[]> {
  const r = await get(sim.url, `${PATHS.settled}?since=0&limit=1000`, KEY);
  const parsed = parseSettledPage(r.json);
  expect(parsed.problems).toEqual([]);
  return parsed.items;
}

async function advanceUntilSettled(id: number, maxHours = 6): Promise<SettledEvent> {
  for (let i = 0; i < maxHours * 6 && !sim.truth.settled().some((s) => s.event_id === id); i++) await sim.advance(600);
  const s = sim.truth.settled().find((x) => x.event_id === id);
  if (!s) throw new Error(`${id} did not settle`);
  return s;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 42, clock: 'manual', keys: [{ key: KEY, plan: 'enterprise' }] });
});
afterAll(() => sim.close());

describe('a. suspension before kick-off', () => {
  it('the world takes a pre-match line offline well before the start and re-offers it later at another price', async () => {
    const sc = planned('suspension', (s) => s.at - sim.now() < 4 * 3600_000);
    const lineId = sc.line_id!;
    const w = await watch(sc.event_id);
    const starts = startsOf(w.snapshot);
    await advanceTo(sc.until! + 5000);
    const updates = lineUpdates(await w.messages(), lineId);
    w.close();

    const off = updates.findIndex((u) => u.raw.prices === null);
    expect(off).toBeGreaterThanOrEqual(0);
    expect(updates[off]!.ts).toBe(formatServiceTime(sc.at));
    expect(starts - sc.at).toBeGreaterThanOrEqual(25 * 60_000); // well before kick-off
    const before = off > 0 ? updates[off - 1]!.raw.prices : lineIn(w.snapshot, lineId).prices;
    // The next word on the line is the re-offer, at the scenario's end, still before the start, at another price.
    const back = updates[off + 1]!;
    expect(back.ts).toBe(formatServiceTime(sc.until!));
    expect(back.raw.prices).not.toBeNull();
    expect(back.raw.prices).not.toEqual(before);
    expect(back.problems).toBe(0);
    expect(sc.until!).toBeLessThan(starts);
    expect(truth(sc.event_id).live_status).toBe(2);
    expect(sim.truth.scenarios().find((s) => s.event_id === sc.event_id && s.kind === 'suspension')?.state).toBe(
      'played',
    );
  });

  it('scripted: setMarket works pre-match, suspend holds the line offline for a while, kickOff makes the match live now', async () => {
    const ev = upcoming(2);
    const id = ev.event_id;
    const ml = id * 10;
    const keys = Object.keys(lineIn(ev, ml).prices!) as Array<keyof Prices>;
    const first: Prices = Object.fromEntries(keys.map((k, i) => [k, [2.2, 3.4, 3.1][i]!]));
    expect(sim.script.setMarket(id, ml, first)).toBe(true);
    const w = await watch(id);
    expect(lineIn(w.snapshot, ml).prices).toEqual(first);

    // 40 minutes before kick-off the line goes offline for 15 minutes, then comes back at another price.
    await advanceTo(startsOf(ev) - 40 * 60_000);
    const offAt = sim.now();
    expect(sim.script.suspend(id, ml, 15 * 60)).toBe(true);
    expect(lineIn(truth(id), ml).prices).toBeNull();
    await sim.advance(15 * 60);
    const reoffered = lineIn(truth(id), ml).prices;
    expect(reoffered).not.toBeNull();
    expect(reoffered).not.toEqual(first);
    // A suspension with a chosen re-offer.
    const second: Prices = Object.fromEntries(keys.map((k, i) => [k, [1.95, 3.6, 3.9][i]!]));
    expect(sim.script.suspend(id, ml, 300, second)).toBe(true);
    await sim.advance(300);
    expect(lineIn(truth(id), ml).prices).toEqual(second);

    const updates = lineUpdates(await w.messages(), ml);
    const off = updates.findIndex((u) => u.raw.prices === null);
    expect(updates[off]!.ts).toBe(formatServiceTime(offAt));
    expect(updates[off + 1]!.ts).toBe(formatServiceTime(offAt + 15 * 60_000));
    expect(updates[off + 1]!.raw.prices).toEqual(reoffered);

    // Kick-off now, ahead of the schedule.
    expect(truth(id).live_status).toBe(2);
    const kickAt = sim.now();
    expect(sim.script.kickOff(id)).toBe(true);
    const messages = await w.messages();
    const score = messages[messages.length - 1]!;
    expect(score.event).toBe('score');
    expect(JSON.parse(score.data)).toEqual({
      event_id: id,
      ts: formatServiceTime(sim.now()),
      live_status: 1,
      score_home: 0,
      score_away: 0,
    });
    expect(truth(id)).toMatchObject({
      live_status: 1,
      starts: formatServiceTime(sim.now()),
      score_home: 0,
      score_away: 0,
    });
    const live = (await get(sim.url, `${PATHS.fixtures}?live=2`, KEY)).json as Array<{
      event_id: number;
      starts: string;
    }>;
    expect(live.find((f) => f.event_id === id)?.starts).toBe(formatServiceTime(sim.now()));
    expect(sim.script.kickOff(id)).toBe(false); // only a pre-match event kicks off
    w.close();
    // The match plays out from the new kick-off and settles.
    const settled = await advanceUntilSettled(id);
    expect(settled.starts).toBe(formatServiceTime(kickAt));
    expect(parseServiceTime(settled.settled_at)!).toBeLessThan(startsOf(ev) + 3 * 3600_000);
  });
});

describe('b. quarter lines', () => {
  const isQuarter = (x: number | null) =>
    x !== null && Math.abs(x * 4 - Math.round(x * 4)) < 1e-9 && Math.abs(x * 2 - Math.round(x * 2)) > 1e-9;

  it('soccer events carry a quarter spread and a quarter total, streamed, moving and settled by the quarter rule', async () => {
    const ev = upcoming(1, 1);
    const quarters = ev.markets.filter((m) => isQuarter(m.line));
    expect(quarters.map((m) => [m.line_id - ev.event_id * 10, m.market])).toEqual([
      [5, 'spread'],
      [6, 'totals'],
    ]);
    const w = await watch(ev.event_id);
    expect(w.snapshot.markets.filter((m) => isQuarter(m.line)).length).toBe(2);
    await sim.advance(3600);
    const moved = [
      ...lineUpdates(await w.messages(), ev.event_id * 10 + 5),
      ...lineUpdates(await w.messages(), ev.event_id * 10 + 6),
    ];
    w.close();
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((u) => u.problems === 0)).toBe(true);

    const soccer = (await settledPage()).filter((s) => s.sport_id === 1 && s.status === 'ended');
    expect(soccer.length).toBeGreaterThan(5);
    const spreads = new Set<number>();
    const totals = new Set<number>();
    for (const s of soccer) {
      const lines = s.settlement.filter((l) => isQuarter(l.line));
      expect(lines.length).toBe(2);
      for (const l of lines) {
        // The side's result against the quarter line itself (never level): a half win reads win, a half loss loss.
        const margin =
          l.market === 'spread' ? s.score_home + l.line! - s.score_away : s.score_home + s.score_away - l.line!;
        expect([l.outcome_home, l.outcome_away]).toEqual(margin > 0 ? ['win', 'loss'] : ['loss', 'win']);
        expect(l.outcome_draw).toBe('loss');
        (l.market === 'spread' ? spreads : totals).add(l.line!);
      }
    }
    expect([...spreads].some((x) => x < 0) && [...spreads].some((x) => x > 0)).toBe(true);
    expect([...totals].filter((x) => [2.25, 2.75].includes(x)).length).toBe(2);
  });
});

describe('c. a 1X2 market whose draw goes missing', () => {
  it('the world drops the draw for a while, home and away stand still, then the draw comes back', async () => {
    const sc = planned('draw_gap');
    const lineId = sc.line_id!;
    const w = await watch(sc.event_id);
    await advanceTo(sc.until! + 5000);
    const updates = lineUpdates(await w.messages(), lineId);
    w.close();
    const gapIdx = updates.findIndex((u) => u.raw.prices !== null && !('draw' in u.raw.prices));
    expect(gapIdx).toBeGreaterThanOrEqual(0);
    const gap = updates[gapIdx]!;
    expect(gap.ts).toBe(formatServiceTime(sc.at));
    const before = gapIdx > 0 ? updates[gapIdx - 1]!.raw.prices! : lineIn(w.snapshot, lineId).prices!;
    expect(gap.raw.prices).toEqual({ home: before.home, away: before.away });
    expect(gap.parsed?.prices).toEqual({ home: before.home, away: before.away }); // the client keeps the market
    const back = updates[gapIdx + 1]!;
    expect(back.ts).toBe(formatServiceTime(sc.until!));
    expect(back.raw.prices).toEqual({ home: before.home, draw: before.draw, away: before.away });
  });

  it('scripted: setMarket with a partial prices object, and dropSide for a timed gap', async () => {
    const ev = upcoming(2, 1);
    const id = ev.event_id;
    const ml = id * 10;
    const w = await watch(id);
    expect(sim.script.setMarket(id, ml, { home: 2.5, away: 2.9 })).toBe(true);
    expect(lineIn(truth(id), ml).prices).toEqual({ home: 2.5, away: 2.9 });
    expect(sim.script.setMarket(id, ml, { home: 2.5, draw: 3.2, away: 2.9 })).toBe(true);
    expect(sim.script.dropSide(id, ml, 'draw', 120)).toBe(true);
    expect(lineIn(truth(id), ml).prices).toEqual({ home: 2.5, away: 2.9 });
    await sim.advance(120);
    expect(lineIn(truth(id), ml).prices).toEqual({ home: 2.5, draw: 3.2, away: 2.9 });
    const updates = lineUpdates(await w.messages(), ml).map((u) => u.raw.prices);
    w.close();
    expect(updates).toEqual([
      { home: 2.5, away: 2.9 },
      { home: 2.5, draw: 3.2, away: 2.9 },
      { home: 2.5, away: 2.9 },
      { home: 2.5, draw: 3.2, away: 2.9 },
    ]);
    expect(sim.script.dropSide(id, ml, 'over', 60)).toBe(false); // no such side on a moneyline
  });
});

describe('d. a sport in sets with periods 6 and 7', () => {
  it('/api/periods lists codes 0..7 with descriptions for sets 6 and 7; no tennis game is listed', async () => {
    const r = await get(sim.url, PATHS.periods, KEY);
    const periods = parseRecords(PeriodSchema, r.json as unknown[]);
    expect(periods.problems).toEqual([]);
    expect(periods.items.map((p) => p.period)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(periods.items.find((p) => p.period === 6)?.description).toBe('6th Set');
    expect(periods.items.find((p) => p.period === 7)?.description).toBe('7th Set');
  });

  it('table tennis best of 7 settles periods 6 and 7 when it goes that long; tennis still numbers its games by the rule', async () => {
    const sevenSets = (s: SettledEvent) =>
      s.sport_id === 6 && s.status === 'ended' && s.score_home + s.score_away === 7;
    for (let i = 0; i < 12 && !sim.truth.settled().some(sevenSets); i++) await sim.advance(3600);
    const settled = await settledPage();
    const long = settled.find(sevenSets);
    if (!long) throw new Error('no seven-set table tennis match');
    const rows = (await get(sim.url, `${PATHS.results}?event_id=${long.event_id}`, KEY)).json as PeriodResult[];
    expect(rows.map((r) => r.period)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(rows[0]).toMatchObject({ sets_home: long.score_home, sets_away: long.score_away });
    for (const r of rows.slice(1)) expect([r.score_home, r.score_away].sort()).toEqual([0, 1]);
    expect(rows.slice(1).filter((r) => r.score_home === 1).length).toBe(long.score_home);
    // Best of 5 still stops at 5.
    expect(settled.some((s) => s.sport_id === 6 && Math.max(s.score_home, s.score_away) === 3)).toBe(true);

    const tennis = settled.find((s) => s.sport_id === 4 && s.status === 'ended');
    if (!tennis) throw new Error('no tennis');
    const t = (await get(sim.url, `${PATHS.results}?event_id=${tennis.event_id}`, KEY)).json as PeriodResult[];
    const sets = tennis.score_home + tennis.score_away;
    expect(t.filter((r) => r.period >= 1 && r.period <= 5).map((r) => r.period)).toEqual(
      Array.from({ length: sets }, (_, i) => i + 1),
    );
    const games = t.filter((r) => r.period >= 6);
    expect(games[0]?.period).toBe(tennisGamePeriod(1, 1));
    expect(games.length).toBeGreaterThanOrEqual(12);
    expect(games.every((r) => r.period <= tennisGamePeriod(sets, 13))).toBe(true);
  });
});

describe('e. an abandoned match', () => {
  it('the world abandons a match now and then: status abandoned, every line push, on /api/settled like any other', async () => {
    await advanceTo(sim.now() + 6 * 3600_000);
    const sc = sim.truth.scenarios().find((s) => s.kind === 'abandoned' && s.state === 'played');
    if (!sc) throw new Error('no abandoned match played yet');
    const page = await settledPage();
    const s = page.find((x) => x.event_id === sc.event_id);
    expect(s?.status).toBe('abandoned');
    expect(s!.settlement.length).toBeGreaterThan(0);
    for (const l of s!.settlement)
      expect([l.outcome_home, l.outcome_draw, l.outcome_away]).toEqual(['push', 'push', 'push']);
    expect((await get(sim.url, `${PATHS.settlement}?event_id=${sc.event_id}`, KEY)).json).toEqual(s);
    // Its stream ended as any settled one does.
    const c = await openSse(streamUrl(sc.event_id), KEY);
    await c.closed;
    expect(c.messages.map((m) => JSON.parse(m.data) as unknown)).toEqual([
      { event_id: sc.event_id, reason: 'settled' },
    ]);
    // Nothing else in the default world is void or uses other words.
    for (const x of page) {
      if (x.status !== 'ended')
        expect(
          sim.truth
            .scenarios()
            .some((y) => y.event_id === x.event_id && (y.kind === 'abandoned' || y.kind === 'cancelled')),
        ).toBe(true);
      for (const l of x.settlement)
        for (const word of [l.outcome_home, l.outcome_draw, l.outcome_away])
          expect(['win', 'loss', 'push']).toContain(word);
    }
  });

  it('scripted: abandon a live set-sport match, cancel a pre-match one; both settle void in the next batch', async () => {
    const live = liveEvent((e) => e.sport_id === 5 || e.sport_id === 6);
    const pre = upcoming(1);
    const w = await watch(live.event_id);
    expect(sim.script.abandon(live.event_id)).toBe(true);
    expect(sim.script.abandon(pre.event_id, 'cancelled')).toBe(true);
    const messages = await w.messages();
    expect(JSON.parse(messages[0]!.data)).toMatchObject({ live_status: 0 });
    await sim.advance(600);
    const page = await settledPage();
    const a = page.find((s) => s.event_id === live.event_id);
    const c = page.find((s) => s.event_id === pre.event_id);
    expect(a).toMatchObject({ status: 'abandoned', score_home: live.score_home, score_away: live.score_away });
    expect(c).toMatchObject({ status: 'cancelled', score_home: 0, score_away: 0 });
    for (const s of [a!, c!])
      for (const l of s.settlement)
        expect([l.outcome_home, l.outcome_draw, l.outcome_away]).toEqual(['push', 'push', 'push']);
    const end = (await w.messages()).at(-1)!;
    expect(JSON.parse(end.data)).toEqual({ event_id: live.event_id, reason: 'settled' });
    w.close();
    // The abandoned set match publishes the sets it completed and a period 0 row that says why.
    const rows = (await get(sim.url, `${PATHS.results}?event_id=${live.event_id}`, KEY)).json as PeriodResult[];
    expect(rows[0]).toMatchObject({
      period: 0,
      cancellation_reason: 'Match abandoned',
      sets_home: live.score_home,
      sets_away: live.score_away,
    });
    expect(rows.length).toBe(1 + (live.score_home ?? 0) + (live.score_away ?? 0));
    expect(sim.script.abandon(live.event_id)).toBe(false); // it left the book
  });

  it("the client's settled walk stores abandoned and cancelled matches like any other", async () => {
    const { createApiClient } = await import('../../src/core/api');
    const { plainWalkStore, walkSettled } = await import('../../src/core/monitor/settledWalk');
    const { openStore } = await import('../../src/core/store');
    const store = openStore({ path: ':memory:' });
    try {
      const client = createApiClient({
        baseUrl: sim.url,
        keyProvider: () => KEY,
        governor: { retry: { baseMs: 1, maxMs: 5 } },
      });
      const r = await walkSettled({
        client,
        store: plainWalkStore(store),
        sportIds: async () => ({ ok: true, value: [1, 2, 3, 4, 5, 6] }),
      });
      expect(r.error).toBeNull();
      const voided = sim.truth.settled().filter((s) => s.status !== 'ended');
      expect(voided.length).toBeGreaterThanOrEqual(3);
      for (const v of voided) {
        expect(r.added.some((e) => e.event_id === v.event_id)).toBe(true);
        expect(store.settlements.settlement(v.event_id)?.status).toBe(v.status);
      }
    } finally {
      store.close();
    }
  });
});

describe('f. a side priced 1.0', () => {
  it('the world prices the winning side of a line about to be decided at exactly 1.0; the client keeps the rest', async () => {
    const sc = planned('decided_price', (s) => s.at - sim.now() < 3 * 3600_000);
    const w = await watch(sc.event_id);
    await advanceTo(sc.until! - 5000);
    const updates = lineUpdates(await w.messages(), sc.line_id!);
    w.close();
    expect(sim.truth.scenarios().find((s) => s.event_id === sc.event_id && s.kind === 'decided_price')?.state).toBe(
      'played',
    );
    const decided = updates.find((u) => u.raw.prices !== null && Object.values(u.raw.prices).includes(1));
    if (!decided) throw new Error('no decided price');
    const [winner] = Object.entries(decided.raw.prices!).find(([, p]) => p === 1)!;
    // Exactly 1.0 on the wire, the other sides long; the parser leaves the decided side unpriced, the market stands.
    expect(
      Object.values(decided.raw.prices!)
        .filter((p) => p !== 1)
        .every((p) => p >= 5),
    ).toBe(true);
    expect(decided.problems).toBe(0);
    expect(decided.parsed?.prices).not.toHaveProperty(winner);
    expect(Object.keys(decided.parsed!.prices!).length).toBe(Object.keys(decided.raw.prices!).length - 1);
  });

  it('scripted: setMarket lets a price of exactly 1.0 through', async () => {
    const ev = liveEvent(
      (e) => lineIn(e, e.event_id * 10).prices !== null && !('draw' in lineIn(e, e.event_id * 10).prices!),
    );
    const ml = ev.event_id * 10;
    const w = await watch(ev.event_id);
    expect(sim.script.setMarket(ev.event_id, ml, { home: 1.0, away: 12.0 })).toBe(true);
    expect(lineIn(truth(ev.event_id), ml).prices).toEqual({ home: 1, away: 12 });
    const [u] = lineUpdates(await w.messages(), ml);
    w.close();
    expect(u!.raw.prices).toEqual({ home: 1, away: 12 });
    expect(u!.parsed?.prices).toEqual({ away: 12 });
  });
});

describe('g. outcome words the client does not know', () => {
  it('scripted: the next settlement of the event carries the words on that one line', async () => {
    const ev = liveEvent();
    const spread = ev.event_id * 10 + 1;
    expect(sim.script.outcomeWords(ev.event_id, spread, { home: 'half-win', away: 'void' })).toBe(true);
    expect(sim.script.outcomeWords(ev.event_id, 999, { home: 'void' })).toBe(false);
    await advanceUntilSettled(ev.event_id);
    const r = await get(sim.url, `${PATHS.settlement}?event_id=${ev.event_id}`, KEY);
    const lines = (r.json as SettledEvent).settlement;
    const line = lines.find((l) => l.line_id === spread)!;
    expect([line.outcome_home, line.outcome_away]).toEqual(['half-win', 'void']);
    expect(['win', 'loss', 'push']).toContain(line.outcome_draw);
    for (const l of lines.filter((x) => x.line_id !== spread))
      for (const word of [l.outcome_home, l.outcome_draw, l.outcome_away])
        expect(['win', 'loss', 'push']).toContain(word);
    const page = (await get(sim.url, `${PATHS.settled}?since=0&limit=1000`, KEY)).json as { events: SettledEvent[] };
    expect(
      page.events.find((e) => e.event_id === ev.event_id)?.settlement.find((l) => l.line_id === spread)?.outcome_home,
    ).toBe('half-win');
  });

  it('scripts answer false for an event that is not in the book', () => {
    expect(sim.script.kickOff(1)).toBe(false);
    expect(sim.script.suspend(1, 10, 60)).toBe(false);
    expect(sim.script.dropSide(1, 10, 'draw', 60)).toBe(false);
    expect(sim.script.abandon(1)).toBe(false);
    expect(sim.script.outcomeWords(1, 10, { home: 'void' })).toBe(false);
  });
});
