// The simulator's load generation for benchmarks (`oddsRate`): each nudge is a visible price change (with its ladder) sent as an odds
// message, drawn from the caller's generator, so the world's own seeded course (events, scores, settlements) is the
// same with or without it. Counts and contents only: no timing is asserted here.
import { describe, expect, it } from 'vitest';
import { OddsMessageSchema, parseRecord } from '../../src/shared/api';
import { startSimulator } from '../../src/sim';
import { Prng } from '../../src/sim/prng';
import { World, type StreamMessage } from '../../src/sim/world';

const START = Date.UTC(2026, 10, 22, 12);
const world = () => new World({ seed: 7, startMs: START, events: 20, historyMs: 3600_000 });

describe('load generation', () => {
  it('a nudge moves one priced market (and its ladder) and says how many markets it sent, each a visible change', () => {
    const w = world();
    const sent: Array<{ eventId: number; m: StreamMessage }> = [];
    w.onMessage((eventId, m) => sent.push({ eventId, m }));
    const rng = new Prng(1);
    const id = w.bookIds().find((e) => w.eventOdds(e)?.markets.some((m) => m.prices !== null))!;
    for (let i = 0; i < 50; i++) {
      const before = w.eventOdds(id)!;
      const from = sent.length;
      const moved = w.nudgeOdds(id, rng);
      expect(moved).toBeGreaterThan(0);
      // The count is the markets its messages carried: a load of N moves a second counts markets, not messages.
      const carried = sent
        .slice(from)
        .flatMap(({ m }) => (JSON.parse(m.data) as { markets: Array<{ line_id: number; prices: unknown }> }).markets);
      expect(carried).toHaveLength(moved);
      // Each a visible change from that line's price just before it was sent.
      const shown = new Map(before.markets.map((m) => [m.line_id, m.prices as unknown]));
      for (const c of carried) {
        expect(c.prices).not.toEqual(shown.get(c.line_id));
        shown.set(c.line_id, c.prices);
      }
      const last = sent[sent.length - 1]!;
      expect(last.eventId).toBe(id);
      expect(last.m.event).toBe('odds');
      const data: unknown = JSON.parse(last.m.data);
      expect(parseRecord(OddsMessageSchema, data, '').ok).toBe(true);
      const [market] = (data as { markets: Array<{ line_id: number; prices: unknown }> }).markets;
      const old = before.markets.find((m) => m.line_id === market!.line_id)!;
      expect(market!.prices).not.toEqual(old.prices);
    }
    expect(w.nudgeOdds(123, rng)).toBe(0);
  });

  it('leaves the seeded course of the world alone', () => {
    const plain = world();
    const nudged = world();
    const rng = new Prng(2);
    for (let step = 0; step < 24 * 60; step++) {
      for (const id of nudged.bookIds().slice(0, 5)) nudged.nudgeOdds(id, rng);
      plain.advanceTo(START + step * 60_000);
      nudged.advanceTo(START + step * 60_000);
    }
    expect(nudged.bookIds()).toEqual(plain.bookIds());
    const course = (w: World) => w.allSettled().map((s) => [s.event_id, s.score_home, s.score_away, s.settled_at]);
    expect(course(nudged)).toEqual(course(plain));
  });

  it('needs the real clock and a rate of at least 0', async () => {
    await expect(startSimulator({ oddsRate: 100 })).rejects.toThrow(/real clock/);
    await expect(startSimulator({ clock: 'real', oddsRate: -1 })).rejects.toThrow(/>= 0/);
  });
});
