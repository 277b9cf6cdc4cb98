// A market line's max_win change points: written as the ticks arrive, read back for the limit timeline and the
// export, and kept when tick retention removes the ticks (raw and compacted) that carried them.
import { describe, expect, it } from 'vitest';
import { openStore } from '.';
import type { Market } from '../../shared/api';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

const spread = (maxWin: number, home = 1.9): Market => ({
  line_id: 71,
  period: 1,
  market: 'spread',
  side: null,
  line: -1.5,
  prices: { home, away: 1.95 },
  max_win: maxWin,
  updated_at: '',
});
const total = (maxWin: number): Market => ({
  line_id: 72,
  period: 0,
  market: 'totals',
  side: null,
  line: 2.5,
  prices: { over: 1.8, under: 2.0 },
  max_win: maxWin,
  updated_at: '',
});

describe('market line max_win change points', () => {
  it('are stored at ingest: a baseline, then one point per change, none for a price-only tick', () => {
    const store = openStore({ path: ':memory:', clock: () => T0 });
    store.odds.recordTicks(9, [spread(500), total(250)], T0);
    store.odds.recordTicks(9, [spread(500, 1.85)], T0 + 1000); // price moves, limit does not
    // One transaction with two changes of the same line: both kept, in order.
    store.odds.recordTickBatches([
      { eventId: 9, markets: [spread(1000)], at: T0 + 2000 },
      { eventId: 9, markets: [spread(1500)], at: T0 + 3000 },
    ]);
    store.odds.recordTicks(9, [spread(500)], T0 + 4000); // back down
    const changes = store.history.lineMaxWinChangesOf(9).filter((c) => c.lineId === 71);
    expect(changes.map((c) => [c.at - T0, c.previousMaxWin, c.maxWin])).toEqual([
      [0, null, 500],
      [2000, 500, 1000],
      [3000, 1000, 1500],
      [4000, 1500, 500],
    ]);
    expect(changes[0]).toMatchObject({ eventId: 9, lineId: 71, period: 1, market: 'spread', line: -1.5 });
    store.close();
  });

  it('a change rolled back with its transaction is written again by the next tick, and a late tick is compared with what came before it', () => {
    const store = openStore({ path: ':memory:', clock: () => T0 });
    store.odds.recordTicks(9, [spread(500)], T0);
    expect(() =>
      store.transaction(() => {
        store.odds.recordTicks(9, [spread(900)], T0 + 1000);
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    // The 900 was never stored: the next tick at 900 is the change, from 500.
    store.odds.recordTicks(9, [spread(900)], T0 + 2000);
    store.odds.recordTicks(9, [spread(900)], T0 + 3000);
    // A late tick (older than the last one) at 900 again: no change against the point before it.
    store.odds.recordTicks(9, [spread(900)], T0 + 2500);
    expect(store.history.lineMaxWinChangesOf(9).map((c) => [c.at - T0, c.previousMaxWin, c.maxWin])).toEqual([
      [0, null, 500],
      [2000, 500, 900],
    ]);
    store.close();
  });

  it('survive compaction and tick retention, with nothing twice in the line history', () => {
    const clock = { now: T0 };
    const store = openStore({ path: ':memory:', clock: () => clock.now, rawTickHours: 1, retentionDays: 1 });
    for (let i = 0; i < 120; i++)
      store.odds.recordTicks(9, [spread(i < 60 ? 500 : 2000, 1.8 + (i % 7) / 100)], T0 + i * 60_000);
    const before = [...store.history.exportLineMaxWin()];
    expect(before.map((c) => [c.previousMaxWin, c.maxWin])).toEqual([
      [null, 500],
      [500, 2000],
    ]);

    // Two hours on, compaction folds the first hour: the history shows the change once, not once per store.
    clock.now = T0 + 3 * HOUR;
    while (!store.maintenance.compactStep({ budgetMs: Infinity }).done);
    const history = store.history.oddsHistory(9, 71);
    expect(history.filter((p) => p.at === T0 + 60 * 60_000 && !p.bar)).toHaveLength(1);

    // Three days on, retention removes every tick and bar; the change points stay, as they were.
    clock.now = T0 + 72 * HOUR;
    store.maintenance.maintain();
    expect(store.history.oddsHistory(9, 71)).toEqual([]);
    expect([...store.history.exportLineMaxWin()]).toEqual(before);
    expect([...store.history.exportLineMaxWin({ since: T0 + 30 * 60_000 })].map((c) => c.maxWin)).toEqual([2000]);
    store.close();
  });
});
