// Odds folded into the renderer store within a per-frame budget: a backlog far larger than one frame can paint is
// spread over frames, oldest first, and ends exactly where applying it all at once would have ended.
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
  lineId, period: 0, market: 'spread', side: null, line: -1.5, prices: { home, away: 1.9 }, maxWin: 500, updatedAt: null, seenAt,
});
const watched = (eventId: number): WatchedEventView => ({
  eventId, sportId: 1, sportName: 'Soccer', leagueId: 1, leagueName: 'L', runnerHome: `H${eventId}`, runnerAway: `A${eventId}`,
  starts: 0, liveStatus: 1, scoreHome: 0, scoreAway: 0, addedAt: 0, settled: false,
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

const frame = () => new Promise((r) => setTimeout(r, 20));
const homes = () => {
  const m = useStore.getState().markets;
  return Object.keys(m).sort().map((k) => m[k]!.prices?.home);
};

describe('odds applied within a frame budget', () => {
  it('spreads a backlog over frames in arrival order and ends where applying it at once ends', async () => {
    const s = () => useStore.getState();
    s().setWatchlist(Array.from({ length: EVENTS }, (_, i) => watched(i + 1)));
    const real = { ...oddsFrame };
    try {
      // The reference: no budget, everything in one go.
      oddsFrame.budgetMs = Infinity;
      s().applyOdds(backlog(30));
      const whole = homes();
      const wholeScore = s().watchEvents[1]!.scoreHome;

      // Again from the start, on a clock that moves 1 ms per read: each frame folds about budget x 16 events.
      s().setWatchlist(Array.from({ length: EVENTS }, (_, i) => watched(i + 1)));
      let t = 0;
      oddsFrame.now = () => t++;
      oddsFrame.budgetMs = 6;
      s().applyOdds(backlog(30));
      // One frame did a bounded share: the first events of the first batch moved, nothing of the last batch.
      const first = s().markets;
      expect(first['1:0']!.seenAt).toBe(1);
      expect(first[`${EVENTS}:0`]!.seenAt).toBe(0);
      expect(s().watchEvents[1]!.scoreHome).toBe(0);

      let frames = 1;
      while (s().markets[`${EVENTS}:${LINES - 1}`]!.seenAt < 30 && frames < 1_000) {
        await frame();
        frames++;
      }
      expect(frames).toBeGreaterThan(30); // 6,000 event updates at ~110 a frame
      await frame(); // nothing left over after the end
      expect(homes()).toEqual(whole);
      expect(s().watchEvents[1]!.scoreHome).toBe(wholeScore);
    } finally {
      Object.assign(oddsFrame, real);
    }
  });

  it('keeps newer pushes behind the carried backlog', async () => {
    const s = () => useStore.getState();
    s().setWatchlist(Array.from({ length: EVENTS }, (_, i) => watched(i + 1)));
    const real = { ...oddsFrame };
    try {
      let t = 0;
      oddsFrame.now = () => t++;
      s().applyOdds(backlog(5));
      // A newer price for event 200 arrives while the backlog still holds older ones for it.
      s().applyOdds([{ at: 99, events: [{ eventId: EVENTS, markets: [market(EVENTS, 0, 9.99, 99)] }] }]);
      for (let i = 0; i < 200 && s().markets[`${EVENTS}:0`]!.seenAt !== 99; i++) await frame();
      expect(s().markets[`${EVENTS}:0`]!.prices?.home).toBe(9.99);
      await frame();
      await frame();
      expect(s().markets[`${EVENTS}:0`]!.prices?.home).toBe(9.99); // no older price lands after it
    } finally {
      Object.assign(oddsFrame, real);
    }
  });
});
