// Latest value wins, for odds on their way to the screen: wherever odds batches can wait (the page between two
// frames, the bridge while a socket drains, a window that is behind), they are folded into one entry per event
// holding the newest value of each market, the newest header, score and end, instead of being queued as batches to
// replay. A backlog then costs at most one entry per event and one market per line, however long it grew, and
// applying it ends exactly where applying every batch in order would have ended.
//
// Folding rules within one event, an earlier entry `a` then a later `b` (the same as the core's coalescer):
//   - `b.replace` (a snapshot) stands for everything before it: a's markets go, b's header and markets stay;
//   - otherwise b's markets replace a's line by line, lines new in b coming after a's (the grid's order of lines);
//   - the header, the score and the end are each the latest one given.
// Plain TypeScript: the page, the bridge and the desktop's push batcher share it.
import type { OddsBatch } from './contract';

export type OddsEntry = OddsBatch['events'][number];
type MarketOf = OddsEntry['markets'][number];

interface Folded {
  eventId: number;
  markets: Map<number, MarketOf>;
  replace: boolean;
  event?: OddsEntry['event'];
  score?: OddsEntry['score'];
  ended?: string;
}

export interface OddsFold {
  /** Folds a batch in; its events keep their place if already waiting, else go last. */
  add(batch: OddsBatch): void;
  /** The oldest waiting event's entry (taken out), or undefined when nothing waits. */
  shift(): OddsEntry | undefined;
  /**
   * Everything waiting, as one batch stamped with the newest batch's time (null when nothing waits); a lone batch that
   * nothing was folded into is handed on as it came.
   */
  takeAll(): OddsBatch | null;
  /** Events waiting. */
  readonly size: number;
  /** The host's time of the newest batch folded in since the fold was last empty (null when it is empty). */
  readonly newestAt: number | null;
  /** The host's time of the oldest batch still (partly) waiting (null when nothing waits). */
  readonly oldestAt: number | null;
  /** Batches folded in since the fold was last empty (how many batches were saved from replaying). */
  readonly batches: number;
}

function toEntry(f: Folded): OddsEntry {
  const e: OddsEntry = { eventId: f.eventId, markets: [...f.markets.values()] };
  if (f.replace) e.replace = true;
  if (f.event) e.event = f.event;
  if (f.score) e.score = f.score;
  if (f.ended !== undefined) e.ended = f.ended;
  return e;
}

export function createOddsFold(): OddsFold {
  const waiting = new Map<number, Folded>();
  let newestAt: number | null = null;
  let oldestAt: number | null = null;
  let batches = 0;
  /** The one batch folded in since the fold was empty, while there is only one: takeAll hands it on as it came. */
  let only: OddsBatch | null = null;

  const reset = () => {
    newestAt = null;
    oldestAt = null;
    batches = 0;
    only = null;
  };

  return {
    add(batch) {
      if (batch.events.length === 0) return;
      only = ++batches === 1 && waiting.size === 0 ? batch : null;
      newestAt = newestAt === null ? batch.at : Math.max(newestAt, batch.at);
      oldestAt = oldestAt === null ? batch.at : Math.min(oldestAt, batch.at);
      for (const e of batch.events) {
        let f = waiting.get(e.eventId);
        if (!f) waiting.set(e.eventId, (f = { eventId: e.eventId, markets: new Map(), replace: false }));
        if (e.replace) {
          f.markets.clear();
          f.replace = true;
        }
        for (const m of e.markets) {
          // A line that moved again goes where it was first (Map order); a line new to the event goes last.
          f.markets.set(m.lineId, m);
        }
        if (e.event) f.event = e.event;
        if (e.score) f.score = e.score;
        if (e.ended !== undefined) f.ended = e.ended;
      }
    },
    shift() {
      const first = waiting.values().next();
      if (first.done) return undefined;
      waiting.delete(first.value.eventId);
      only = null;
      if (waiting.size === 0) reset();
      return toEntry(first.value);
    },
    takeAll() {
      if (waiting.size === 0) return null;
      // Nothing was folded: the batch itself (the bridge serialises a push once for every page by its identity).
      const batch: OddsBatch = only ?? { events: [...waiting.values()].map(toEntry), at: newestAt ?? 0 };
      waiting.clear();
      reset();
      return batch;
    },
    get size() {
      return waiting.size;
    },
    get newestAt() {
      return newestAt;
    },
    get oldestAt() {
      return waiting.size ? oldestAt : null;
    },
    get batches() {
      return batches;
    },
  };
}
