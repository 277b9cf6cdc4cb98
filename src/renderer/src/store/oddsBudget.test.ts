// Odds folded into the renderer store: a backlog is folded to the latest value per market and shown within a
// per-frame budget, so a page that fell behind catches up in as many frames as one batch takes, and ends exactly
// where applying every batch in order would have ended. The store also says when the screen is behind.
import { beforeAll, describe, expect, it } from 'vitest';
import type { MarketView, WatchedEventView } from '../../../shared/domain';
import type { OddsBatch, OddsdeskApi } from '../../../shared/ipc/contract';
import type { useStore as UseStore } from './index';
import type { oddsFrame as OddsFrame } from './watchlist';

let useStore: typeof UseStore;
let oddsFrame: typeof OddsFrame;

const EVENTS = 200;
const LINES = 6;
const market = (eventId: number, lineId: number, home: number, seenAt: number): MarketView => ({
  lineId,
  period: 0,
  market: 'spread',
  side: null,
  line: -1.5,
  prices: { home, away: 1.9 },
  maxWin: 500,
  updatedAt: null,
  seenAt,
});
const watched = (eventId: number): WatchedEventView => ({
  eventId,
  sportId: 1,
  sportName: 'Soccer',
  leagueId: 1,
  leagueName: 'L',
  runnerHome: `H${eventId}`,
  runnerAway: `A${eventId}`,
  starts: 0,
  liveStatus: 1,
  scoreHome: 0,
  scoreAway: 0,
  addedAt: 0,
  settled: false,
  markets: Array.from({ length: LINES }, (_, k) => market(eventId, k, 2, 0)),
});

/** A backlog: `n` batches, each moving every line of every event; the last batch's prices are the final ones. */
function backlog(n: number): OddsBatch[] {
  return Array.from({ length: n }, (_, b) => ({
    at: b + 1,
    events: Array.from({ length: EVENTS }, (_, e) => ({
      eventId: e + 1,
      markets: Array.from({ length: LINES }, (_, k) => market(e + 1, k, 2 + (b + 1) / 1000 + k / 1e6, b + 1)),
      ...(b === n - 1 && e === 0 ? { score: { liveStatus: 1, scoreHome: 3, scoreAway: 1 } } : {}),
    })),
  }));
}

const api: OddsdeskApi = { invoke: async () => ({ ok: true, value: null }) as never, on: () => () => undefined };

beforeAll(async () => {
  (globalThis as unknown as { window: { oddsdesk: OddsdeskApi } }).window = { oddsdesk: api };
  ({ useStore } = await import('./index'));
  ({ oddsFrame } = await import('./watchlist'));
});

describe('odds folded to the latest value, applied within a frame budget', () => {
  it('a page a thousand batches behind shows the latest prices after one frame: the backlog folded, not replayed', () => {
    const s = () => useStore.getState();
    s().setWatchlist(Array.from({ length: EVENTS }, (_, i) => watched(i + 1)));
    const real = { ...oddsFrame };
    try {
      // The reference: the last batch alone is what the screen must show (every batch moves every line).
      const batches = backlog(1_000);
      const last = batches[batches.length - 1]!;
      // A frozen clock: the frame's budget never runs out, so one frame applies whatever the fold holds.
      oddsFrame.now = () => 0;
      for (const b of batches) s().queueOdds(b);
      s().applyOdds([]); // one frame
      const m = s().markets;
      for (const e of last.events) {
        for (const want of e.markets) expect(m[`${e.eventId}:${want.lineId}`]!.prices?.home).toBe(want.prices?.home);
      }
      expect(s().watchEvents[1]!.scoreHome).toBe(3);
      // Nothing of the backlog is left to replay: a second frame changes nothing.
      const before = s().markets;
      s().applyOdds([]);
      expect(s().markets).toBe(before);
    } finally {
      Object.assign(oddsFrame, real);
    }
  });

  it('catching up takes as many frames for a thousand batches behind as for one', () => {
    const s = () => useStore.getState();
    const real = { ...oddsFrame };
    /** Frames until the last line of the last event shows the backlog's final price, on a clock of 1 ms per read. */
    const framesToCatchUp = (depth: number): number => {
      s().setWatchlist(Array.from({ length: EVENTS }, (_, i) => watched(i + 1)));
      let t = 0;
      oddsFrame.now = () => t++;
      oddsFrame.budgetMs = 6;
      const batches = backlog(depth);
      for (const b of batches) s().queueOdds(b);
      // The page's pacer (wiring.ts) asks for another frame while applyOdds says some still waits.
      let frames = 1;
      while (s().applyOdds([]) && frames < 10_000) frames++;
      expect(s().markets[`${EVENTS}:${LINES - 1}`]!.seenAt).toBe(depth);
      return frames;
    };
    try {
      const one = framesToCatchUp(1);
      const thousand = framesToCatchUp(1_000);
      // The budget still spreads a large change over frames (about 110 events a frame here) ...
      expect(one).toBeGreaterThan(1);
      // ... but what the page missed costs nothing more: the frames depend on what changed, not on how far behind.
      expect(thousand).toBe(one);
      expect(s().applyOdds([])).toBe(false); // nothing left over after the end
      expect(s().markets[`${EVENTS}:0`]!.seenAt).toBe(1_000);
    } finally {
      Object.assign(oddsFrame, real);
    }
  });

  it('a newer push for an event still waiting replaces its older prices there: no older price lands after it', () => {
    const s = () => useStore.getState();
    s().setWatchlist(Array.from({ length: EVENTS }, (_, i) => watched(i + 1)));
    const real = { ...oddsFrame };
    try {
      let t = 0;
      oddsFrame.now = () => t++;
      s().applyOdds(backlog(5));
      // A newer price for event 200 arrives while the backlog still holds older ones for it.
      s().queueOdds({ at: 99, events: [{ eventId: EVENTS, markets: [market(EVENTS, 0, 9.99, 99)] }] });
      for (let i = 0; i < 200 && s().applyOdds([]); i++);
      expect(s().markets[`${EVENTS}:0`]!.prices?.home).toBe(9.99);
      // The event's other lines still got the backlog's last prices.
      expect(s().markets[`${EVENTS}:1`]!.seenAt).toBe(5);
      expect(s().applyOdds([])).toBe(false);
      expect(s().markets[`${EVENTS}:0`]!.prices?.home).toBe(9.99);
    } finally {
      Object.assign(oddsFrame, real);
    }
  });
});

describe('an honest age', () => {
  it('the store says the screen is behind, with the figure, while what it shows is over a second old, and stops once caught up', () => {
    const s = () => useStore.getState();
    s().setWatchlist(Array.from({ length: 2 }, (_, i) => watched(i + 1)));
    const real = { ...oddsFrame };
    try {
      oddsFrame.now = () => 0;
      expect(s().screenBehindMs).toBeNull();
      // A price the host sent 2.5 s ago reaches the screen only now.
      s().applyOdds([{ at: Date.now() - 2_500, events: [{ eventId: 1, markets: [market(1, 0, 2.5, 1)] }] }]);
      const behind = s().screenBehindMs;
      expect(behind).not.toBeNull();
      expect(behind!).toBeGreaterThanOrEqual(2_500);
      expect(behind!).toBeLessThan(10_000);
      // A fresh one: caught up.
      s().applyOdds([{ at: Date.now(), events: [{ eventId: 1, markets: [market(1, 0, 2.6, 2)] }] }]);
      expect(s().screenBehindMs).toBeNull();
      // Under a second is no lag worth a word.
      s().applyOdds([{ at: Date.now() - 400, events: [{ eventId: 2, markets: [market(2, 0, 2.7, 3)] }] }]);
      expect(s().screenBehindMs).toBeNull();
    } finally {
      Object.assign(oddsFrame, real);
    }
  });
});
