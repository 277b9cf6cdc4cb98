import { describe, expect, it } from 'vitest';
import { formatServiceTime, type EventOdds, type Market } from '../../shared/api';
import { openStore, type Store } from '../store';
import { createManualClock } from '../../../test/support/manualClock';
import { createClosingLines } from './closingLines';

const T0 = Date.UTC(2026, 10, 22, 12);
const market = (lineId: number, prices: Market['prices']): Market => ({
  line_id: lineId,
  period: 0,
  market: lineId % 10 === 2 ? 'totals' : 'moneyline',
  side: null,
  line: lineId % 10 === 2 ? 2.5 : null,
  prices,
  max_win: 500,
  updated_at: formatServiceTime(T0),
});
const snapshot = (eventId: number, liveStatus: number, markets: Market[]): EventOdds => ({
  event_id: eventId,
  sport_id: 1,
  league_id: 1,
  league_name: 'L',
  runner_home: 'H',
  runner_away: 'A',
  starts: formatServiceTime(T0 + 3_600_000),
  live_status: liveStatus,
  score_home: null,
  score_away: null,
  markets,
});

/**
 * `skewMs`: the service's clock is this far ahead of ours (negative: behind), as the API client measures it; null: not
 * measured yet. Omitted: no service clock given (the monitor always gives one).
 */
function setup(watched = new Set([1]), skewMs?: number | null) {
  const clock = createManualClock(T0);
  const store = openStore({ path: ':memory:', clock: () => clock.now() });
  const errors: string[] = [];
  const skew = { ms: skewMs };
  const serviceNow = skewMs === undefined ? {} : { serviceNow: () => (skew.ms == null ? null : clock.now() + skew.ms) };
  const lines = createClosingLines({
    store,
    clock,
    isWatched: (id) => watched.has(id),
    ...serviceNow,
    reportError: (e) => errors.push(e.message),
  });
  /** The skew as measured now (the status probe answering after the stream's snapshot). */
  const measured = (ms: number) => (skew.ms = ms);
  return { clock, store, lines, errors, measured };
}

describe('closing lines (docs/trading.md: the close is the last price offered before kick-off)', () => {
  const KICKOFF = T0 + 3_600_000;
  const row = (c: ReturnType<Store['bets']['lineCloses']>[number]) => [
    c.lineId,
    c.closing,
    c.closeReason,
    c.closedAt,
    c.stale,
  ];

  it('the stream saying live closes every open line at its last pre-match price; nothing in play moves it, nor a reconnect snapshot', async () => {
    const { clock, store, lines, errors } = setup();
    lines.onSnapshot(1, snapshot(1, 2, [market(10, { home: 2, away: 1.9 }), market(12, { over: 1.8, under: 2 })]));
    await clock.advance(60_000);
    lines.onMarkets(1, [market(10, { home: 1.9, away: 2 })]);
    await clock.advance(60_000);
    lines.onScore(1, { live_status: 1 });
    lines.onMarkets(1, [market(10, { home: 1.5, away: 2.6 })]); // in play: not a closing price
    lines.onSnapshot(1, snapshot(1, 1, [market(10, { home: 1.4, away: 2.9 })])); // a reconnect while live
    await clock.advance(1_000);
    expect(store.bets.lineCloses(1).map((c) => [c.lineId, c.opening, ...row(c).slice(1)])).toEqual([
      [10, { home: 2, away: 1.9 }, { home: 1.9, away: 2 }, 'started', T0 + 120_000, false],
      [12, { over: 1.8, under: 2 }, { over: 1.8, under: 2 }, 'started', T0 + 120_000, false],
    ]);
    expect(errors).toEqual([]);
  });

  it('a reconnect snapshot that finds the match live closes the lines just before its own prices, which are in play', async () => {
    const { clock, store, lines } = setup();
    lines.onSnapshot(1, snapshot(1, 2, [market(10, { home: 2, away: 1.9 })]));
    await clock.advance(60_000);
    lines.onMarkets(1, [market(10, { home: 1.9, away: 2 })]);
    await clock.advance(60_000);
    // The snapshot's prices are recorded at this instant: "the last price recorded up to the close" must not be them.
    const inPlayAt = clock.now();
    lines.onSnapshot(1, snapshot(1, 1, [market(10, { home: 1.4, away: 2.9 })]));
    await clock.advance(1_000);
    expect(store.bets.lineCloses(1).map(row)).toEqual([[10, { home: 1.9, away: 2 }, 'started', inPlayAt - 1, false]]);
  });

  it('must-show: suspended 40 minutes before kick-off and re-offered, the line closes at its last price before kick-off', async () => {
    const { clock, store, lines } = setup();
    const first = snapshot(1, 0, [market(10, { home: 1.7, away: 2.4 })]);
    store.odds.recordSnapshot(first, clock.now());
    lines.onSnapshot(1, first);
    // The trader takes away at 2.40 for 100.
    store.bets.addBet({ eventId: 1, lineId: 10, side: 'away', price: 2.4, stake: 100 }, clock.now());
    await clock.advance(KICKOFF - 40 * 60_000 - T0);
    lines.onMarkets(1, [market(10, null)]); // suspended 40 minutes before kick-off: not a close
    await clock.advance(10 * 60_000);
    lines.onMarkets(1, [market(10, { home: 1.85, away: 2.1 })]); // re-offered
    await clock.advance(20 * 60_000);
    expect(store.bets.lineCloses(1).map(row)).toEqual([[10, null, null, null, false]]);
    lines.onMarkets(1, [market(10, { home: 1.88, away: 2.05 })]);
    await clock.advance(10 * 60_000 - 5_000);
    lines.onScore(1, { live_status: 1 }); // live: the close is 2.05 for away
    await clock.advance(1_000);
    expect(store.bets.lineCloses(1).map(row)).toEqual([
      [10, { home: 1.88, away: 2.05 }, 'started', KICKOFF - 5_000, false],
    ]);
    // CLV against the close 2.05 (EM fair away 2.05 x (1/1.88 + 1/2.05) = 2.1404): 2.40 / 2.1404 - 1 = +12.1%.
    const [bet] = store.bets.listBets();
    expect(bet).toMatchObject({ closingPrice: 2.05, closeStale: false, closeNote: null, sideWords: 'Away' });
    expect(bet!.clvByModel!.EM).toBeCloseTo((2.4 / (2.05 * (1 / 1.88 + 1 / 2.05)) - 1) * 100, 9);
    for (const clv of Object.values(bet!.clvByModel!)) expect(clv!).toBeGreaterThan(10);
  });

  it('the scheduled start passing closes the lines even when the stream never says live; later prices are not pre-match', async () => {
    const { clock, store, lines } = setup();
    lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 })]));
    await clock.advance(KICKOFF - T0 - 60_000);
    lines.onMarkets(1, [market(10, { home: 2.1, away: 1.8 })]);
    await clock.advance(61_000);
    lines.onMarkets(1, [market(10, { home: 2.6, away: 1.5 })]); // after the start
    await clock.advance(1_000);
    expect(store.bets.lineCloses(1).map(row)).toEqual([[10, { home: 2.1, away: 1.8 }, 'kickoff', KICKOFF, false]]);
  });

  it('a close the app did not follow to kick-off is kept but stale; a line missing from a fresh snapshot is gone', async () => {
    const { clock, store, lines } = setup();
    lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 }), market(12, { over: 1.8, under: 2 })]));
    await clock.advance(10 * 60_000);
    // A reconnect snapshot before kick-off without line 12: it left the book, closed at its last price and flagged.
    lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2.05, away: 1.85 })]));
    await clock.advance(1_000);
    expect(store.bets.lineCloses(1).map(row)).toEqual([
      [10, null, null, null, false],
      [12, { over: 1.8, under: 2 }, 'gone', T0 + 10 * 60_000, true],
    ]);
    // The app is away from minute 11 until after kick-off: the next snapshot finds the match live.
    lines.forget(1);
    await clock.advance(KICKOFF - T0 - 11 * 60_000 + 5 * 60_000);
    lines.onSnapshot(1, snapshot(1, 1, [market(10, { home: 1.5, away: 2.7 })]));
    await clock.advance(1_000);
    const [close] = store.bets.lineCloses(1);
    expect(row(close!)).toEqual([10, { home: 2.05, away: 1.85 }, 'started', KICKOFF, true]);
  });

  it('a price lacking a side the line had (a draw missing for a moment) does not move the close', async () => {
    const { clock, store, lines } = setup();
    const ml = (prices: Market['prices']) => ({ ...market(10, prices), market: 'moneyline' });
    lines.onSnapshot(1, snapshot(1, 0, [ml({ home: 2.5, draw: 3.3, away: 3.0 })]));
    await clock.advance(60_000);
    lines.onMarkets(1, [ml({ home: 2.4, away: 3.1 })]);
    lines.onScore(1, { live_status: 1 });
    await clock.advance(1_000);
    expect(store.bets.lineCloses(1).map((c) => c.closing)).toEqual([{ home: 2.5, draw: 3.3, away: 3.0 }]);
  });

  it('an unwatched event records nothing, nor one first seen in play (no open known)', async () => {
    const { clock, store, lines } = setup(new Set([1, 3]));
    lines.onSnapshot(2, snapshot(2, 0, [market(20, { home: 2, away: 1.9 })])); // not watched
    lines.onSnapshot(3, snapshot(3, 1, [market(30, { home: 2, away: 1.9 })])); // first seen in play
    await clock.advance(1_000);
    expect(store.bets.lineCloses(2)).toEqual([]);
    expect(store.bets.lineCloses(3)).toEqual([]);
  });
  it('a kick-off that moves (the match put back an hour): the close is taken at the real kick-off, not the first scheduled one (issue 35)', async () => {
    const { clock, store, lines } = setup();
    lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 })]));
    // The scheduled start passes: the lines close there, for now.
    await clock.advance(KICKOFF - T0 + 1_000);
    expect(store.bets.lineCloses(1).map(row)).toEqual([[10, { home: 2, away: 1.9 }, 'kickoff', KICKOFF, false]]);
    // A fresh snapshot: the match, not live, starts an hour later. The lines are open again, at the snapshot's prices.
    await clock.advance(5 * 60_000);
    lines.onSnapshot(1, {
      ...snapshot(1, 0, [market(10, { home: 1.8, away: 2.1 })]),
      starts: formatServiceTime(KICKOFF + 3_600_000),
    });
    await clock.advance(1_000);
    expect(store.bets.lineCloses(1).map(row)).toEqual([[10, null, null, null, false]]);
    await clock.advance(30 * 60_000);
    lines.onMarkets(1, [{ ...market(10, { home: 1.7, away: 2.25 }), updated_at: formatServiceTime(clock.now()) }]);
    // The real kick-off: the stream says live. The close is the last price before it.
    await clock.advance(20 * 60_000);
    lines.onScore(1, { live_status: 1 });
    await clock.advance(1_000);
    const [c] = store.bets.lineCloses(1);
    expect([c!.closing, c!.closeReason, c!.closedAt]).toEqual([
      { home: 1.7, away: 2.25 },
      'started',
      clock.now() - 1_000,
    ]);
    // A snapshot that moves nothing (the same start) after a real kick-off changes nothing.
    lines.onSnapshot(1, {
      ...snapshot(1, 1, [market(10, { home: 1.2, away: 4 })]),
      starts: formatServiceTime(KICKOFF + 3_600_000),
    });
    await clock.advance(1_000);
    expect(store.bets.lineCloses(1)[0]!.closing).toEqual({ home: 1.7, away: 2.25 });
  });

  describe("the service's clock minutes ahead of ours or behind (issue 37): kick-off is the service's start, on its clock", () => {
    const MIN = 60_000;
    // A price the service stamps now on its own clock.
    const stamped = (lineId: number, prices: Market['prices'], serviceMs: number): Market => ({
      ...market(lineId, prices),
      updated_at: formatServiceTime(serviceMs),
    });

    it('3 minutes ahead: the start passes at 11:57 on our clock; the close is the price before it, stamped 11:57 ours', async () => {
      const SKEW = 3 * MIN;
      const { clock, store, lines } = setup(new Set([1]), SKEW);
      lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 })]));
      // 5 minutes before kick-off on the service's clock (8 on ours): the last pre-match price.
      await clock.advance(KICKOFF - SKEW - 5 * MIN - T0);
      lines.onMarkets(1, [stamped(10, { home: 2.1, away: 1.8 }, clock.now() + SKEW)]);
      // One second past the service's kick-off, 2 min 59 s before ours: closed, with no word from the stream.
      await clock.advance(5 * MIN + 1_000);
      expect(store.bets.lineCloses(1).map(row)).toEqual([
        [10, { home: 2.1, away: 1.8 }, 'kickoff', KICKOFF - SKEW, false],
      ]);
      // In play (a minute after kick-off on the service's clock, still before it on ours): not a closing price.
      await clock.advance(MIN);
      lines.onMarkets(1, [{ ...market(10, { home: 2.9, away: 1.4 }), updated_at: null as unknown as string }]);
      await clock.advance(1_000);
      expect(store.bets.lineCloses(1)[0]!.closing).toEqual({ home: 2.1, away: 1.8 });
    });

    it('3 minutes behind: at 12:01 on our clock the match has 2 minutes to go; a price then is the close', async () => {
      const SKEW = -3 * MIN;
      const { clock, store, lines } = setup(new Set([1]), SKEW);
      lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 })]));
      await clock.advance(KICKOFF + MIN - T0);
      expect(store.bets.lineCloses(1).map(row)).toEqual([[10, null, null, null, false]]);
      // Our 12:01 is the service's 11:58: still pre-match (a price it stamps with its own clock, and one unstamped).
      lines.onMarkets(1, [stamped(10, { home: 2.2, away: 1.75 }, clock.now() + SKEW)]);
      await clock.advance(MIN);
      lines.onMarkets(1, [{ ...market(10, { home: 2.25, away: 1.72 }), updated_at: null as unknown as string }]);
      // The service's start passes at 12:03 ours: closed there, at the last price.
      await clock.advance(MIN + 1_000);
      expect(store.bets.lineCloses(1).map(row)).toEqual([
        [10, { home: 2.25, away: 1.72 }, 'kickoff', KICKOFF - SKEW, false],
      ]);
    });

    it('the start read on our clock through a skew measured since falls before a pre-match price taken: the close is stamped no earlier than it', async () => {
      // Measured 1 min ahead when the snapshot came; a later answer measures 2 min: the start now reads 11:58 ours,
      // but at 11:58:30 ours a price the service stamped 11:59:50 (pre-match) was taken, then one stamped in play.
      const { clock, store, lines, measured } = setup(new Set([1]), MIN);
      lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 })]));
      await clock.advance(KICKOFF - 2 * MIN - 30_000 - T0);
      measured(2 * MIN);
      await clock.advance(60_000);
      const takenAt = clock.now();
      lines.onMarkets(1, [stamped(10, { home: 2.11, away: 1.77 }, KICKOFF - 10_000)]);
      await clock.advance(5_000);
      lines.onMarkets(1, [stamped(10, { home: 2.4, away: 1.6 }, KICKOFF + 5_000)]);
      await clock.advance(1_000);
      const [close] = store.bets.lineCloses(1);
      expect(close!.closing).toEqual({ home: 2.11, away: 1.77 });
      // The last price recorded up to the close is the close (the start on our clock alone would say 11:58:00).
      expect(close!.closedAt).toBe(takenAt);
    });

    it('a price stamped in play reveals the start before the start read through the skew: the close is stamped before that price', async () => {
      // Measured 3 min behind, but the service stamps its prices on its own clock: at 11:59:40 ours a price stamped
      // 12:00:02 (in play) is the first word of kick-off, while the start read on our clock says 12:03.
      const { clock, store, lines } = setup(new Set([1]), -3 * MIN);
      lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 })]));
      await clock.advance(KICKOFF - 30_000 - T0);
      const takenAt = clock.now();
      lines.onMarkets(1, [stamped(10, { home: 2.06, away: 1.81 }, KICKOFF - 40_000)]);
      await clock.advance(10_000);
      const inPlayAt = clock.now();
      lines.onMarkets(1, [stamped(10, { home: 2.11, away: 1.77 }, KICKOFF + 2_000)]);
      await clock.advance(1_000);
      const [close] = store.bets.lineCloses(1);
      expect(close!.closing).toEqual({ home: 2.06, away: 1.81 });
      // The in-play price is recorded at inPlayAt: "the last price recorded up to the close" must not be it.
      expect(close!.closedAt).toBeLessThan(inPlayAt);
      expect(close!.closedAt).toBeGreaterThanOrEqual(takenAt);
    });

    it('3 minutes behind, the stream saying live 10 s early: the close is stamped when we heard it, on our clock', async () => {
      const SKEW = -3 * MIN;
      const { clock, store, lines } = setup(new Set([1]), SKEW);
      lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 })]));
      await clock.advance(KICKOFF - SKEW - 30_000 - T0);
      lines.onMarkets(1, [stamped(10, { home: 1.95, away: 1.95 }, clock.now() + SKEW)]);
      await clock.advance(20_000);
      lines.onScore(1, { live_status: 1 });
      await clock.advance(1_000);
      expect(store.bets.lineCloses(1).map(row)).toEqual([
        [10, { home: 1.95, away: 1.95 }, 'started', KICKOFF - SKEW - 10_000, false],
      ]);
    });

    it("a first snapshot after the start on the service's clock (ahead: 11:58 ours is 12:01 its) records no open and no close", async () => {
      const SKEW = 3 * MIN;
      const { clock, store, lines } = setup(new Set([1]), SKEW);
      // Our 11:58 is the service's 12:01: the match has started, though the stream has not said so yet.
      await clock.advance(KICKOFF - 2 * MIN - T0);
      lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 })]));
      await clock.advance(1_000);
      // Not followed before kick-off: no open recorded, so nothing to close (a first snapshot in play is not a close).
      expect(store.bets.lineCloses(1)).toEqual([]);
    });

    it("the skew measured after the snapshot (3 minutes ahead): the next prices set the start on the service's clock", async () => {
      const SKEW = 3 * MIN;
      const { clock, store, lines, measured } = setup(new Set([1]), null);
      lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 })]));
      await clock.advance(MIN);
      measured(SKEW);
      await clock.advance(MIN);
      lines.onMarkets(1, [stamped(10, { home: 2.05, away: 1.85 }, clock.now() + SKEW)]);
      // The service's kick-off, 3 minutes before ours: closed there, at the last price, with no word from the stream.
      await clock.advance(KICKOFF - SKEW - clock.now() + 1_000);
      expect(store.bets.lineCloses(1).map(row)).toEqual([
        [10, { home: 2.05, away: 1.85 }, 'kickoff', KICKOFF - SKEW, false],
      ]);
    });

    it('the skew not measured yet: only the stream tells kick-off (a price stamped after the start, or live), never our clock', async () => {
      const { clock, store, lines } = setup(new Set([1]), null);
      lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 })]));
      // Our clock passes the start: nothing closes, for the service's clock may be behind ours.
      await clock.advance(KICKOFF + MIN - T0);
      expect(store.bets.lineCloses(1).map(row)).toEqual([[10, null, null, null, false]]);
      lines.onMarkets(1, [stamped(10, { home: 2.3, away: 1.7 }, KICKOFF - 10_000)]); // stamped before the start
      await clock.advance(MIN);
      lines.onMarkets(1, [stamped(10, { home: 2.6, away: 1.5 }, KICKOFF + 10_000)]); // stamped after: kick-off
      await clock.advance(1_000);
      expect(store.bets.lineCloses(1).map((c) => c.closing)).toEqual([{ home: 2.3, away: 1.7 }]);
    });
  });
});
