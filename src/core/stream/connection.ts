// One connection of a live odds stream: the open through the API client's governor (priority high, one attempt), the
// check that the answer is an event stream, the body's bytes through the size guard and `eventsource-parser` (the
// parser of the `eventsource` package, with the same semantics: fields, `retry:`, comments, a byte order mark, any
// line ends), and the watchdog that calls a silent line dead. The bytes are parsed straight from the body's chunks:
// the host's fetch may hand them over as a raw body (../net/rawBody.ts) with no WHATWG stream under them, and the
// EventSource object, whose reconnecting went unused, is no longer between the socket and the parser (its dispatch and
// the body's web stream plumbing were about a fifth of the host's CPU at 2,000 messages a second).
// A connection ends once: closed by its owner, or lost (its handler hears why); nothing of it is heard after that.
// Reconnecting is its owner's business (./eventStream.ts). Memory stays bounded whatever the service sends: the bytes
// on their way to the parser are counted, and a line, or a message's lines together, longer than the cap drops the
// connection.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { PARAMS, PATHS } from '../../shared/api';
import type { AppError } from '../../shared/errors';
import type { Clock, TimerHandle } from '../clock';
import { byteSize } from '../api/errors';
import type { ApiClient } from '../api/client';
import { rawBodyOf, type RawBody } from '../net/rawBody';
import type { StreamMessage } from './book';

export interface ConnectionOptions {
  api: ApiClient;
  clock: Clock;
  eventId: number;
  /** Sent as Last-Event-ID, so the service replays what we missed. */
  lastEventId: number | null;
  /** The service pings at least this often; twice this long without a byte means the connection is dead. */
  pingMs: number;
  /** The longest line, or message (its lines together), in bytes. */
  maxMessageBytes: number;
  /** Bound on waiting for the answer's headers. */
  openTimeoutMs?: number;
}

export interface ConnectionHandlers {
  /** The service answered with an event stream: the connection is up. */
  live(): void;
  message(m: StreamMessage): void;
  /** The service's `retry:` in ms. */
  retry(ms: number): void;
  /** The line was silent past the watchdog's bound (`lost` follows). */
  silent(): void;
  /** The connection failed or ended, once: `error` says why (null: it simply ended or broke). */
  lost(error: AppError | null): void;
}

export interface Connection {
  /** Stops the connection; nothing of it is heard afterwards. */
  close(): void;
}

/** Opens one connection; it runs until it is lost or closed. */
export function openConnection(o: ConnectionOptions, h: ConnectionHandlers): Connection {
  const request = new AbortController();
  let body: RawBody | null = null;
  let closed = false;
  const watchdog = createWatchdog(o.clock, 2 * o.pingMs, () => {
    h.silent();
    o.api.governor.log('warn', `stream ${o.eventId}: silent for ${2 * o.pingMs} ms, reconnecting`);
    lose({ kind: 'network', message: 'The live odds stream went silent; reconnecting.' });
  });
  const close = () => {
    if (closed) return;
    closed = true;
    body?.cancel();
    body = null;
    request.abort();
    watchdog.stop();
  };
  const lose = (error: AppError | null) => {
    if (closed) return;
    close();
    h.lost(error);
  };
  const guarded: ConnectionHandlers = {
    live: () => !closed && h.live(),
    // A message read after the connection was stopped (an `end` earlier in the same chunk) is not applied.
    message: (m) => !closed && h.message(m),
    retry: (ms) => !closed && h.retry(ms),
    silent: h.silent,
    lost: lose,
  };
  // connect() answers every failure it knows; anything else still ends the connection, never an unhandled rejection.
  connect(o, request.signal, guarded, {
    isClosed: () => closed,
    attach: (b) => {
      body = b;
      watchdog.touch();
    },
    touch: () => watchdog.touch(),
  }).catch(() => lose(null));
  return { close };
}

/** What connect() may do to its connection: see whether it was closed, hand over the body, note a sign of life. */
interface ConnectionSeat {
  isClosed(): boolean;
  attach(body: RawBody): void;
  touch(): void;
}

/** The open through the governor, then the body's chunks through the parser until it ends. */
async function connect(o: ConnectionOptions, signal: AbortSignal, h: ConnectionHandlers, seat: ConnectionSeat) {
  const { api, eventId } = o;
  const headers = new Headers({ Accept: 'text/event-stream', 'Cache-Control': 'no-store' });
  if (o.lastEventId !== null) headers.set('Last-Event-ID', String(o.lastEventId));
  const r = await api.governedFetch(
    PATHS.stream,
    api.url(PATHS.stream, { [PARAMS.stream.eventId]: eventId }),
    { headers, signal },
    {
      priority: 'high',
      purpose: 'stream',
      maxAttempts: 1,
      signal,
      ...(o.openTimeoutMs === undefined ? {} : { timeoutMs: o.openTimeoutMs }),
    },
  );
  if (seat.isClosed()) {
    if (r.ok) rawBodyOf(r.response)?.cancel();
    return;
  }
  if (!r.ok) return h.lost(r.error);
  const res = r.response;
  const body = rawBodyOf(res);
  // As EventSource: a 200 with an event stream, or the connection failed (and is opened again under the backoff).
  const type = res.headers.get('content-type') ?? '';
  if (res.status !== 200 || !type.startsWith('text/event-stream') || !body) {
    body?.cancel();
    const error: AppError = {
      kind: 'bad_payload',
      status: res.status,
      message: `The live odds stream of event ${eventId} answered ${res.status}${type ? ` with ${type.split(';')[0]}` : ''}, not an event stream; it will be opened again.`,
    };
    api.governor.log('warn', error.message);
    return h.lost(error);
  }
  seat.attach(body);
  h.live();
  readBody(o, body, h, seat);
}

/** The body's chunks, counted, decoded and parsed, as messages; the body's end or failure loses the connection. */
function readBody(o: ConnectionOptions, body: RawBody, h: ConnectionHandlers, seat: ConnectionSeat): void {
  // The parser holds a line until it ends and a message's data until its blank line: the bytes since then are
  // counted here, and a chunk that takes them past the cap never reaches the parser.
  const sizes = createMessageSizeGuard(o.maxMessageBytes);
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent: (m: EventSourceMessage) => h.message({ event: m.event ?? '', data: m.data, id: m.id ?? '' }),
    onRetry: (ms) => h.retry(ms),
  });
  body.start({
    data: (chunk) => {
      if (seat.isClosed()) return;
      // Any byte, a ping (an SSE comment) too, is a sign of life for the watchdog.
      seat.touch();
      if (!sizes.feed(chunk)) {
        const error: AppError = {
          kind: 'bad_payload',
          message: `The live odds stream of event ${o.eventId} sent a line or message longer than ${byteSize(o.maxMessageBytes)}; the connection was dropped and will be opened again.`,
        };
        o.api.governor.log('warn', error.message);
        return h.lost(error);
      }
      parser.feed(decoder.decode(chunk, { stream: true }));
    },
    // The service closed the stream, or the connection broke: opened again under the backoff.
    end: () => h.lost(null),
    error: () => h.lost(null),
  });
}

/**
 * The silence watchdog of one connection: `touch` on every byte. One timer, not one per chunk: when it falls due it
 * looks at how long the line has really been quiet and waits out the rest if bytes came meanwhile (at 10 messages a
 * second per stream, a clear and a set per chunk was a measurable share of the host's time).
 */
function createWatchdog(clock: Clock, boundMs: number, silent: () => void): { touch(): void; stop(): void } {
  let timer: TimerHandle | null = null;
  let lastByteAt = 0;
  let stopped = false;
  const due = () => {
    timer = null;
    if (stopped) return;
    const quiet = clock.now() - lastByteAt;
    if (quiet < boundMs) {
      timer = clock.setTimeout(due, boundMs - quiet);
      return;
    }
    silent();
  };
  return {
    touch() {
      if (stopped) return;
      lastByteAt = clock.now();
      if (timer === null) timer = clock.setTimeout(due, boundMs);
    },
    stop() {
      stopped = true;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
  };
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
