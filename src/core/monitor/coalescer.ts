// Hot data is batched at the source: stream updates are folded into the latest value per market (per event), and
// handed on in one batch per tick, at most every `intervalMs`, instead of one message per update. A quiet line does
// not wait: an update that finds the last batch `intervalMs` or more ago goes with the turn's batch at once (a timer
// of 0: what arrived in the same read of the sockets goes together); a busy one is handed on every `intervalMs`.
import type { Market } from '../../shared/api';
import type { Clock, TimerHandle } from '../clock';

export interface CoalescedEvent {
  eventId: number;
  markets: Market[];
  /** A snapshot replaced the event's state since the last batch. */
  replace: boolean;
}

export interface Coalescer {
  add(eventId: number, markets: readonly Market[], replace?: boolean): void;
  /** Hands on whatever is pending now. */
  flush(): void;
  close(): void;
}

export function createCoalescer(clock: Clock, intervalMs: number, sink: (batch: CoalescedEvent[]) => void): Coalescer {
  let pending = new Map<number, { markets: Map<number, Market>; replace: boolean }>();
  let timer: TimerHandle | null = null;
  let lastFlush = -Infinity;

  const flush = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    if (pending.size === 0) return;
    lastFlush = clock.now();
    const batch = [...pending].map(([eventId, p]) => ({ eventId, markets: [...p.markets.values()], replace: p.replace }));
    pending = new Map();
    sink(batch);
  };

  return {
    add(eventId, markets, replace = false) {
      let entry = pending.get(eventId);
      if (!entry || replace) {
        entry = { markets: new Map(), replace: replace || (entry?.replace ?? false) };
        pending.set(eventId, entry);
      }
      for (const m of markets) entry.markets.set(m.line_id, m);
      if (timer === null) timer = clock.setTimeout(flush, Math.max(0, lastFlush + intervalMs - clock.now()));
    },
    flush,
    close() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}
