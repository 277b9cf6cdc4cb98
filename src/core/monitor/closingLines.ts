// Closing lines of watched events' main markets (docs/trading.md, "The close"): each line's first pre-match price
// (the open) and its last price offered before kick-off (the close). Kick-off is the stream saying the match is live
// or the scheduled start passing, whichever comes first. A suspension before kick-off closes nothing: the line
// re-offered goes on being its pre-match price. A line missing from a fresh snapshot before kick-off is gone (closed
// at its last price, flagged). Fed by the stream in its own order, not by the coalesced batches; writes go to the
// store in one transaction every FLUSH_MS, beside the tick writes.
import type { EventOdds, Market, ScoreMessage } from '../../shared/api';
import { LIVE_STATUS, parseServiceTime } from '../../shared/api';
import { errorMessage, type AppError } from '../../shared/errors';
import { pricedSides } from '../../shared/trading';
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

interface EventState {
  /** The scheduled start (ms), when the snapshot gave a readable one. */
  starts: number | null;
  /** Kick-off has happened: nothing after it is a pre-match price. */
  started: boolean;
  /** When the scheduled start (not the stream's word) closed the lines, and at what instant: a later start reopens them. */
  byClockAt: number | null;
  timer: TimerHandle | null;
  /** When (our clock) the last pre-match price was taken: a close is never stamped before the price it keeps. */
  lastPriceAt: number;
}

/**
 * The kick-off moved: the scheduled start closed the lines, and now the match, not live, starts later (`was`: the
 * start before this snapshot, `svc`: the service's now). The close is taken at the real kick-off: the lines open again
 * and the snapshot's prices go on from there.
 */
function kickOffMoved(s: EventState, was: number | null, odds: EventOdds, svc: number | null): boolean {
  return (
    s.started &&
    s.byClockAt !== null &&
    odds.live_status !== LIVE_STATUS.liveNow &&
    s.starts !== null &&
    was !== null &&
    s.starts > was &&
    svc !== null &&
    svc < s.starts
  );
}

/** The service's time of a batch of changed markets: their latest updated_at, else the service's now. */
function stampOf(markets: readonly Market[], serviceNow: () => number | null): number | null {
  let latest: number | null = null;
  for (const m of markets) {
    const t = parseServiceTime(m.updated_at);
    if (t !== null && (latest === null || t > latest)) latest = t;
  }
  return latest ?? serviceNow();
}

/** The closes' writes, gathered and handed to the store's writer in one transaction every FLUSH_MS (or on `flush`). */
function createCloseOpQueue(o: { store: Pick<Store, 'writer'>; clock: Clock; reportError(e: AppError): void }): {
  push(op: LineCloseOp): void;
  flush(): void;
} {
  let ops: LineCloseOp[] = [];
  let timer: TimerHandle | null = null;
  const flush = () => {
    if (timer !== null) o.clock.clearTimeout(timer);
    timer = null;
    if (!ops.length) return;
    const batch = ops;
    ops = [];
    try {
      o.store.writer.applyLineCloseOps(batch);
    } catch (e) {
      o.reportError({ kind: 'internal', message: `Could not record closing lines: ${errorMessage(e)}` });
    }
  };
  return {
    push(op) {
      ops.push(op);
      timer ??= o.clock.setTimeout(flush, FLUSH_MS);
    },
    flush,
  };
}

export function createClosingLines(o: {
  store: Store;
  clock: Clock;
  isWatched(eventId: number): boolean;
  /** Whether the event's stream is connected now: a kick-off seen while following it confirms the last prices. */
  isFollowing?(eventId: number): boolean;
  /**
   * Now on the service's clock (the scheduled start is the service's time), or null while the skew is unknown: then
   * only the stream's own word (live, or a price stamped after the start) tells kick-off. Default: our clock.
   */
  serviceNow?(): number | null;
  reportError(e: AppError): void;
}): ClosingLines {
  const serviceNow = (): number | null => (o.serviceNow ? o.serviceNow() : o.clock.now());
  /** Our clock's instant of a service-clock instant (closes and bets are stamped on our clock). */
  const local = (serviceMs: number): number => {
    const svc = serviceNow();
    return svc === null ? serviceMs : Math.min(o.clock.now(), serviceMs - (svc - o.clock.now()));
  };
  const events = new Map<number, EventState>();
  const { push, flush } = createCloseOpQueue(o);
  const stateOf = (eventId: number): EventState => {
    let s = events.get(eventId);
    if (!s) events.set(eventId, (s = { starts: null, started: false, byClockAt: null, timer: null, lastPriceAt: 0 }));
    return s;
  };
  const clearTimer = (s: EventState) => {
    if (s.timer !== null) o.clock.clearTimeout(s.timer);
    s.timer = null;
  };
  const kickOff = (
    eventId: number,
    s: EventState,
    kickOffAt: number,
    reason: 'started' | 'kickoff',
    confirmed: boolean,
    inPlayAt?: number,
  ) => {
    if (s.started) return;
    // Prices that told of the start (a market stamped after it, a snapshot already live or past it) are in play and
    // are recorded at `inPlayAt`: the kick-off came before them, even where the start read through the skew says not
    // yet (a skew measured since).
    const start = inPlayAt === undefined ? kickOffAt : Math.min(kickOffAt, inPlayAt - 1);
    // The start on the service's clock, read on ours, can fall before a pre-match price we took after it (stamped
    // before the start, delivered after, or a service clock read through a skew measured a while ago): the close is
    // stamped no earlier than the price it keeps, so "the last price recorded up to the close" is the close.
    const at = Math.max(start, s.lastPriceAt);
    s.started = true;
    s.byClockAt = reason === 'kickoff' ? at : null;
    clearTimer(s);
    push({ type: 'kickoff', eventId, at, reason, confirmed });
  };
  /**
   * Whether the scheduled start has passed by `serviceAt` (the service's clock); if so the event is kicked off at it
   * (unconfirmed unless followed).
   */
  const startPassed = (eventId: number, s: EventState, serviceAt: number | null, inPlayAt?: number): boolean => {
    if (s.starts === null || serviceAt === null || serviceAt < s.starts) return false;
    kickOff(eventId, s, local(s.starts), 'kickoff', o.isFollowing?.(eventId) ?? true, inPlayAt);
    return true;
  };
  /**
   * Sets the timer for the scheduled start on the service's clock, once that clock is known: a snapshot seen before
   * the skew was measured gets it with the event's next prices.
   */
  const arm = (eventId: number, s: EventState) => {
    if (s.timer !== null || s.started || s.starts === null) return;
    const svc = serviceNow();
    if (svc === null) return;
    const starts = s.starts;
    s.timer = o.clock.setTimeout(() => {
      s.timer = null;
      kickOff(eventId, s, local(starts), 'kickoff', o.isFollowing?.(eventId) ?? true);
    }, starts - svc);
  };
  const prices = (eventId: number, s: EventState, markets: readonly Market[], at: number) => {
    // A market with no usable price (all sides at or below 1.0) says nothing about the close.
    for (const market of markets) {
      if (pricedSides(market.prices).length === 0) continue;
      push({ type: 'price', eventId, market, at });
      s.lastPriceAt = Math.max(s.lastPriceAt, at);
    }
  };

  return {
    onSnapshot(eventId, odds) {
      if (!o.isWatched(eventId)) return;
      const s = stateOf(eventId);
      const now = o.clock.now();
      const was = s.starts;
      s.starts = parseServiceTime(odds.starts);
      const svc = serviceNow();
      const closedAt = s.byClockAt;
      if (closedAt !== null && kickOffMoved(s, was, odds, svc)) {
        push({ type: 'reopen', eventId, at: closedAt });
        s.started = false;
        s.byClockAt = null;
      }
      if (s.started) return;
      if (odds.live_status === LIVE_STATUS.liveNow) {
        // A snapshot (a first open or a reconnect) finds the match already live: the app was not following it at
        // kick-off, so the lines close at their last prices seen, and those are stale when seen long before.
        return kickOff(eventId, s, s.starts === null ? now : local(s.starts), 'started', false, now);
      }
      if (s.starts !== null && svc !== null && svc >= s.starts)
        return kickOff(eventId, s, local(s.starts), 'kickoff', false, now);
      prices(eventId, s, odds.markets, now);
      push({ type: 'snapshotLines', eventId, lineIds: odds.markets.map((m) => m.line_id), at: now });
      clearTimer(s);
      arm(eventId, s);
    },
    onMarkets(eventId, markets) {
      const s = events.get(eventId);
      if (!s || s.started || !o.isWatched(eventId)) return;
      if (startPassed(eventId, s, stampOf(markets, serviceNow), o.clock.now())) return;
      arm(eventId, s);
      // A market with null prices is suspended: it closes nothing (a line re-offered is still pre-match).
      prices(eventId, s, markets, o.clock.now());
    },
    onScore(eventId, score) {
      if (score.live_status !== LIVE_STATUS.liveNow || !o.isWatched(eventId)) return;
      const s = stateOf(eventId);
      if (startPassed(eventId, s, serviceNow())) return;
      kickOff(eventId, s, o.clock.now(), 'started', true);
    },
    forget(eventId) {
      const s = events.get(eventId);
      if (s) clearTimer(s);
      events.delete(eventId);
    },
    flush,
    close() {
      for (const s of events.values()) clearTimer(s);
      events.clear();
      flush();
    },
  };
}
