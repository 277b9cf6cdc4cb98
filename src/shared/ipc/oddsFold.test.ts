// The fold that lets the latest price win wherever odds wait: applying its result ends where applying every batch in
// order ends, at the cost of one entry per event.
import { describe, expect, it } from 'vitest';
import type { MarketView } from '../domain';
import type { OddsBatch } from './contract';
import { createOddsFold, type OddsEntry } from './oddsFold';

const m = (lineId: number, home: number): MarketView => ({
  lineId,
  period: 0,
  market: 'moneyline',
  side: null,
  line: null,
  prices: { home, away: 2 },
  maxWin: 100,
  updatedAt: null,
  seenAt: 0,
});
const header = (runnerHome: string) => ({
  eventId: 1,
  sportId: 1,
  sportName: 'Soccer',
  leagueId: 1,
  leagueName: 'L',
  runnerHome,
  runnerAway: 'B',
  starts: 0,
  liveStatus: 1,
  scoreHome: 0,
  scoreAway: 0,
});

/** What a page holds of one event after applying entries in order (lines in order, header, score, end). */
function applyAll(entries: readonly OddsEntry[]) {
  let lines = new Map<number, number>();
  let head: string | null = null;
  let score: number | null = null;
  let ended: string | null = null;
  for (const e of entries) {
    if (e.replace) lines = new Map();
    for (const x of e.markets) lines.set(x.lineId, x.prices!.home!);
    if (e.event) head = e.event.runnerHome;
    if (e.score) score = e.score.scoreHome;
    if (e.ended) ended = e.ended;
  }
  return { lines: [...lines], head, score, ended };
}

describe('odds fold', () => {
  it('ends where applying every batch in order ends: moves, a snapshot, a header, a score and an end', () => {
    const batches: OddsBatch[] = [
      { at: 1, events: [{ eventId: 1, markets: [m(1, 2.0), m(2, 3.0)] }] },
      { at: 2, events: [{ eventId: 1, markets: [m(3, 4.0)], score: { liveStatus: 1, scoreHome: 1, scoreAway: 0 } }] },
      { at: 3, events: [{ eventId: 1, markets: [m(2, 3.1), m(4, 5.0)], replace: true, event: header('A') }] },
      { at: 4, events: [{ eventId: 1, markets: [m(2, 3.2), m(5, 6.0)] }] },
      { at: 5, events: [{ eventId: 1, markets: [], ended: 'settled' }] },
    ];
    const fold = createOddsFold();
    for (const b of batches) fold.add(b);
    expect(fold.size).toBe(1);
    expect(fold.batches).toBe(5);
    expect(fold.oldestAt).toBe(1);
    expect(fold.newestAt).toBe(5);
    const folded = fold.takeAll()!;
    expect(folded.at).toBe(5);
    expect(applyAll(folded.events)).toEqual(applyAll(batches.flatMap((b) => b.events)));
    // The snapshot's lines only, in their order, then the line new after it.
    expect(applyAll(folded.events).lines).toEqual([
      [2, 3.2],
      [4, 5.0],
      [5, 6.0],
    ]);
    expect(fold.size).toBe(0);
    expect(fold.takeAll()).toBeNull();
  });

  it('keeps an event in its place when it moves again, and hands a lone batch on as it came', () => {
    const fold = createOddsFold();
    const lone: OddsBatch = {
      at: 1,
      events: [
        { eventId: 7, markets: [m(1, 2)] },
        { eventId: 8, markets: [m(1, 3)] },
      ],
    };
    fold.add(lone);
    expect(fold.takeAll()).toBe(lone);
    fold.add(lone);
    fold.add({
      at: 2,
      events: [
        { eventId: 9, markets: [m(1, 4)] },
        { eventId: 7, markets: [m(1, 2.5)] },
      ],
    });
    expect(fold.shift()!.eventId).toBe(7);
    expect(fold.shift()!.eventId).toBe(8);
    expect(fold.shift()!.markets[0]!.prices!.home).toBe(4);
    expect(fold.shift()).toBeUndefined();
  });
});
