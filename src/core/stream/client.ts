// The live odds stream client: one server-sent events connection per watched event, the odds each one's messages
// build, and the reconnect, resume and watchdog logic around them. It is made of a connection (./connection.ts: the
// open through the API client's governor, the bytes through `eventsource-parser`, the watchdog), a pure book
// (./book.ts: a message and the odds so far in, the next odds and what to tell out), one event's stream that owns
// both and answers each way a connection ends (./eventStream.ts), and the cap on opens (./openCap.ts). This module
// keeps the watched streams and their listeners.
import {
  MAX_STREAM_MESSAGE_BYTES,
  PATHS,
  STREAM_PING_INTERVAL_S,
  type EndMessage,
  type EventOdds,
  type Market,
  type ScoreMessage,
  type StreamEventName,
} from '../../shared/api';
import { Emitter, type Unsubscribe } from '../../shared/event';
import { realClock, type Clock } from '../clock';
import type { GovernorState } from '../api/governor';
import type { ApiClient } from '../api/client';
import type { BadRecord } from '../api/types';
import {
  createEventStream,
  type EventStream,
  type StreamEvents,
  type StreamState,
  type StreamStats,
} from './eventStream';
import { createOpenLedger, DEFAULT_OPEN_CAP } from './openCap';

export type { StreamState, StreamStats, StreamStatus } from './eventStream';
export { createMessageSizeGuard } from './connection';
export { DEFAULT_OPEN_CAP } from './openCap';

export interface StreamClientOptions {
  api: ApiClient;
  clock?: Clock;
  /** The service pings at least this often; twice this long without a byte means the connection is dead. */
  pingIntervalMs?: number;
  backoff?: { baseMs: number; maxMs: number };
  random?: () => number;
  /** Bound on waiting for the answer's headers of one open. */
  openTimeoutMs?: number;
  /** A connection must stay up this long before the next failure starts the backoff from the bottom; default 60 s. */
  healthyAfterMs?: number;
  /** Opens allowed per event in any rolling window (stream opens count against the hourly quota); default 30 an hour. */
  openCap?: { max: number; windowMs: number };
  /** The server's `retry:` is honoured as a floor up to this bound, so a hostile value cannot park a stream; 10 min. */
  maxRetryFloorMs?: number;
  /** The longest line, or message (its lines together), in bytes; default MAX_STREAM_MESSAGE_BYTES (1 MiB). */
  maxMessageBytes?: number;
}

export const DEFAULT_HEALTHY_AFTER_MS = 60_000;
export const DEFAULT_MAX_RETRY_FLOOR_MS = 600_000;

export interface StreamClient {
  /** Starts (or keeps) the stream of one event. */
  watch(eventId: number): void;
  unwatch(eventId: number): void;
  watched(): number[];
  state(eventId: number): StreamState | null;
  /** The event's odds as the client holds them now; markets with `prices: null` are offline. */
  odds(eventId: number): EventOdds | null;
  stats(eventId: number): StreamStats | null;
  onSnapshot(cb: (eventId: number, odds: EventOdds) => void): Unsubscribe;
  onMarkets(cb: (eventId: number, markets: Market[]) => void): Unsubscribe;
  onScore(cb: (eventId: number, score: ScoreMessage) => void): Unsubscribe;
  onEnd(cb: (eventId: number, end: EndMessage) => void): Unsubscribe;
  onState(cb: (state: StreamState) => void): Unsubscribe;
  onProblem(cb: (eventId: number, problem: BadRecord) => void): Unsubscribe;
  /** Every message applied to the state, with its id: for audit logs and for tests that prove nothing applies twice. */
  onApplied(cb: (eventId: number, message: { id: number | null; event: StreamEventName }) => void): Unsubscribe;
  close(): void;
}

export function createStreamClient(options: StreamClientOptions): StreamClient {
  const clock = options.clock ?? realClock;
  const openCap = options.openCap ?? DEFAULT_OPEN_CAP;
  const config = {
    api: options.api,
    clock,
    random: options.random ?? Math.random,
    pingMs: options.pingIntervalMs ?? STREAM_PING_INTERVAL_S * 1000,
    backoff: options.backoff ?? { baseMs: 500, maxMs: 30_000 },
    ...(options.openTimeoutMs === undefined ? {} : { openTimeoutMs: options.openTimeoutMs }),
    healthyAfterMs: options.healthyAfterMs ?? DEFAULT_HEALTHY_AFTER_MS,
    openCap,
    maxRetryFloorMs: options.maxRetryFloorMs ?? DEFAULT_MAX_RETRY_FLOOR_MS,
    maxMessageBytes: options.maxMessageBytes ?? MAX_STREAM_MESSAGE_BYTES,
  };
  const streams = new Map<number, EventStream>();
  /** Opens per event within the cap's window; outlives unwatch. */
  const opens = createOpenLedger(clock, openCap);
  const ev: StreamEvents = {
    snapshot: new Emitter({ name: 'stream snapshots' }),
    markets: new Emitter({ name: 'stream markets' }),
    score: new Emitter({ name: 'stream scores' }),
    end: new Emitter({ name: 'stream ends' }),
    state: new Emitter({ name: 'stream states' }),
    problem: new Emitter({ name: 'stream problems' }),
    applied: new Emitter({ name: 'stream messages applied' }),
  };

  // A key change lifts plan restrictions: streams that failed on the plan get another chance.
  const unsubscribeGovernor = options.api.governor.subscribe((g: GovernorState) => {
    if (g.restrictedPaths.some((r) => r.path === PATHS.stream)) return;
    for (const s of streams.values()) s.planLifted();
  });

  return {
    watch(eventId) {
      if (streams.has(eventId)) return;
      const s = createEventStream(eventId, config, opens, ev);
      streams.set(eventId, s);
      s.start();
    },
    unwatch(eventId) {
      streams.get(eventId)?.drop();
      streams.delete(eventId);
    },
    watched: () => [...streams.keys()],
    state: (eventId) => streams.get(eventId)?.state() ?? null,
    odds: (eventId) => streams.get(eventId)?.odds() ?? null,
    stats: (eventId) => streams.get(eventId)?.stats() ?? null,
    onSnapshot: ev.snapshot.event,
    onMarkets: ev.markets.event,
    onScore: ev.score.event,
    onEnd: ev.end.event,
    onState: ev.state.event,
    onProblem: ev.problem.event,
    onApplied: ev.applied.event,
    close() {
      unsubscribeGovernor();
      for (const s of streams.values()) s.drop();
      streams.clear();
    },
  };
}
