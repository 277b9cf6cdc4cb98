// Hot data is batched at the source: stream updates are folded into the latest value per market (per event), and
// handed on in one batch per tick, at most every `intervalMs`, instead of one message per update.
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

  const flush = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    if (pending.size === 0) return;
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
      if (timer === null) timer = clock.setTimeout(flush, intervalMs);
    },
    flush,
    close() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}
