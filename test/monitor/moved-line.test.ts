// Issue 35, class 4: a handicap moved under the same line id is another line. Drop alerts (the price watch and its
// drop episodes) and Top movers key a line's reference by (line id, line value): spread -0.5 at 1.95 / 1.95, then the
// same id at -0.25 at 1.72 / 2.20 is no drop ("Home -0.25 fair 2.000 -> 1.782 (-10.9% since the open)" was the
// old false alert: the 2.000 belonged to -0.5), while a real drop on another line of the same match alerts.
import { afterEach, describe, expect, it } from 'vitest';
import type { Market, Prices } from '../../src/shared/api';
import { DEFAULT_MONITOR_SETTINGS } from '../../src/core/settingsService';
import { openStore, type Store } from '../../src/core/store';
import type { CoalescedEvent, SnapshotHeader } from '../../src/core/monitor/coalescer';
import { createPriceWatch } from '../../src/core/monitor/priceWatch';
import { topMovers } from '../../src/core/handlers/bets';
import { formatServiceTime } from '../../src/shared/api';

let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

const T0 = Date.UTC(2026, 10, 22, 12);
const spread = (line: number, prices: Prices): Market => ({
  line_id: 11,
  period: 0,
  market: 'spread',
  side: null,
  line,
  prices,
  max_win: 1000,
  updated_at: formatServiceTime(T0),
});
const total = (prices: Prices): Market => ({
  line_id: 12,
  period: 0,
  market: 'totals',
  side: null,
  line: 2.5,
  prices,
  max_win: 1000,
  updated_at: formatServiceTime(T0),
});
const header: SnapshotHeader = {
  event_id: 1,
  sport_id: 29,
  league_id: 1,
  league_name: 'L',
  runner_home: 'A',
  runner_away: 'B',
  starts: formatServiceTime(T0 + 3_600_000),
  live_status: 0,
  score_home: null,
  score_away: null,
};

function watch() {
  store = openStore({ path: ':memory:' });
  const settings = {
    ...DEFAULT_MONITOR_SETTINGS,
    model: 'EM' as const,
    price: { ...DEFAULT_MONITOR_SETTINGS.price, dropPct: 5 },
  };
  const w = createPriceWatch({ store, settings: () => settings, isWatched: () => true, onAlert: () => undefined });
  const messages: string[] = [];
  const observe = (batch: CoalescedEvent[], at: number) => {
    w.observe(batch, at);
    const { opened, updated } = w.takeEpisodes(at);
    for (const o of opened) {
      messages.push(o.alert.message);
      o.bind({ id: messages.length, ...o.alert, at: o.alert.at ?? at, read: false } as never);
    }
    for (const u of updated) messages.push(u.message);
  };
  return { observe, messages };
}

describe('a handicap moved under its line id (issue 35, class 4)', () => {
  it('raises no drop alert; a real drop on another line of the same match does', () => {
    const w = watch();
    w.observe(
      [
        {
          eventId: 1,
          markets: [spread(-0.5, { home: 1.95, away: 1.95 }), total({ over: 2.0, under: 1.9 })],
          replace: true,
          snapshot: header,
        },
      ],
      T0,
    );
    w.observe([{ eventId: 1, markets: [spread(-0.25, { home: 1.72, away: 2.2 })], replace: false }], T0 + 60_000);
    w.observe([{ eventId: 1, markets: [], replace: false }], T0 + 120_000);
    expect(w.messages).toEqual([]);
    // Over 2.5 shortens 2.00 -> 1.70: a drop, on the same match.
    w.observe([{ eventId: 1, markets: [total({ over: 1.7, under: 2.25 })], replace: false }], T0 + 180_000);
    w.observe([{ eventId: 1, markets: [], replace: false }], T0 + 200_000);
    expect(w.messages).toHaveLength(1);
    expect(w.messages[0]).toMatch(/^Over 2\.5 fair /);
    // The moved line's own move from its own open still alerts: -0.25's home 1.72 -> 1.50.
    w.observe([{ eventId: 1, markets: [spread(-0.25, { home: 1.5, away: 2.7 })], replace: false }], T0 + 400_000);
    w.observe([{ eventId: 1, markets: [], replace: false }], T0 + 420_000);
    expect(w.messages.at(-1)).toMatch(/^Home -0\.25 fair 1\.782 → 1\.556 \(-12\.7% since the open/);
  });

  it('Top movers measures a moved line against its own value\u2019s history only', () => {
    store = openStore({ path: ':memory:', clock: () => T0 + 20 * 60_000 });
    store.odds.recordSnapshot({ ...header, markets: [spread(-0.5, { home: 1.95, away: 1.95 })] }, T0);
    store.watchlist.addWatch(1, T0);
    store.odds.recordTicks(1, [spread(-0.25, { home: 1.72, away: 2.2 })], T0 + 10 * 60_000);
    const rows = topMovers(store, 'EM', T0 + 20 * 60_000).filter((r) => r.lineId === 11);
    // -0.25 has only its own price in the window: no move (the old key read it against -0.5's 2.000: -10.9%).
    expect(rows.map((r) => [r.sideWords, Math.abs(r.move15!)])).toEqual([
      ['Home -0.25', 0],
      ['Away +0.25', 0],
    ]);
  });
});
