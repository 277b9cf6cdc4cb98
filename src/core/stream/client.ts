// The live odds stream client: one server-sent events connection per watched event, the odds state it builds
// from snapshot / odds / score messages, and the reconnect, resume and watchdog logic around it.
// Opens go through the API client's governor (priority high, one attempt each), and this module does its own
// reconnecting: a plan restriction, a bad key and a dropped connection each need their own answer. The bytes are
// parsed by `eventsource-parser` (the parser of the `eventsource` package, with the same semantics: fields, `retry:`,
// comments, a byte order mark, any line ends) straight from the body's chunks: the host's fetch may hand them over
// as a raw body (../net/rawBody.ts) with no WHATWG stream under them, and the EventSource object, whose reconnecting
// went unused, is no longer between the socket and the parser (its dispatch and the body's web stream plumbing were
// about a fifth of the host's CPU at 2,000 messages a second). A stream cannot storm: the backoff starts again from
// the bottom only after a connection stayed up for a while, the server's `retry:` is a floor of every reconnect
// delay, and opens per event are capped in a rolling window; a stream over its cap rests as 'failing' until the
// window lets it try again.
// Memory stays bounded whatever the service sends: the bytes on their way to the parser are counted, and a line, or a
// message's lines together, longer than MAX_STREAM_MESSAGE_BYTES drops the connection (it reconnects under the backoff).
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import {
  EndMessageSchema,
  EventOddsSchema,
  MAX_STREAM_MESSAGE_BYTES,
  OddsMessageSchema,
  PARAMS,
  PATHS,
  STREAM_PING_INTERVAL_S,
  ScoreMessageSchema,
  parseMarkets,
  type EndMessage,
  type EventOdds,
  type Market,
  type ScoreMessage,
  type StreamEventName,
} from '../../shared/api';
import type { AppError } from '../../shared/errors';
import { realClock, type Clock, type TimerHandle } from '../clock';
import { byteSize } from '../api/errors';
import { backoffDelay, type GovernorState } from '../api/governor';
import type { ApiClient } from '../api/client';
import type { BadRecord } from '../api/types';
import { rawBodyOf, type RawBody } from '../net/rawBody';

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

export interface StreamStats {
  applied: number;
  /** Messages whose id was at or below the last applied one: replays we must not apply twice. */
  duplicates: number;
  unknownEvents: number;
  badRecords: number;
  connections: number;
  watchdogTrips: number;
}

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
export const DEFAULT_OPEN_CAP = { max: 30, windowMs: 3_600_000 } as const;
export const DEFAULT_MAX_RETRY_FLOOR_MS = 600_000;

type Unsubscribe = () => void;

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

interface Stream {
  eventId: number;
  state: StreamState;
  stats: StreamStats;
  odds: EventOdds | null;
  /** line_id -> index in odds.markets: built with each snapshot, so an update costs no index of its own. */
  lineIndex: Map<number, number>;
  /** The current connection's request (aborted to stop it) and, once it answered, its body. */
  request: AbortController | null;
  body: RawBody | null;
  /** Bumped on every (re)open: callbacks from an older connection are ignored. */
  generation: number;
  attempt: number;
  /** When the current connection answered 200 (client clock); null while not connected. */
  connectedAt: number | null;
  /** The service's last `retry:` in ms (bounded), the least any reconnect of this stream waits. */
  retryFloorMs: number;
  openError: AppError | null;
  watchdog: TimerHandle | null;
  /** When the current connection last delivered a byte (client clock): the watchdog measures silence from here. */
  lastByteAt: number;
  retryTimer: TimerHandle | null;
  waitForKey: AbortController | null;
}

/** Listeners copied on subscribe and unsubscribe, not on every emit: emits run per message, subscriptions rarely. */
function emitter<A extends unknown[]>() {
  let list: ReadonlyArray<(...a: A) => void> = [];
  return {
    on(cb: (...a: A) => void): Unsubscribe {
      list = [...list, cb];
      return () => {
        list = list.filter((x) => x !== cb);
      };
    },
    emit(...a: A) {
      // A listener that subscribes or unsubscribes during an emit changes `list`, not the array being walked.
      for (const cb of list) cb(...a);
    },
  };
}

export function createStreamClient(options: StreamClientOptions): StreamClient {
  const { api } = options;
  const governor = api.governor;
  const clock = options.clock ?? realClock;
  const random = options.random ?? Math.random;
  const pingMs = options.pingIntervalMs ?? STREAM_PING_INTERVAL_S * 1000;
  const backoff = options.backoff ?? { baseMs: 500, maxMs: 30_000 };
  const healthyAfterMs = options.healthyAfterMs ?? DEFAULT_HEALTHY_AFTER_MS;
  const openCap = options.openCap ?? DEFAULT_OPEN_CAP;
  const maxRetryFloorMs = options.maxRetryFloorMs ?? DEFAULT_MAX_RETRY_FLOOR_MS;
  const maxMessageBytes = options.maxMessageBytes ?? MAX_STREAM_MESSAGE_BYTES;
  const streams = new Map<number, Stream>();
  /** Open instants per event within the cap's window; outlives unwatch. */
  const opensByEvent = new Map<number, number[]>();
  const ev = {
    snapshot: emitter<[number, EventOdds]>(),
    markets: emitter<[number, Market[]]>(),
    score: emitter<[number, ScoreMessage]>(),
    end: emitter<[number, EndMessage]>(),
    state: emitter<[StreamState]>(),
    problem: emitter<[number, BadRecord]>(),
    applied: emitter<[number, { id: number | null; event: StreamEventName }]>(),
  };
  const log = governor.log;

  function setState(s: Stream, patch: Partial<StreamState>) {
    const next = { ...s.state, ...patch };
    if (!('error' in patch) && patch.status && patch.status !== s.state.status && patch.status === 'live')
      delete next.error;
    // retryAt describes one planned open: any other change of state (the open began, it went live) ends it.
    if (!('retryAt' in patch)) delete next.retryAt;
    s.state = next;
    ev.state.emit({ ...next });
  }

  function problem(s: Stream, path: string, message: string) {
    s.stats.badRecords++;
    const p: BadRecord = { kind: 'bad_payload', path, message: `Live odds stream of event ${s.eventId}: ${message}` };
    log('warn', p.message);
    ev.problem.emit(s.eventId, p);
  }

  function stopConnection(s: Stream) {
    s.generation++;
    s.body?.cancel();
    s.body = null;
    s.request?.abort();
    s.request = null;
    if (s.watchdog !== null) clock.clearTimeout(s.watchdog);
    s.watchdog = null;
  }

  /**
   * Bytes arrived: the silence starts again from now. One timer per connection, not one per chunk: when it falls due
   * it looks at how long the line has really been quiet and waits out the rest if bytes came meanwhile (at 10
   * messages a second per stream, a clear and a set per chunk was a measurable share of the host's time).
   */
  function armWatchdog(s: Stream, generation: number) {
    if (s.generation !== generation) return;
    s.lastByteAt = clock.now();
    if (s.watchdog === null) s.watchdog = clock.setTimeout(() => watchdogDue(s, generation), 2 * pingMs);
  }

  function watchdogDue(s: Stream, generation: number) {
    if (s.generation !== generation) return;
    s.watchdog = null;
    const quiet = clock.now() - s.lastByteAt;
    if (quiet < 2 * pingMs) {
      s.watchdog = clock.setTimeout(() => watchdogDue(s, generation), 2 * pingMs - quiet);
      return;
    }
    s.stats.watchdogTrips++;
    log('warn', `stream ${s.eventId}: silent for ${2 * pingMs} ms, reconnecting`);
    stopConnection(s);
    scheduleReconnect(s, { kind: 'network', message: 'The live odds stream went silent; reconnecting.' });
  }

  /** Opens of this event still inside the cap's window, oldest first; kept across unwatch so re-watching is no way round. */
  function recentOpens(eventId: number): number[] {
    const since = clock.now() - openCap.windowMs;
    const list = (opensByEvent.get(eventId) ?? []).filter((at) => at > since);
    if (list.length) opensByEvent.set(eventId, list);
    else opensByEvent.delete(eventId);
    return list;
  }

  /** The earliest instant the cap lets this event open again (now, when it has room). */
  function capFreeAt(eventId: number): number {
    const opens = recentOpens(eventId);
    if (opens.length < openCap.max) return clock.now();
    return (opens[opens.length - openCap.max] ?? clock.now()) + openCap.windowMs;
  }

  function scheduleReconnect(s: Stream, error: AppError | null) {
    if (s.state.status === 'ended' || s.state.status === 'failed' || !streams.has(s.eventId)) return;
    // Only a connection that held for a while proves the service is fine again; a stream that gets its snapshot
    // and drops at once keeps climbing the backoff instead of reconnecting at the bottom step forever.
    if (s.connectedAt !== null && clock.now() - s.connectedAt >= healthyAfterMs) s.attempt = 0;
    s.connectedAt = null;
    s.attempt++;
    // After a 429 there is no point knocking before Retry-After: the governor would only refuse locally.
    const quotaFloor = error?.kind === 'rate_limit' && error.retryAfter ? error.retryAfter * 1000 : 0;
    planOpen(s, Math.max(quotaFloor, s.retryFloorMs, backoffDelay(s.attempt, backoff, random)), error);
  }

  /** Arms the next open `delay` ms from now, or later when the cap says so; the state says which. */
  function planOpen(s: Stream, delay: number, error: AppError | null) {
    const now = clock.now();
    const freeAt = capFreeAt(s.eventId);
    const at = Math.max(now + delay, freeAt);
    if (freeAt > now + delay) {
      const minutes = Math.max(1, Math.ceil((freeAt - now) / 60_000));
      const failing: AppError = {
        kind: 'network',
        message: `The live odds stream of event ${s.eventId} keeps failing (${openCap.max} connections within ${Math.round(openCap.windowMs / 60_000)} min); it rests and tries again in ${minutes} min.`,
      };
      if (s.state.status !== 'failing') log('warn', failing.message);
      setState(s, { status: 'failing', error: failing, retryAt: at });
    } else {
      setState(s, { status: 'reconnecting', retryAt: at, ...(error ? { error } : {}) });
    }
    if (s.retryTimer !== null) clock.clearTimeout(s.retryTimer);
    s.retryTimer = clock.setTimeout(() => {
      s.retryTimer = null;
      open(s);
    }, at - now);
  }

  function onConnectionError(s: Stream) {
    const error = s.openError;
    stopConnection(s);
    if (s.state.status === 'ended' || s.state.status === 'failed') return;
    if (error?.kind === 'auth') {
      // No backoff loop while the key is bad: wait for the governor to see a usable key, then open at once.
      setState(s, { status: 'reconnecting', error });
      s.waitForKey?.abort();
      const wait = new AbortController();
      s.waitForKey = wait;
      governor.whenKeyUsable(wait.signal).then(
        () => {
          if (s.waitForKey !== wait) return;
          s.waitForKey = null;
          s.attempt = 0;
          open(s);
        },
        () => undefined,
      );
      return;
    }
    if (error && (error.kind === 'plan' || error.kind === 'not_found' || error.kind === 'validation')) {
      setState(s, { status: 'failed', error });
      return;
    }
    scheduleReconnect(s, error);
  }

  function open(s: Stream) {
    if (!streams.has(s.eventId)) return;
    stopConnection(s);
    if (capFreeAt(s.eventId) > clock.now()) {
      // Every way in (watch, a usable key again, a lifted plan) passes here, so none of them can beat the cap.
      planOpen(s, 0, null);
      return;
    }
    const generation = s.generation;
    s.openError = null;
    s.connectedAt = null;
    s.stats.connections++;
    const opens = recentOpens(s.eventId);
    opens.push(clock.now());
    opensByEvent.set(s.eventId, opens);
    setState(s, {
      status: s.state.status === 'reconnecting' || s.state.status === 'failing' ? 'reconnecting' : 'connecting',
    });

    const request = new AbortController();
    s.request = request;
    // connect() answers every failure it knows; anything else still ends the connection, never an unhandled rejection.
    connect(s, generation, request.signal).catch(() => connectionLost(s, generation));
  }

  /** A connection's failure, once: its error (if any) is already in `openError`. */
  function connectionLost(s: Stream, generation: number) {
    if (s.generation === generation) onConnectionError(s);
  }

  /** One connection: the open through the governor, then the body's chunks through the parser until it ends. */
  async function connect(s: Stream, generation: number, signal: AbortSignal) {
    const headers = new Headers({ Accept: 'text/event-stream', 'Cache-Control': 'no-store' });
    // Resume from what we applied, so the service replays what we missed.
    if (s.state.lastEventId !== null) headers.set('Last-Event-ID', String(s.state.lastEventId));
    const r = await api.governedFetch(
      PATHS.stream,
      api.url(PATHS.stream, { [PARAMS.stream.eventId]: s.eventId }),
      { headers, signal },
      {
        priority: 'high',
        purpose: 'stream',
        maxAttempts: 1,
        signal,
        ...(options.openTimeoutMs === undefined ? {} : { timeoutMs: options.openTimeoutMs }),
      },
    );
    if (s.generation !== generation) {
      if (r.ok) rawBodyOf(r.response)?.cancel();
      return;
    }
    if (!r.ok) {
      s.openError = r.error;
      return connectionLost(s, generation);
    }
    const res = r.response;
    const body = rawBodyOf(res);
    // As EventSource: a 200 with an event stream, or the connection failed (and is opened again under the backoff).
    const type = res.headers.get('content-type') ?? '';
    if (res.status !== 200 || !type.startsWith('text/event-stream') || !body) {
      body?.cancel();
      s.openError = {
        kind: 'bad_payload',
        status: res.status,
        message: `The live odds stream of event ${s.eventId} answered ${res.status}${type ? ` with ${type.split(';')[0]}` : ''}, not an event stream; it will be opened again.`,
      };
      log('warn', s.openError.message);
      return connectionLost(s, generation);
    }
    s.body = body;
    armWatchdog(s, generation);
    s.connectedAt = clock.now();
    setState(s, { status: 'live' });

    // The parser holds a line until it ends and a message's data until its blank line: the bytes since then are
    // counted here, and a chunk that takes them past the cap never reaches the parser.
    const sizes = createMessageSizeGuard(maxMessageBytes);
    const decoder = new TextDecoder();
    const parser = createParser({
      onEvent: (m: EventSourceMessage) => {
        // A message read after the connection was stopped (an `end` earlier in the same chunk) is not applied.
        if (s.generation === generation) onMessage(s, m.event || 'message', m.data, m.id ?? '');
      },
      onRetry: (ms) => {
        if (s.generation === generation) s.retryFloorMs = Math.min(ms, maxRetryFloorMs);
      },
    });
    body.start({
      data: (chunk) => {
        if (s.generation !== generation) return;
        // Any byte, a ping (an SSE comment) too, is a sign of life for the watchdog.
        armWatchdog(s, generation);
        if (!sizes.feed(chunk)) {
          const error: AppError = {
            kind: 'bad_payload',
            message: `The live odds stream of event ${s.eventId} sent a line or message longer than ${byteSize(maxMessageBytes)}; the connection was dropped and will be opened again.`,
          };
          s.openError = error;
          log('warn', error.message);
          return connectionLost(s, generation);
        }
        parser.feed(decoder.decode(chunk, { stream: true }));
      },
      // The service closed the stream, or the connection broke: opened again under the backoff.
      end: () => connectionLost(s, generation),
      error: () => connectionLost(s, generation),
    });
  }

  function parseData(s: Stream, name: string, data: string): unknown {
    try {
      return JSON.parse(data);
    } catch {
      problem(s, name, 'a message that is not JSON was skipped');
      return undefined;
    }
  }

  /** One message as the parser gives it: its event name ('message' when none), its data, and its own id ('' when none). */
  function onMessage(s: Stream, name: string, raw: string, rawId: string) {
    const id = rawId !== '' && Number.isFinite(Number(rawId)) ? Number(rawId) : null;
    s.state.lastEventAt = clock.now();
    if (name !== 'snapshot' && name !== 'odds' && name !== 'score' && name !== 'end') {
      s.stats.unknownEvents++;
      return;
    }
    const stale = id !== null && s.state.lastEventId !== null && id <= s.state.lastEventId;
    if (stale && name !== 'snapshot' && name !== 'end') {
      s.stats.duplicates++;
      return;
    }
    const data = parseData(s, name, raw);
    if (data === undefined) return;
    if (name === 'snapshot') {
      const env = EventOddsSchema.safeParse(data);
      if (!env.success) return problem(s, 'snapshot', 'a snapshot that does not match the contract was skipped');
      const markets = parseMarkets(env.data.markets);
      markets.problems.forEach((p) => problem(s, `snapshot.${p.path}`, `dropped a market: ${p.message}`));
      s.odds = { ...env.data, markets: markets.items };
      s.lineIndex = new Map(markets.items.map((m, i) => [m.line_id, i]));
      applied(s, id, 'snapshot');
      ev.snapshot.emit(s.eventId, cloneOdds(s.odds));
      return;
    }
    if (name === 'end') {
      const end = EndMessageSchema.safeParse(data);
      const message: EndMessage = end.success ? end.data : { event_id: s.eventId, reason: 'removed' };
      applied(s, id, 'end');
      stopConnection(s);
      setState(s, { status: 'ended', endReason: message.reason });
      ev.end.emit(s.eventId, message);
      return;
    }
    if (!s.odds) {
      // Without a snapshot there is nothing to apply a change to; the service always starts with one.
      problem(s, name, 'an update arrived before any snapshot and was skipped');
      return;
    }
    if (name === 'odds') {
      const env = OddsMessageSchema.safeParse(data);
      if (!env.success) return problem(s, 'odds', 'an odds update that does not match the contract was skipped');
      const markets = parseMarkets(env.data.markets);
      markets.problems.forEach((p) => problem(s, `odds.${p.path}`, `dropped a market: ${p.message}`));
      const byLine = s.lineIndex;
      for (const m of markets.items) {
        const i = byLine.get(m.line_id);
        if (i === undefined) {
          byLine.set(m.line_id, s.odds.markets.length);
          s.odds.markets.push(m);
        } else s.odds.markets[i] = m;
      }
      applied(s, id, 'odds');
      if (markets.items.length)
        ev.markets.emit(
          s.eventId,
          markets.items.map((m) => ({ ...m })),
        );
      return;
    }
    const score = ScoreMessageSchema.safeParse(data);
    if (!score.success) return problem(s, 'score', 'a score update that does not match the contract was skipped');
    s.odds.live_status = score.data.live_status;
    s.odds.score_home = score.data.score_home;
    s.odds.score_away = score.data.score_away;
    applied(s, id, 'score');
    ev.score.emit(s.eventId, score.data);
  }

  /** Records one applied message: the id moves forward and the audit hook hears of it. */
  function applied(s: Stream, id: number | null, event: StreamEventName) {
    if (id !== null) s.state.lastEventId = id;
    s.stats.applied++;
    ev.applied.emit(s.eventId, { id, event });
  }

  // A key change lifts plan restrictions: streams that failed on the plan get another chance.
  const unsubscribeGovernor = governor.subscribe((g: GovernorState) => {
    if (g.restrictedPaths.some((r) => r.path === PATHS.stream)) return;
    for (const s of streams.values()) {
      if (s.state.status === 'failed' && s.state.error?.kind === 'plan') {
        setState(s, { status: 'reconnecting' });
        s.attempt = 0;
        open(s);
      }
    }
  });

  function drop(s: Stream) {
    stopConnection(s);
    if (s.retryTimer !== null) clock.clearTimeout(s.retryTimer);
    s.retryTimer = null;
    s.waitForKey?.abort();
    s.waitForKey = null;
  }

  return {
    watch(eventId) {
      if (streams.has(eventId)) return;
      const s: Stream = {
        eventId,
        state: { eventId, status: 'connecting', lastEventAt: null, lastEventId: null },
        stats: { applied: 0, duplicates: 0, unknownEvents: 0, badRecords: 0, connections: 0, watchdogTrips: 0 },
        odds: null,
        lineIndex: new Map(),
        request: null,
        body: null,
        generation: 0,
        attempt: 0,
        connectedAt: null,
        retryFloorMs: 0,
        openError: null,
        watchdog: null,
        lastByteAt: 0,
        retryTimer: null,
        waitForKey: null,
      };
      streams.set(eventId, s);
      open(s);
    },
    unwatch(eventId) {
      const s = streams.get(eventId);
      if (!s) return;
      drop(s);
      streams.delete(eventId);
    },
    watched: () => [...streams.keys()],
    state: (eventId) => {
      const s = streams.get(eventId);
      return s ? { ...s.state } : null;
    },
    odds: (eventId) => {
      const o = streams.get(eventId)?.odds;
      return o ? cloneOdds(o) : null;
    },
    stats: (eventId) => {
      const s = streams.get(eventId);
      return s ? { ...s.stats } : null;
    },
    onSnapshot: ev.snapshot.on,
    onMarkets: ev.markets.on,
    onScore: ev.score.on,
    onEnd: ev.end.on,
    onState: ev.state.on,
    onProblem: ev.problem.on,
    onApplied: ev.applied.on,
    close() {
      unsubscribeGovernor();
      for (const s of streams.values()) drop(s);
      streams.clear();
    },
  };
}

function cloneOdds(o: EventOdds): EventOdds {
  return { ...o, markets: o.markets.map((m) => ({ ...m, prices: m.prices ? { ...m.prices } : null })) };
}

const CR = 13;
const LF = 10;

const COLON = 0x3a;

/**
 * Counts what the SSE parser would hold from raw text/event-stream bytes split anywhere: the current line so far, and
 * the lines of the current message (since the last blank line; comments are dropped by the parser and not counted).
 * `feed` answers false, for good, once either passes `maxBytes`. Line ends are found with a native search, so the cost
 * is per line, not per byte; a CR at the end of one chunk and an LF at the start of the next are one line end.
 */
export function createMessageSizeGuard(maxBytes: number): { feed(chunk: Uint8Array): boolean } {
  /** Bytes of the current line so far. */
  let line = 0;
  /** Bytes of the ended, non-comment lines of the current message. */
  let message = 0;
  /** The current line begins with a colon: a comment. */
  let comment = false;
  /** The last chunk ended with CR: an LF first in this one ends no further line. */
  let afterCr = false;
  let over = false;
  return {
    feed(chunk) {
      if (over) return false;
      const n = chunk.length;
      let i = 0;
      if (afterCr && n > 0) {
        afterCr = false;
        if (chunk[0] === LF) i = 1;
      }
      let lf = -1;
      let cr = -1;
      while (i < n) {
        if (lf !== Infinity && lf < i) lf = chunk.indexOf(LF, i);
        if (lf === -1) lf = Infinity;
        if (cr !== Infinity && cr < i) cr = chunk.indexOf(CR, i);
        if (cr === -1) cr = Infinity;
        const end = Math.min(lf, cr);
        const stop = end === Infinity ? n : end;
        if (line === 0 && stop > i) comment = chunk[i] === COLON;
        line += stop - i;
        if (line > maxBytes || (!comment && message + line > maxBytes)) {
          over = true;
          return false;
        }
        if (end === Infinity) break;
        if (line === 0) message = 0;
        else if (!comment) message += line;
        line = 0;
        i = end + 1;
        if (end === cr) {
          if (i === n) afterCr = true;
          else if (chunk[i] === LF) i++;
        }
      }
      return true;
    },
  };
}
