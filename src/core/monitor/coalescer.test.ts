import { describe, expect, it } from 'vitest';
import type { Market } from '../../shared/api';
import { createManualClock } from '../../../test/support/manualClock';
import { createCoalescer, type CoalescedEvent } from './coalescer';

const m = (lineId: number, home: number): Market => ({ line_id: lineId, period: 0, market: 'moneyline', side: null, line: null, prices: { home, away: 2 }, max_win: 100, updated_at: '2026-11-24T00:00:00' });

describe('the coalescer', () => {
  it('hands a quiet line on at once, a busy one at most every interval with only its latest value', async () => {
    const clock = createManualClock(1_000);
    const batches: Array<{ at: number; batch: CoalescedEvent[] }> = [];
    const c = createCoalescer(clock, 8, (batch) => batches.push({ at: clock.now(), batch }));
    c.add(7, [m(1, 1.9)]);
    await clock.advance(0);
    expect(batches.map((b) => b.at)).toEqual([1_000]); // no wait for a lone update
    // Three updates within the interval: one batch at its end, the last price only.
    c.add(7, [m(1, 1.8)]);
    await clock.advance(3);
    c.add(7, [m(1, 1.7)]);
    c.add(8, [m(2, 3.0)]);
    await clock.advance(4);
    expect(batches).toHaveLength(1);
    await clock.advance(1);
    expect(batches.map((b) => b.at)).toEqual([1_000, 1_008]);
    expect(batches[1]!.batch.map((e) => [e.eventId, e.markets.map((x) => x.prices!.home)])).toEqual([[7, [1.7]], [8, [3.0]]]);
    // Quiet again for longer than the interval: the next one goes at once.
    await clock.advance(50);
    c.add(7, [m(1, 1.6)]);
    await clock.advance(0);
    expect(batches.map((b) => b.at)).toEqual([1_000, 1_008, 1_058]);
  });
});
