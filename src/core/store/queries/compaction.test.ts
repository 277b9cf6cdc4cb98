import { describe, expect, it } from 'vitest';
import { openStore } from '..';
import { createTickLoad } from '../../../../test/store/ticks';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

function loaded(hours: number, opts: { rawTickHours?: number; retentionDays?: number } = {}) {
  const clock = { now: T0 };
  const store = openStore({ path: ':memory:', clock: () => clock.now, rawTickHours: 1, ...opts });
  const load = createTickLoad({ events: 2, linesPerEvent: 4, updatesPerSecond: 2, maxWinEvery: 10 });
  for (let at = T0; at < T0 + hours * HOUR; at += 60_000) store.odds.recordTickBatches(load.next(at, 60_000));
  clock.now = T0 + hours * HOUR;
  return { store, clock, lines: load.lineIds };
}

const drain = (store: ReturnType<typeof openStore>, maxRows?: number) => {
  let steps = 0;
  while (!store.maintenance.compactStep({ budgetMs: Infinity, ...(maxRows ? { maxRows } : {}) }).done) steps++;
  return steps;
};

describe('compaction', () => {
  it('gives the same history whether it runs in one step or in many tiny ones', () => {
    const a = loaded(3);
    const b = loaded(3);
    drain(a.store);
    expect(drain(b.store, 7)).toBeGreaterThan(100);
    for (const { eventId, lineId } of a.lines) {
      expect(b.store.history.oddsHistory(eventId, lineId)).toEqual(a.store.history.oddsHistory(eventId, lineId));
      expect(b.store.history.lineMaxWinPoints(eventId, lineId)).toEqual(
        a.store.history.lineMaxWinPoints(eventId, lineId),
      );
    }
  });

  it('takes a wider raw window at run time, and keeps only change points past a shortened retention', () => {
    const { store, lines } = loaded(6);
    expect(store.maintenance.configure({ rawTickHours: 4 })).toEqual({ rawTickHours: 4, retentionDays: 30 });
    drain(store);
    const { eventId, lineId } = lines[0]!;
    const history = store.history.oddsHistory(eventId, lineId);
    const firstRaw = history.find((p) => !p.bar && history.every((q) => !q.bar || q.at < p.at));
    expect(firstRaw!.at).toBeGreaterThanOrEqual(T0 + 2 * HOUR - 5 * 60_000);
    const points = store.history.lineMaxWinPoints(eventId, lineId).length;
    store.maintenance.configure({ retentionDays: 5 / 24 });
    const report = store.maintenance.maintain();
    expect(report.lineBarBlocksDeleted).toBeGreaterThan(0);
    const kept = store.history.oddsHistory(eventId, lineId);
    expect(kept.length).toBeGreaterThan(0); // the newer history stays: the check below is about something
    expect(kept.every((p) => p.at >= T0 + HOUR)).toBe(true);
    // The limit changes of the deleted hour are still there.
    expect(store.history.lineMaxWinPoints(eventId, lineId)).toHaveLength(points);
    expect(() => store.maintenance.configure({ rawTickHours: -1 })).toThrow();
  });

  it('is not held up by a tick dated far ahead (a clock that jumped back): it folds it and goes on', () => {
    const { store, clock, lines } = loaded(2);
    const { eventId, lineId } = lines[0]!;
    const m = {
      line_id: lineId,
      period: 0,
      market: 'moneyline',
      side: null,
      line: null,
      prices: { home: 2.5, away: 1.6 },
      max_win: 1,
      updated_at: '',
    };
    store.odds.recordTicks(eventId, [m], T0 + 48 * HOUR);
    const load = createTickLoad({ events: 2, linesPerEvent: 4, updatesPerSecond: 2, seed: 9 });
    for (let at = T0 + 2 * HOUR; at < T0 + 4 * HOUR; at += 60_000) store.odds.recordTickBatches(load.next(at, 60_000));
    clock.now = T0 + 4 * HOUR;
    drain(store);
    expect(store.maintenance.usage().oldestRawTickAt).toBeGreaterThanOrEqual(T0 + 3 * HOUR - 5 * 60_000);
    const future = store.history.oddsHistory(eventId, lineId, { from: T0 + 47 * HOUR });
    expect(future.map((p) => [p.bar?.edge, p.prices?.home])).toEqual([
      ['open', 2.5],
      [undefined, 2.5],
      ['close', 2.5],
    ]);
  });
});
