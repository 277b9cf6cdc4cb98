import { describe, expect, it } from 'vitest';
import { openStore } from '../store';
import { createTickLoad } from '../../../test/store/ticks';
import { storeHandlers } from './store';

const HOUR = 3_600_000;

function storeWithHours(hours: number) {
  const t0 = Date.UTC(2026, 0, 1);
  let now = t0;
  const store = openStore({ path: ':memory:', clock: () => now, rawTickHours: 1 });
  const load = createTickLoad({ events: 1, linesPerEvent: 6, updatesPerSecond: 1.5 });
  for (let at = t0; at < t0 + hours * HOUR; at += 60_000) store.odds.recordTickBatches(load.next(at, 60_000));
  now = t0 + hours * HOUR;
  return store;
}

describe('store handlers', () => {
  it('compact now folds everything past the raw window, a step at a time, and usage shows where the bytes went', async () => {
    const store = storeWithHours(4);
    const h = storeHandlers(store.maintenance, { stepBudgetMs: 1 });
    const before = await h['store:usage']();
    const emptyBars = before.kinds.find((k) => k.kind === 'bars')!.bytes;
    // An empty table and its index: a page each.
    expect(emptyBars).toBe(2 * 4096);
    let turns = 0;
    const result = await storeHandlers(store.maintenance, { stepBudgetMs: 1, yieldTurn: async () => void turns++ })[
      'store:compact'
    ]();
    expect(result.done).toBe(true);
    // 3 of the 4 hours are past the one-hour raw window: 1.5 ticks/s for 3 hours.
    expect(result.ticksCompacted).toBe(1.5 * 3 * 3600);
    expect(turns).toBe(result.steps - 1);
    const after = await h['store:usage']();
    expect(after.kinds.reduce((n, k) => n + k.bytes, 0)).toBe(after.fileBytes);
    expect(after.kinds.find((k) => k.kind === 'bars')!.bytes).toBeGreaterThan(emptyBars);
    expect(after.kinds.find((k) => k.kind === 'rawTicks')!.bytes).toBeLessThan(
      before.kinds.find((k) => k.kind === 'rawTicks')!.bytes,
    );
    expect(after.oldestRawTickAt).toBeGreaterThanOrEqual(Date.UTC(2026, 0, 1) + 3 * HOUR - 5 * 60_000);
    expect(after.rawTickHours).toBe(1);
  });

  it('joins a second "compact now" to the one running instead of racing it', async () => {
    const store = storeWithHours(3);
    const h = storeHandlers(store.maintenance, { stepBudgetMs: 1 });
    const [a, b] = await Promise.all([h['store:compact'](), h['store:compact']()]);
    expect(b).toBe(a);
    expect((await h['store:compact']()).ticksCompacted).toBe(0);
  });
});
