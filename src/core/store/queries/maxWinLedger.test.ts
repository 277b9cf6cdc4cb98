// The ledger of a line's last max stake: one set of rules for the max_win alerts the odds pipeline raises as ticks
// arrive and the change points the store writes, so the two always name the same moves.
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../../test/support/manualClock';
import { formatServiceTime, type EventOdds, type Market } from '../../../shared/api';
import { createOddsPipeline } from '../../monitor/oddsPipeline';
import { openStore } from '..';
import { createMaxWinLedger } from './maxWinLedger';

const T0 = Date.UTC(2026, 0, 1);

const line = (lineId: number, maxWin: number): Market => ({
  line_id: lineId,
  period: 0,
  market: 'moneyline',
  side: null,
  line: null,
  prices: { home: 1.9, away: 1.95 },
  max_win: maxWin,
  updated_at: formatServiceTime(T0),
});

const snapshot = (markets: Market[]): EventOdds => ({
  event_id: 7,
  sport_id: 1,
  league_id: 1,
  league_name: 'L',
  runner_home: 'Home',
  runner_away: 'Away',
  starts: formatServiceTime(T0 + 3_600_000),
  live_status: 0,
  score_home: null,
  score_away: null,
  markets,
});

describe('the ledger of a line max stake', () => {
  it("names the same moves in the pipeline's alerts as in the store's change points, across a restart", async () => {
    const clock = createManualClock(T0);
    const store = openStore({ path: ':memory:', clock: () => clock.now() });
    const alerts: string[] = [];
    const pipelineOn = () =>
      createOddsPipeline({
        store,
        clock,
        batchMs: 8,
        onBatch: () => {},
        onMaxWinChange: (c) => void alerts.push(`${c.lineId}: ${c.from} -> ${c.to}`),
        reportError: (e) => {
          throw new Error(e.message);
        },
      });
    let pipeline = pipelineOn();
    pipeline.onSnapshot(7, snapshot([line(1, 1000), line(2, 500)]));
    const ticks: Array<[number, number]> = [
      [1, 1000], // the same limit again: no move
      [1, 800],
      [2, 500],
      [3, 300], // a new line: its first limit is no move
      [1, 800],
      [2, 250],
      [3, 300],
      [1, 1200],
    ];
    for (const [lineId, maxWin] of ticks) {
      await clock.advance(100);
      pipeline.onMarkets(7, [line(lineId, maxWin)]);
    }
    pipeline.close();
    // Restarted: the store's last limits are the baseline, so a move while nobody followed is still one.
    pipeline = pipelineOn();
    await clock.advance(100);
    pipeline.onSnapshot(7, snapshot([line(1, 900), line(2, 250), line(3, 300)]));
    pipeline.close();
    await store.writer.settled();

    const stored = [1, 2, 3].flatMap((lineId) =>
      store.history
        .lineMaxWinPoints(7, lineId)
        .filter((p) => p.previousMaxWin !== null)
        .map((p) => ({ at: p.at, move: `${lineId}: ${p.previousMaxWin} -> ${p.maxWin}` })),
    );
    const storedMoves = stored.sort((a, b) => a.at - b.at).map((p) => p.move);
    expect(alerts).toEqual(['1: 1000 -> 800', '2: 500 -> 250', '1: 800 -> 1200', '1: 1200 -> 900']);
    expect(storedMoves).toEqual(alerts);
    store.close();
  });

  it('answers from what it holds for a tick as new as it, and from the store for an older one or a line it lacks', () => {
    const reads: string[] = [];
    const ledger = createMaxWinLedger({
      line: (eventId, lineId) => {
        reads.push(`${eventId}/${lineId}`);
        return lineId === 2 ? 40 : undefined;
      },
    });
    ledger.keep(new Map([[1, new Map([[1, { maxWin: 100, at: 10 }]])]]));
    // A late write never replaces a newer limit.
    ledger.keep(new Map([[1, new Map([[1, { maxWin: 90, at: 5 }]])]]));
    expect(ledger.before(1, 1, 20)).toBe(100);
    expect(reads).toEqual([]);
    expect(ledger.before(1, 1, 9)).toBeUndefined(); // older than what it holds: the store's answer
    expect(ledger.before(1, 2, 20)).toBe(40);
    expect(reads).toEqual(['1/1', '1/2']);
    ledger.forget();
    expect(ledger.before(1, 1, 20)).toBeUndefined();
  });

  it("holds an event's baseline from the store once, forgets one event at a time, and starts again past its bound", () => {
    let loads = 0;
    const ledger = createMaxWinLedger({
      event: (eventId) => {
        loads++;
        return eventId === 1 ? [[1, 100] as const] : [];
      },
    });
    ledger.hold(1);
    ledger.note(1, 1, 80, 0);
    expect(ledger.before(1, 1, 0)).toBe(80);
    expect(ledger.before(1, 2, 0)).toBeUndefined();
    expect(loads).toBe(1);
    ledger.hold(2);
    expect(ledger.events()).toBe(2);
    ledger.forget(1);
    expect(ledger.events()).toBe(1);
    expect(ledger.before(1, 1, 0)).toBe(100); // read again from the store
    expect(loads).toBe(3);

    const bounded = createMaxWinLedger({}, 2);
    bounded.note(1, 1, 10, 0);
    bounded.note(1, 2, 20, 0);
    expect(bounded.before(1, 2, 0)).toBe(20);
    bounded.note(1, 3, 30, 0);
    expect(bounded.events()).toBe(0);
  });
});
