// The server-sent events side of the simulator: open connections per event, snapshot or Last-Event-ID replay on
// connect, fan-out of the world's messages, `: ping` comments, and the stream faults (drop, stall, flap).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Access } from './access';
import type { StreamMessage, World } from './world';

interface Connection {
  res: ServerResponse;
  eventId: number;
  key: string;
  lastDropRealMs: number;
  /** Simulated instant at which a flapping connection is dropped; null when it does not flap. */
  flapAtSimMs: number | null;
  /** Output held back while a stall fault is in force; flushed when it ends, as a congested network would. */
  pending: string[];
  ping: NodeJS.Timeout | null;
  /** On the fault clock, when the last ping went out (pings on the simulated clock). */
  lastPingMs: number;
}

export interface StreamOptions {
  pingIntervalMs: number;
  /** Sent as `retry:` in the first chunk of every connection. */
  retryMs: number;
  /** Simulated seconds after its opening that a connection to this event is dropped, or null (the busy day's flap). */
  flapFor?(eventId: number, simMs: number): number | null;
  /** Pings follow the fault clock (the simulated one) instead of a real timer. */
  pingsOnFaultClock?: boolean;
}

export function formatMessage(m: { id: number; event: string; data: string }): string {
  return `id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n`;
}

export class StreamHub {
  private readonly byEvent = new Map<number, Set<Connection>>();
  private readonly faultTimer: NodeJS.Timeout;

  constructor(
    private readonly world: World,
    private readonly access: Access,
    private readonly options: StreamOptions,
    private readonly realNow: () => number,
    private readonly simNow: () => number,
  ) {
    this.faultTimer = setInterval(() => this.applyFaults(), 20);
    this.faultTimer.unref();
  }

  /**
   * Opens a stream the caller already authorised for an event in the book or gone from it. A usable Last-Event-ID
   * gets exactly the messages after it; anything else starts from a fresh snapshot.
   */
  open(req: IncomingMessage, res: ServerResponse, eventId: number, key: string, headers: Record<string, string>): void {
    const state = this.world.streamState(eventId);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      ...headers,
    });
    // Headers go out now even if a stall holds the body back: the client must see an open, silent connection.
    res.flushHeaders();
    const head = `retry: ${this.options.retryMs}\n\n`;
    if (state.kind !== 'live') {
      // The event left the book: say so and hang up; the client must not come back.
      const reason = state.kind === 'gone' ? state.reason : 'removed';
      const id = state.kind === 'gone' ? state.endId : 0;
      res.end(head + formatMessage({ id, event: 'end', data: JSON.stringify({ event_id: eventId, reason }) }));
      return;
    }
    const flapS = this.access.faultsFor(key).flapStreamS ?? this.options.flapFor?.(eventId, this.simNow()) ?? null;
    const conn: Connection = {
      res,
      eventId,
      key,
      lastDropRealMs: this.realNow(),
      flapAtSimMs: flapS === null ? null : this.simNow() + flapS * 1000,
      pending: [],
      lastPingMs: this.realNow(),
      ping: this.options.pingsOnFaultClock
        ? null
        : setInterval(() => this.write(conn, ': ping\n\n', true), this.options.pingIntervalMs),
    };
    let set = this.byEvent.get(eventId);
    if (!set) this.byEvent.set(eventId, (set = new Set()));
    set.add(conn);
    res.on('close', () => this.forget(conn));
    this.write(conn, head + this.opening(eventId, state.lastId, state.buffer, req.headers['last-event-id']));
    // Right after the opening means after its bytes left: a drop must not swallow the snapshot it follows.
    this.flapIfDue(conn);
  }

  /** Drops a flapping connection once its time came and everything it was sent has left (its snapshot included). */
  private flapIfDue(conn: Connection): void {
    if (conn.flapAtSimMs === null || this.simNow() < conn.flapAtSimMs || conn.pending.length) return;
    conn.flapAtSimMs = null;
    conn.res.write('', () => this.drop(conn));
  }

  private drop(conn: Connection): void {
    conn.res.destroy();
    this.forget(conn);
  }

  private opening(
    eventId: number,
    lastId: number,
    buffer: readonly StreamMessage[],
    lastEventId: string | string[] | undefined,
  ): string {
    const text = Array.isArray(lastEventId) ? lastEventId[0] : lastEventId;
    const seen = text !== undefined && /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
    if (seen !== null && seen <= lastId) {
      const oldest = buffer[0]?.id ?? lastId + 1;
      // Replay only when every message after `seen` is still buffered; a gap would silently corrupt the client.
      if (seen + 1 >= oldest)
        return buffer
          .filter((m) => m.id > seen)
          .map(formatMessage)
          .join('');
    }
    const snapshot = this.world.eventOdds(eventId);
    return formatMessage({ id: lastId, event: 'snapshot', data: JSON.stringify(snapshot) });
  }

  deliver(eventId: number, message: StreamMessage): void {
    const set = this.byEvent.get(eventId);
    if (!set) return;
    const text = formatMessage(message);
    for (const conn of [...set]) {
      this.write(conn, text);
      if (message.event === 'end') {
        this.flush(conn, true);
        conn.res.end();
        this.forget(conn);
      }
    }
  }

  private stalled(conn: Connection): boolean {
    const until = this.access.faultsFor(conn.key).stallUntilRealMs;
    return until !== undefined && this.realNow() < until;
  }

  private write(conn: Connection, text: string, isPing = false): void {
    if (this.stalled(conn)) {
      // A stalled connection sends nothing at all, pings included; data waits.
      if (!isPing) conn.pending.push(text);
      return;
    }
    this.flush(conn, false);
    conn.res.write(text);
  }

  private flush(conn: Connection, force: boolean): void {
    if (!conn.pending.length || (!force && this.stalled(conn))) return;
    conn.res.write(conn.pending.join(''));
    conn.pending = [];
  }

  /** Drops and flushes what is due; runs on a short real timer and after every move of the simulated clock. */
  applyFaults(): void {
    const now = this.realNow();
    for (const set of this.byEvent.values()) {
      for (const conn of [...set]) {
        const faults = this.access.faultsFor(conn.key);
        if (faults.dropStreamEveryMs && now - conn.lastDropRealMs >= faults.dropStreamEveryMs) {
          this.drop(conn);
          continue;
        }
        this.flush(conn, false);
        if (this.options.pingsOnFaultClock && now - conn.lastPingMs >= this.options.pingIntervalMs) {
          conn.lastPingMs = now;
          this.write(conn, ': ping\n\n', true);
        }
        this.flapIfDue(conn);
      }
    }
  }

  private forget(conn: Connection): void {
    if (conn.ping) clearInterval(conn.ping);
    const set = this.byEvent.get(conn.eventId);
    if (!set) return;
    set.delete(conn);
    if (!set.size) this.byEvent.delete(conn.eventId);
  }

  /** Events with at least one open connection, in no particular order. */
  openEventIds(): number[] {
    return [...this.byEvent.keys()];
  }

  openCount(): number {
    let n = 0;
    for (const set of this.byEvent.values()) n += set.size;
    return n;
  }

  close(): void {
    clearInterval(this.faultTimer);
    for (const set of this.byEvent.values()) {
      for (const conn of [...set]) {
        conn.res.destroy();
        this.forget(conn);
      }
    }
  }
}
