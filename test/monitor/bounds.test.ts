// Issue 12, must-show 5 (the monitor's half; the renderer's is src/renderer/src/store/bounds.test.ts): over a
// simulated trading day on 200 watched events, with matches ending and new ones watched all day, the odds pipeline's
// memory follows the watchlist instead of growing with every event it ever saw.
import { describe, expect, it } from 'vitest';
import { createOddsPipeline } from '../../src/core/monitor/oddsPipeline';
import { openStore } from '../../src/core/store';
import { formatServiceTime, type EventOdds, type Market } from '../../src/shared/api';
import { createManualClock } from '../support/manualClock';
import { logSoak, soak } from '../support/soak';

const WATCHED = 200;
const LINES = 12;
// A day under `npm run test:soak`, a tenth of the watchlist turning over each hour. By default eight hours with
// three tenths turning over an hour, so the pipeline still sees more than three times as many events as it holds.
const HOURS = soak(8, 24);
const ENDING_PER_HOUR = soak((WATCHED * 3) / 10, WATCHED / 10);

function markets(eventId: number, at: number, step: number): Market[] {
  return Array.from({ length: LINES }, (_, l) => ({
    line_id: eventId * 100 + l,
    period: 0,
    market: 'moneyline',
    side: null,
    line: null,
    prices: { home: 1.5 + ((step + l) % 40) / 100, away: 2.5 },
    // Limits move now and then, as on a real day.
    max_win: 1000 + 250 * Math.floor(step / 30),
    updated_at: formatServiceTime(at),
  }));
}

describe('monitor memory over a trading day', () => {
  it('holds max_win baselines for the followed events only, with 200 watched and thousands seen', async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 23, 0, 0, 0));
    const store = openStore({ path: ':memory:', clock: () => clock.now() });
    let batches = 0;
    let maxWinChanges = 0;
    const pipeline = createOddsPipeline({
      store,
      clock,
      batchMs: 8,
      onBatch: () => void batches++,
      onMaxWinChange: () => void maxWinChanges++,
      reportError: (e) => {
        throw new Error(e.message);
      },
    });
    let next = 1;
    const live: number[] = [];
    const follow = () => {
      const eventId = next++;
      live.push(eventId);
      const snapshot: EventOdds = {
        event_id: eventId,
        sport_id: 1,
        league_id: 1,
        league_name: 'L',
        runner_home: `H${eventId}`,
        runner_away: `A${eventId}`,
        starts: formatServiceTime(clock.now()),
        live_status: 1,
        score_home: 0,
        score_away: 0,
        markets: markets(eventId, clock.now(), 0),
      };
      pipeline.onSnapshot(eventId, snapshot);
    };
    for (let i = 0; i < WATCHED; i++) follow();
    let peak = 0;
    logSoak(`monitor memory: ${HOURS} simulated hours, ${ENDING_PER_HOUR} events ending an hour (full: 24 and 20)`);
    // A day in five-minute steps: every event updates each step; each hour a tenth of them (three tenths at the
    // small size) end (the stream's `end`, or the trader unwatching) and new ones are watched in their place.
    for (let minute = 5; minute <= HOURS * 60; minute += 5) {
      await clock.advance(300_000);
      for (const eventId of live) pipeline.onMarkets(eventId, markets(eventId, clock.now(), minute));
      if (minute % 60 === 0) {
        for (const ended of live.splice(0, ENDING_PER_HOUR)) pipeline.forget(ended);
        while (live.length < WATCHED) follow();
      }
      peak = Math.max(peak, pipeline.followed());
    }
    await clock.advance(1_000);
    pipeline.close();
    expect(next - 1).toBeGreaterThan(WATCHED * 3); // far more events seen than watched at once
    expect(peak).toBeLessThanOrEqual(WATCHED);
    expect(pipeline.followed()).toBe(WATCHED);
    expect(maxWinChanges).toBeGreaterThan(0);
    expect(batches).toBeGreaterThan(0);
    store.close();
  }, 120_000);
});
