import { describe, expect, it } from 'vitest';
import { formatServiceTime, type EventOdds, type Market } from '../../shared/api';
import { openStore } from '../store';
import { createManualClock } from '../../../test/support/manualClock';
import { createClosingLines } from './closingLines';

const T0 = Date.UTC(2026, 10, 22, 12);
const market = (lineId: number, prices: Market['prices']): Market => ({
  line_id: lineId, period: 0, market: lineId % 10 === 2 ? 'totals' : 'moneyline', side: null, line: lineId % 10 === 2 ? 2.5 : null,
  prices, max_win: 500, updated_at: formatServiceTime(T0),
});
const snapshot = (eventId: number, liveStatus: number, markets: Market[]): EventOdds => ({
  event_id: eventId, sport_id: 1, league_id: 1, league_name: 'L', runner_home: 'H', runner_away: 'A', starts: formatServiceTime(T0 + 3_600_000),
  live_status: liveStatus, score_home: null, score_away: null, markets,
});

function setup(watched = new Set([1])) {
  const clock = createManualClock(T0);
  const store = openStore({ path: ':memory:', clock: () => clock.now() });
  const errors: string[] = [];
  const lines = createClosingLines({ store, clock, isWatched: (id) => watched.has(id), reportError: (e) => errors.push(e.message) });
  return { clock, store, lines, errors };
}

describe('closing lines', () => {
  it('the start closes every open line at its last pre-match price; nothing in play moves it, nor a reconnect snapshot', async () => {
    const { clock, store, lines, errors } = setup();
    lines.onSnapshot(1, snapshot(1, 2, [market(10, { home: 2, away: 1.9 }), market(12, { over: 1.8, under: 2 })]));
    await clock.advance(60_000);
    lines.onMarkets(1, [market(10, { home: 1.9, away: 2 })]);
    await clock.advance(60_000);
    lines.onScore(1, { live_status: 1 });
    lines.onMarkets(1, [market(10, { home: 1.5, away: 2.6 })]); // in play: not a closing price
    lines.onSnapshot(1, snapshot(1, 1, [market(10, { home: 1.4, away: 2.9 })])); // a reconnect while live
    await clock.advance(1_000);
    const closes = store.lineCloses(1);
    expect(closes.map((c) => [c.lineId, c.opening, c.closing, c.closeReason, c.closedAt])).toEqual([
      [10, { home: 2, away: 1.9 }, { home: 1.9, away: 2 }, 'started', T0 + 120_000],
      [12, { over: 1.8, under: 2 }, { over: 1.8, under: 2 }, 'started', T0 + 120_000],
    ]);
    expect(errors).toEqual([]);
  });

  it('a line that goes offline closes alone, and stays closed when it comes back; an unwatched or already-live event records nothing', async () => {
    const { clock, store, lines } = setup(new Set([1, 3]));
    lines.onSnapshot(1, snapshot(1, 0, [market(10, { home: 2, away: 1.9 }), market(12, { over: 1.8, under: 2 })]));
    lines.onMarkets(1, [market(10, { home: 2.1, away: 1.8 })]);
    lines.onMarkets(1, [market(10, null)]);
    lines.onMarkets(1, [market(10, { home: 2.5, away: 1.5 })]); // back within the same flush: the close stands
    lines.onSnapshot(2, snapshot(2, 0, [market(20, { home: 2, away: 1.9 })])); // not watched
    lines.onSnapshot(3, snapshot(3, 1, [market(30, { home: 2, away: 1.9 })])); // first seen in play: no open known
    await clock.advance(1_000);
    expect(store.lineCloses(1).map((c) => [c.lineId, c.closing, c.closeReason])).toEqual([[10, { home: 2.1, away: 1.8 }, 'offline'], [12, null, null]]);
    expect(store.lineCloses(2)).toEqual([]);
    expect(store.lineCloses(3)).toEqual([]);
  });
});
