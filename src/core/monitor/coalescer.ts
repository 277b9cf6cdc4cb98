// Hot data is batched at the source, and this is the host's one pacing stage for what the streams deliver: stream
// updates are folded into the latest value per market (per event), with the event's latest score and its stream's
// end, and handed on in one batch per tick, at most every `intervalMs`, instead of one message per update. A quiet
// line does not wait: an update that finds the last batch `intervalMs` or more ago goes with the turn's batch at once
// (a timer of 0: what arrived in the same read of the sockets goes together); a busy one is handed on every
// `intervalMs`. Within an event the order is kept as the page needs it: markets, then the score, then the end.
import type { EventOdds, Market } from '../../shared/api';
import type { Clock, TimerHandle } from '../clock';

export interface CoalescedScore {
  liveStatus: number;
  scoreHome: number | null;
  scoreAway: number | null;
}

/** A snapshot's word on its event (teams, league, start, state, score): the header of a replaced row. */
export type SnapshotHeader = Omit<EventOdds, 'markets'>;

export interface CoalescedEvent {
  eventId: number;
  markets: Market[];
  /** A snapshot replaced the event's state since the last batch. */
  replace: boolean;
  /** With `replace`: the latest snapshot's header (the store may not have written it yet). */
  snapshot?: SnapshotHeader;
  /** The event's latest score since the last batch, if one came. */
  score?: CoalescedScore;
  /** The event's stream ended since the last batch (why): after everything else of the event. */
  ended?: string;
}

export interface Coalescer {
  add(eventId: number, markets: readonly Market[], replace?: boolean, snapshot?: SnapshotHeader): void;
  score(eventId: number, score: CoalescedScore): void;
  end(eventId: number, reason: string): void;
  /** Hands on whatever is pending now. */
  flush(): void;
  close(): void;
}

interface Pending {
  markets: Map<number, Market>;
  replace: boolean;
  snapshot?: SnapshotHeader;
  score?: CoalescedScore;
  ended?: string;
}

export function createCoalescer(clock: Clock, intervalMs: number, sink: (batch: CoalescedEvent[]) => void): Coalescer {
  let pending = new Map<number, Pending>();
  let timer: TimerHandle | null = null;
  let lastFlush = -Infinity;

  const flush = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    if (pending.size === 0) return;
    lastFlush = clock.now();
    const batch = [...pending].map(([eventId, p]): CoalescedEvent => {
      const e: CoalescedEvent = { eventId, markets: [...p.markets.values()], replace: p.replace };
      if (p.snapshot) e.snapshot = p.snapshot;
      if (p.score) e.score = p.score;
      if (p.ended !== undefined) e.ended = p.ended;
      return e;
    });
    pending = new Map();
    sink(batch);
  };

  const entry = (eventId: number): Pending => {
    let p = pending.get(eventId);
    if (!p) pending.set(eventId, (p = { markets: new Map(), replace: false }));
    if (timer === null) timer = clock.setTimeout(flush, Math.max(0, lastFlush + intervalMs - clock.now()));
    return p;
  };

  return {
    add(eventId, markets, replace = false, snapshot) {
      let p = entry(eventId);
      if (replace) {
        // A snapshot stands for everything before it; a stream that ended and came back is no longer ended.
        p = {
          markets: new Map(),
          replace: true,
          ...(snapshot ? { snapshot } : {}),
          ...(p.score ? { score: p.score } : {}),
        };
        pending.set(eventId, p);
      }
      for (const m of markets) p.markets.set(m.line_id, m);
    },
    score(eventId, score) {
      entry(eventId).score = score;
    },
    end(eventId, reason) {
      entry(eventId).ended = reason;
    },
    flush,
    close() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}
