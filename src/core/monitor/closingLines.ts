// Closing lines of watched events' main markets: each line's first pre-match price (the open) and its last price
// before the market went offline or the match started, whichever the stream shows first (the close). Fed by the
// stream in its own order, not by the coalesced batches: an offline-and-back within one batch must still close the
// line. Writes go to the store in one transaction every FLUSH_MS, beside the tick writes.
import type { EventOdds, Market, ScoreMessage } from '../../shared/api';
import { LIVE_STATUS } from '../../shared/api';
import type { AppError } from '../../shared/errors';
import type { Clock, TimerHandle } from '../clock';
import type { LineCloseOp, Store } from '../store';

const FLUSH_MS = 250;

export interface ClosingLines {
  onSnapshot(eventId: number, odds: EventOdds): void;
  onMarkets(eventId: number, markets: readonly Market[]): void;
  onScore(eventId: number, score: Pick<ScoreMessage, 'live_status'>): void;
  forget(eventId: number): void;
  /** Writes what is pending now. */
  flush(): void;
  close(): void;
}

export function createClosingLines(o: { store: Store; clock: Clock; isWatched(eventId: number): boolean; reportError(e: AppError): void }): ClosingLines {
  /** Events the stream has shown in play: nothing after the start is a pre-match price. */
  const started = new Set<number>();
  let ops: LineCloseOp[] = [];
  let timer: TimerHandle | null = null;

  const flush = () => {
    if (timer !== null) o.clock.clearTimeout(timer);
    timer = null;
    if (!ops.length) return;
    const batch = ops;
    ops = [];
    try {
      o.store.applyLineCloseOps(batch);
    } catch (e) {
      o.reportError({ kind: 'internal', message: `Could not record closing lines: ${e instanceof Error ? e.message : String(e)}` });
    }
  };
  const push = (op: LineCloseOp) => {
    ops.push(op);
    timer ??= o.clock.setTimeout(flush, FLUSH_MS);
  };
  const start = (eventId: number) => {
    started.add(eventId);
    push({ type: 'closeEvent', eventId, at: o.clock.now() });
  };
  const prices = (eventId: number, markets: readonly Market[]) => {
    const at = o.clock.now();
    for (const market of markets) {
      if (market.prices === null) push({ type: 'closeLine', eventId, lineId: market.line_id, at });
      else push({ type: 'price', eventId, market, at });
    }
  };

  return {
    onSnapshot(eventId, odds) {
      if (!o.isWatched(eventId)) return;
      if (odds.live_status === LIVE_STATUS.liveNow) return start(eventId);
      started.delete(eventId);
      prices(eventId, odds.markets);
    },
    onMarkets(eventId, markets) {
      if (started.has(eventId) || !o.isWatched(eventId)) return;
      prices(eventId, markets);
    },
    onScore(eventId, score) {
      if (score.live_status === LIVE_STATUS.liveNow && !started.has(eventId) && o.isWatched(eventId)) start(eventId);
    },
    forget: (eventId) => void started.delete(eventId),
    flush,
    close: flush,
  };
}
