// The odds pipeline: what the streams deliver (snapshots and changed markets) is stored tick by tick, handed on
// coalesced, and watched for max_win moves of market lines. Its memory is bounded by the events it follows: an
// event's baseline is dropped when the event is unwatched or leaves the book.
import { labelPeriod, NO_PERIOD_NAMES, periodNames, type PeriodNames } from '../../shared/periods';
import { lineWords } from '../../shared/trading';
import type { EventOdds, Market } from '../../shared/api';
import { errorMessage, type AppError } from '../../shared/errors';
import type { Clock, TimerHandle } from '../clock';
import type { Store, TickBatch } from '../store';
import { createMaxWinLedger } from '../store/queries/maxWinLedger';
import { createCoalescer, type CoalescedEvent, type CoalescedScore } from './coalescer';
import type { MaxWinChange } from './events';

/** How often stream ticks are written to the store. */
const TICK_WRITE_MS = 250;

export interface OddsPipelineOptions {
  store: Store;
  clock: Clock;
  batchMs: number;
  onBatch(batch: CoalescedEvent[]): void;
  onMaxWinChange(change: MaxWinChange & { label: string }): void;
  reportError(error: AppError): void;
}

export interface OddsPipeline {
  onSnapshot(eventId: number, odds: EventOdds): void;
  onMarkets(eventId: number, markets: Market[]): void;
  /** A score to hand on with the event's next batch (the latest one wins). */
  onScore(eventId: number, score: CoalescedScore): void;
  /** The event's stream ended: handed on after the rest of its batch. */
  onEnd(eventId: number, reason: string): void;
  /** The event is no longer followed: its max_win baseline goes. */
  forget(eventId: number): void;
  /** Events whose baseline is held (for the memory bound test). */
  followed(): number;
  /** Hands the ticks waiting for their next write to the store's writer now (a reader must see what the screen has). */
  flushTicks(): void;
  /** Hands on pending odds and writes pending ticks now, then stops. */
  close(): void;
}

const failure = (what: string, e: unknown): AppError => ({
  kind: 'internal',
  message: `Could not record ${what}: ${errorMessage(e)}`,
});

/**
 * A market line in the trader's words, as every screen labels it: "Home -1.5 / Away +1.5 · 1st Half",
 * "Home team total 1.5 · Full match", "Moneyline · Full match".
 */
export function lineLabel(
  m: Pick<Market, 'market' | 'line' | 'side' | 'period'>,
  sport: string | boolean = false,
  names: PeriodNames = NO_PERIOD_NAMES,
): string {
  return `${lineWords(m.market, m.line, { team: m.side })} · ${labelPeriod(sport, m.period, names)}`;
}

export function createOddsPipeline(o: OddsPipelineOptions): OddsPipeline {
  const { store, clock } = o;
  /**
   * Each followed line's last max_win seen, by the store's rules (../store/queries/maxWinLedger.ts); what the store
   * recorded before a restart is an event's baseline: a limit that moved while we were away is still a change.
   */
  const ledger = createMaxWinLedger({
    event: (eventId) =>
      store.history.latestMarkets(eventId).flatMap((m) => (m.maxWin !== null ? [[m.lineId, m.maxWin]] : [])),
  });
  let pendingTicks: TickBatch[] = [];
  let tickTimer: TimerHandle | null = null;

  /** Hands the pending ticks over now (their timer, if one runs, has nothing left to do). */
  const flushTicks = () => {
    if (tickTimer !== null) clock.clearTimeout(tickTimer);
    tickTimer = null;
    if (pendingTicks.length === 0) return;
    const batch = pendingTicks;
    pendingTicks = [];
    try {
      store.writer.recordTickBatches(batch);
    } catch (e) {
      o.reportError(failure('odds', e));
    }
  };

  // The screen before the disk: ticks are handed to the store's writer every TICK_WRITE_MS, not with every coalesced
  // batch (the writer commits them off the event loop, in order). A crash loses at most this much tick history and
  // what the writer had not committed yet, never a settlement.
  const scheduleTickWrite = () => {
    if (tickTimer !== null) return;
    tickTimer = clock.setTimeout(() => {
      flushTicks();
    }, TICK_WRITE_MS);
  };

  const coalescer = createCoalescer(clock, o.batchMs, o.onBatch);

  function maxWinMoves(eventId: number, markets: readonly Market[]): void {
    const at = clock.now();
    // Read only when a limit moved: the sport and the service's period names, for the label.
    let words: { sport: string | boolean; names: PeriodNames } | null = null;
    const wordsOf = () =>
      (words ??= {
        sport: store.history.eventView(eventId)?.sportName ?? false,
        names: periodNames(store.history.periods()),
      });
    for (const m of markets) {
      const previous = ledger.before(eventId, m.line_id, at);
      ledger.note(eventId, m.line_id, m.max_win, at);
      // A new line moves nothing (the stream's limits are never null: null only stands for "no limit known").
      if (previous === undefined || previous === null || previous === m.max_win) continue;
      o.onMaxWinChange({
        eventId,
        specialId: null,
        contestantId: null,
        lineId: m.line_id,
        from: previous,
        to: m.max_win,
        at: m.updated_at,
        label: lineLabel(m, wordsOf().sport, wordsOf().names),
      });
    }
  }

  return {
    onSnapshot(eventId, odds) {
      flushTicks();
      // The event's baseline before the snapshot is written (an inline writer would write the snapshot's own limits).
      ledger.hold(eventId);
      try {
        store.writer.recordSnapshot(odds, clock.now());
      } catch (e) {
        o.reportError(failure('a snapshot', e));
      }
      maxWinMoves(eventId, odds.markets);
      const { markets, ...header } = odds;
      coalescer.add(eventId, markets, true, header);
    },
    onMarkets(eventId, markets) {
      pendingTicks.push({ eventId, markets, at: clock.now() });
      scheduleTickWrite();
      maxWinMoves(eventId, markets);
      coalescer.add(eventId, markets);
    },
    onScore: (eventId, score) => coalescer.score(eventId, score),
    onEnd: (eventId, reason) => coalescer.end(eventId, reason),
    flushTicks,
    forget: (eventId) => ledger.forget(eventId),
    followed: () => ledger.events(),
    close() {
      coalescer.flush();
      flushTicks();
      coalescer.close();
    },
  };
}
