// Issue 34, class 8: a world that never contradicts itself. At every moment of every simulated match (virtual time,
// every 5 s step from before kick-off to the end, and after every stream message within a step), the lines of each
// ladder (an event's spread lines, its totals lines, each team's total) are priced in order: Over shorter as the line
// falls, Home shorter as its handicap grows, and a quarter line strictly between its neighbours, never one price with
// them. And no line already decided by the score is still offered.
import { describe, expect, it } from 'vitest';
import type { EventOdds, Market } from '../../src/shared/api';
import { World } from '../../src/sim/world';

const START = Date.UTC(2026, 10, 22, 12);
const STEP = 5_000;

interface Ladder {
  key: string;
  rungs: Array<{ lineId: number; at: number; up: number; down: number }>;
}

/** The priced lines of each ladder, by the quantity they count: up = over (home), down = under (away). */
function ladders(markets: readonly Market[]): Ladder[] {
  const out = new Map<string, Ladder>();
  for (const m of markets) {
    if (m.market === 'moneyline' || !m.prices || m.line === null) continue;
    const spread = m.market === 'spread';
    const up = spread ? m.prices.home : m.prices.over;
    const down = spread ? m.prices.away : m.prices.under;
    if (up === undefined || down === undefined) continue;
    const key = `${m.period}:${m.market}:${m.side ?? ''}`;
    const ladder = out.get(key) ?? { key, rungs: [] };
    ladder.rungs.push({ lineId: m.line_id, at: spread ? -m.line : m.line, up, down });
    out.set(key, ladder);
  }
  return [...out.values()].map((l) => ({ ...l, rungs: l.rungs.sort((a, b) => a.at - b.at) }));
}

/** Every broken order in one event's markets, in words (empty: coherent). */
function incoherence(
  ev: Pick<EventOdds, 'event_id' | 'score_home' | 'score_away' | 'live_status'>,
  markets: readonly Market[],
  when: string,
): string[] {
  const bad: string[] = [];
  for (const l of ladders(markets)) {
    for (let i = 1; i < l.rungs.length; i++) {
      const lo = l.rungs[i - 1]!;
      const hi = l.rungs[i]!;
      // The higher line is harder to go over: its over (home) price is strictly longer, its under (away) shorter.
      if (!(hi.up > lo.up) || !(hi.down < lo.down)) {
        bad.push(
          `${when} event ${ev.event_id} ${l.key}: line ${lo.at} ${lo.up}/${lo.down} then ${hi.at} ${hi.up}/${hi.down}`,
        );
      }
    }
  }
  // A totals line the score has already gone over is decided: it is not offered any more.
  if (ev.score_home !== null && ev.score_away !== null) {
    for (const m of markets) {
      if (m.market !== 'totals' || !m.prices || m.line === null) continue;
      if (ev.score_home + ev.score_away > m.line + 0.25)
        bad.push(`${when} event ${ev.event_id}: totals ${m.line} still priced at ${ev.score_home}-${ev.score_away}`);
    }
  }
  return bad;
}

describe('the simulated world prices its ladders in order', () => {
  it('at every step and after every message of whole matches, for every sport', () => {
    const world = new World({ seed: 34, startMs: START, events: 60, historyMs: 0 });
    // What a perfect stream client holds: the truth at the last step, with each message of this step applied.
    const held = new Map<number, { head: EventOdds; markets: Map<number, Market> }>();
    const hold = (id: number) => {
      const ev = world.eventOdds(id);
      if (ev) held.set(id, { head: ev, markets: new Map(ev.markets.map((m) => [m.line_id, m])) });
    };
    const bad: string[] = [];
    let messages = 0;
    world.onMessage((id, message) => {
      const h = held.get(id);
      if (!h) return;
      const data = JSON.parse(message.data) as {
        markets?: Market[];
        live_status?: number;
        score_home?: number | null;
        score_away?: number | null;
      };
      if (message.event === 'score')
        h.head = {
          ...h.head,
          live_status: data.live_status ?? h.head.live_status,
          score_home: data.score_home ?? null,
          score_away: data.score_away ?? null,
        };
      if (message.event !== 'odds') return;
      messages++;
      for (const m of data.markets ?? []) h.markets.set(m.line_id, m);
      bad.push(
        ...incoherence(
          h.head,
          [...h.markets.values()],
          `message ${message.id} at ${new Date(world.now()).toISOString()}`,
        ),
      );
    });
    for (const id of world.bookIds()) hold(id);

    const seen = new Map<
      number,
      { sport: number; live: boolean; quarters: boolean; scored: boolean; ended: boolean }
    >();
    const until = START + 8 * 3600_000;
    for (let t = START + STEP; t <= until; t += STEP) {
      world.advanceTo(t);
      for (const id of world.bookIds()) {
        const ev = world.eventOdds(id)!;
        bad.push(...incoherence(ev, ev.markets, `step ${new Date(t).toISOString()}`));
        const s = seen.get(id) ?? { sport: ev.sport_id, live: false, quarters: false, scored: false, ended: false };
        if (ev.live_status === 1) s.live = true;
        if ((ev.score_home ?? 0) + (ev.score_away ?? 0) > 0) s.scored = true;
        if (s.live && ev.live_status !== 1) s.ended = true;
        const quarters = ev.markets.filter((m) => m.prices && m.line !== null && Math.abs((m.line * 4) % 2) === 1);
        if (quarters.length === 2 && ev.live_status === 1) s.quarters = true;
        seen.set(id, s);
        hold(id);
      }
      if (bad.length > 20) break;
    }
    expect(bad.slice(0, 20)).toEqual([]);
    // It looked at what it says it did: whole matches of every sport, scores, soccer in play with both quarter lines.
    const played = [...seen.values()].filter((s) => s.live && s.ended);
    for (const sport of [1, 2, 3, 4, 5, 6])
      expect(played.filter((s) => s.sport === sport).length, `sport ${sport}`).toBeGreaterThan(0);
    expect(played.filter((s) => s.scored).length).toBeGreaterThan(20);
    expect([...seen.values()].filter((s) => s.quarters).length).toBeGreaterThan(3);
    expect(messages).toBeGreaterThan(10_000);
    // CPU work only (whole matches of 60 events, every message checked): about 15 s alone, 50 s seen on a shared machine.
  }, 180_000);
});
