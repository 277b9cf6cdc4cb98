// One watched event's live odds stream: its status ('connecting', 'live', 'reconnecting', 'failing', 'ended',
// 'failed'), its current connection (./connection.ts), its book (./book.ts, fed every message), and the answer to
// each way a connection ends: a plan restriction, a bad key and a dropped connection each need their own. A stream
// cannot storm: the backoff starts again from the bottom only after a connection stayed up for a while, the server's
// `retry:` is a floor of every reconnect delay, and opens per event are capped in a rolling window (./openCap.ts).
import type { EndMessage, EventOdds, Market, ScoreMessage, StreamEventName } from '../../shared/api';
import type { AppError } from '../../shared/errors';
import type { Emitter } from '../../shared/event';
import type { Clock, TimerHandle } from '../clock';
import { backoffDelay } from '../api/governor';
import type { ApiClient } from '../api/client';
import type { BadRecord } from '../api/types';
import { applyMessage, cloneOdds, emptyBook, type Book, type BookEffect, type BookStats } from './book';
import { openConnection, type Connection } from './connection';
import { restingError, type OpenCap, type OpenLedger } from './openCap';

/** 'failing': the stream used up its opens for the window and rests until `retryAt`; it then tries again by itself. */
export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'failing' | 'ended' | 'failed';

export interface StreamState {
  eventId: number;
  status: StreamStatus;
  /** When the last message (not a ping) arrived, ms since epoch on the client's clock. */
  lastEventAt: number | null;
  /** Id of the last message applied; sent as Last-Event-ID on reconnect. */
  lastEventId: number | null;
  /** Why the stream is reconnecting, failing or failed. */
  error?: AppError;
  /** While reconnecting or failing: when the next open is due, ms since epoch on the client's clock. */
  retryAt?: number;
  endReason?: string;
}

export interface StreamStats extends BookStats {
  connections: number;
  watchdogTrips: number;
}

/** What the streams tell their listeners (one emitter each, shared by every event's stream). */
export interface StreamEvents {
  snapshot: Emitter<[number, EventOdds]>;
  markets: Emitter<[number, Market[]]>;
  score: Emitter<[number, ScoreMessage]>;
  end: Emitter<[number, EndMessage]>;
  state: Emitter<[StreamState]>;
  problem: Emitter<[number, BadRecord]>;
  applied: Emitter<[number, { id: number | null; event: StreamEventName }]>;
}

/** How every stream connects and reconnects (the client's options with their defaults filled in). */
export interface StreamConfig {
  api: ApiClient;
  clock: Clock;
  random: () => number;
  pingMs: number;
  backoff: { baseMs: number; maxMs: number };
  openTimeoutMs?: number;
  healthyAfterMs: number;
  openCap: OpenCap;
  maxRetryFloorMs: number;
  maxMessageBytes: number;
}

export interface EventStream {
  /** Opens the stream (at once, or when the cap lets it). */
  start(): void;
  state(): StreamState;
  stats(): StreamStats;
  odds(): EventOdds | null;
  /** A plan restriction on the stream was lifted: a stream that failed on the plan tries again now. */
  planLifted(): void;
  /** Stops the stream for good: its connection, its planned open and its wait for a usable key. */
  drop(): void;
}

/** The state the stream keeps itself; the book keeps the rest (the last message's id and instant). */
type ConnectionState = Omit<StreamState, 'lastEventAt' | 'lastEventId'>;

function streamState(state: ConnectionState, book: Book): StreamState {
  const { eventId, status, ...rest } = state;
  return { eventId, status, lastEventAt: book.lastEventAt, lastEventId: book.lastEventId, ...rest };
}

/** The wait before the next open after a connection failed: the backoff's step, the service's `retry:` as a floor. */
function reconnectDelay(attempt: number, error: AppError | null, retryFloorMs: number, config: StreamConfig): number {
  // After a 429 there is no point knocking before Retry-After: the governor would only refuse locally.
  const quotaFloor = error?.kind === 'rate_limit' && error.retryAfter ? error.retryAfter * 1000 : 0;
  return Math.max(quotaFloor, retryFloorMs, backoffDelay(attempt, config.backoff, config.random));
}

/** One wait at a time for the governor to see a usable key; a new wait, or `cancel`, ends the one before. */
function createKeyWait(governor: Pick<ApiClient['governor'], 'whenKeyUsable'>) {
  let current: AbortController | null = null;
  return {
    start(usable: () => void): void {
      current?.abort();
      const wait = new AbortController();
      current = wait;
      governor.whenKeyUsable(wait.signal).then(
        () => {
          if (current !== wait) return;
          current = null;
          usable();
        },
        () => undefined,
      );
    },
    cancel(): void {
      current?.abort();
      current = null;
    },
  };
}

/** Tells the listeners what a message did (an end is the stream's own to tell: it stops first). */
function tell(
  ev: StreamEvents,
  log: ApiClient['governor']['log'],
  eventId: number,
  e: Exclude<BookEffect, { type: 'end' }>,
): void {
  if (e.type === 'problem') {
    log('warn', e.problem.message);
    ev.problem.fire(eventId, e.problem);
  } else if (e.type === 'applied') ev.applied.fire(eventId, { id: e.id, event: e.event });
  else if (e.type === 'snapshot') ev.snapshot.fire(eventId, e.odds);
  else if (e.type === 'markets') ev.markets.fire(eventId, e.markets);
  else ev.score.fire(eventId, e.score);
}

/** The stream of one event, not yet open. */
export function createEventStream(
  eventId: number,
  config: StreamConfig,
  opens: OpenLedger,
  ev: StreamEvents,
): EventStream {
  const { clock } = config;
  const log = config.api.governor.log;
  let state: ConnectionState = { eventId, status: 'connecting' };
  let book: Book = emptyBook(eventId);
  let connection: Connection | null = null;
  let active = true;
  let attempt = 0;
  /** When the current connection answered 200 (client clock); null while not connected. */
  let connectedAt: number | null = null;
  /** The service's last `retry:` in ms (bounded), the least any reconnect of this stream waits. */
  let retryFloorMs = 0;
  const counts = { connections: 0, watchdogTrips: 0 };
  let retryTimer: TimerHandle | null = null;
  const keyWait = createKeyWait(config.api.governor);

  const view = () => streamState(state, book);
  const done = () => state.status === 'ended' || state.status === 'failed';

  function setState(patch: Partial<ConnectionState>) {
    const next = { ...state, ...patch };
    if (!('error' in patch) && patch.status && patch.status !== state.status && patch.status === 'live')
      delete next.error;
    // retryAt describes one planned open: any other change of state (the open began, it went live) ends it.
    if (!('retryAt' in patch)) delete next.retryAt;
    state = next;
    ev.state.fire(view());
  }

  function stopConnection() {
    connection?.close();
    connection = null;
  }

  function scheduleReconnect(error: AppError | null) {
    if (done() || !active) return;
    // Only a connection that held for a while proves the service is fine again; a stream that gets its snapshot
    // and drops at once keeps climbing the backoff instead of reconnecting at the bottom step forever.
    if (connectedAt !== null && clock.now() - connectedAt >= config.healthyAfterMs) attempt = 0;
    connectedAt = null;
    attempt++;
    planOpen(reconnectDelay(attempt, error, retryFloorMs, config), error);
  }

  /** Arms the next open `delay` ms from now, or later when the cap says so; the state says which. */
  function planOpen(delay: number, error: AppError | null) {
    const now = clock.now();
    const freeAt = opens.freeAt(eventId);
    const at = Math.max(now + delay, freeAt);
    if (freeAt > now + delay) {
      const failing = restingError(eventId, config.openCap, freeAt - now);
      if (state.status !== 'failing') log('warn', failing.message);
      setState({ status: 'failing', error: failing, retryAt: at });
    } else {
      setState({ status: 'reconnecting', retryAt: at, ...(error ? { error } : {}) });
    }
    if (retryTimer !== null) clock.clearTimeout(retryTimer);
    retryTimer = clock.setTimeout(() => {
      retryTimer = null;
      open();
    }, at - now);
  }

  /** No backoff loop while the key is bad: wait for the governor to see a usable key, then open at once. */
  function awaitUsableKey(error: AppError) {
    setState({ status: 'reconnecting', error });
    keyWait.start(() => {
      attempt = 0;
      open();
    });
  }

  function lost(error: AppError | null) {
    connection = null;
    if (done()) return;
    if (error?.kind === 'auth') return awaitUsableKey(error);
    if (error && (error.kind === 'plan' || error.kind === 'not_found' || error.kind === 'validation')) {
      setState({ status: 'failed', error });
      return;
    }
    scheduleReconnect(error);
  }

  /** The event left the book: the connection stops before the listeners hear of it. */
  function ended(end: EndMessage) {
    stopConnection();
    setState({ status: 'ended', endReason: end.reason });
    ev.end.fire(eventId, end);
  }

  function open() {
    if (!active) return;
    stopConnection();
    if (opens.freeAt(eventId) > clock.now()) {
      // Every way in (watch, a usable key again, a lifted plan) passes here, so none of them can beat the cap.
      planOpen(0, null);
      return;
    }
    connectedAt = null;
    counts.connections++;
    opens.record(eventId);
    setState({ status: state.status === 'reconnecting' || state.status === 'failing' ? 'reconnecting' : 'connecting' });
    if (!active) return; // a listener of that state dropped the stream
    const options = { ...config, eventId, lastEventId: book.lastEventId };
    connection = openConnection(options, {
      live: () => {
        connectedAt = clock.now();
        setState({ status: 'live' });
      },
      message: (m) => {
        const step = applyMessage(book, m, clock.now());
        book = step.book;
        for (const e of step.effects)
          if (e.type === 'end') ended(e.end);
          else tell(ev, log, eventId, e);
      },
      retry: (ms) => void (retryFloorMs = Math.min(ms, config.maxRetryFloorMs)),
      silent: () => void counts.watchdogTrips++,
      lost,
    });
  }

  return {
    start: open,
    state: view,
    stats: () => ({ ...book.stats, ...counts }),
    odds: () => (book.odds ? cloneOdds(book.odds) : null),
    planLifted() {
      if (state.status !== 'failed' || state.error?.kind !== 'plan') return;
      setState({ status: 'reconnecting' });
      attempt = 0;
      open();
    },
    drop() {
      active = false;
      stopConnection();
      if (retryTimer !== null) clock.clearTimeout(retryTimer);
      retryTimer = null;
      keyWait.cancel();
    },
  };
}
