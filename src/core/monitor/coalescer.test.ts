import { describe, expect, it } from 'vitest';
import type { Market } from '../../shared/api';
import { createManualClock } from '../../../test/support/manualClock';
import { createCoalescer, type CoalescedEvent } from './coalescer';

const m = (lineId: number, home: number): Market => ({
  line_id: lineId,
  period: 0,
  market: 'moneyline',
  side: null,
  line: null,
  prices: { home, away: 2 },
  max_win: 100,
  updated_at: '2026-11-24T00:00:00',
});

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
    expect(batches[1]!.batch.map((e) => [e.eventId, e.markets.map((x) => x.prices!.home)])).toEqual([
      [7, [1.7]],
      [8, [3.0]],
    ]);
    // Quiet again for longer than the interval: the next one goes at once.
    await clock.advance(50);
    c.add(7, [m(1, 1.6)]);
    await clock.advance(0);
    expect(batches.map((b) => b.at)).toEqual([1_000, 1_008, 1_058]);
  });

  it('scores and ends pass the same stage: paced with the prices, the latest score only, an end after its prices', async () => {
    const clock = createManualClock(1_000);
    const batches: CoalescedEvent[][] = [];
    const c = createCoalescer(clock, 8, (batch) => batches.push(batch));
    c.add(7, [m(1, 1.9)]);
    await clock.advance(0);
    // Within the interval: two scores, a price, then the stream's end. One batch, in the page's order.
    c.score(7, { liveStatus: 1, scoreHome: 1, scoreAway: 0 });
    await clock.advance(2);
    c.add(7, [m(1, 1.8)]);
    c.score(7, { liveStatus: 1, scoreHome: 2, scoreAway: 0 });
    c.end(7, 'settled');
    c.score(9, { liveStatus: 1, scoreHome: 0, scoreAway: 3 });
    await clock.advance(5);
    expect(batches).toHaveLength(1); // a score does not jump the interval
    await clock.advance(1);
    expect(batches[1]).toEqual([
      {
        eventId: 7,
        markets: [m(1, 1.8)],
        replace: false,
        score: { liveStatus: 1, scoreHome: 2, scoreAway: 0 },
        ended: 'settled',
      },
      { eventId: 9, markets: [], replace: false, score: { liveStatus: 1, scoreHome: 0, scoreAway: 3 } },
    ]);
    // A snapshot stands for the prices before it but keeps the score; a stream back after an end is not ended.
    await clock.advance(50);
    c.score(7, { liveStatus: 1, scoreHome: 2, scoreAway: 1 });
    c.end(7, 'removed');
    c.add(7, [m(2, 2.5)], true);
    await clock.advance(0);
    expect(batches[2]).toEqual([
      { eventId: 7, markets: [m(2, 2.5)], replace: true, score: { liveStatus: 1, scoreHome: 2, scoreAway: 1 } },
    ]);
  });
});
