// The grid's keyed change channel. A store update runs every subscriber of the store, so a price cell that listened
// to the store did work on every tick of every market; here the watchlist slice says, once per applied frame and
// after its set(), exactly which market keys (marketKey(eventId, lineId)) and which events it changed, and only
// their listeners run. Price cells, ages, scores, max stakes and fair prices listen to their own key or event and
// write the DOM themselves; React renders only the grid's structure.

import { countListeners } from '../listenerCounts';

type Listener = () => void;

const byMarket = new Map<string, Set<Listener>>();
const byEvent = new Map<number, Set<Listener>>();

function listen<K>(map: Map<K, Set<Listener>>, key: K, listener: Listener): () => void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}

/** A listener that throws is reported and skipped: the other cells of the frame still show their prices. */
function run(listeners: Set<Listener> | undefined): void {
  if (!listeners) return;
  for (const l of listeners) {
    try {
      l();
    } catch (e) {
      console.error(e);
    }
  }
}

export const marketBus = {
  /** Calls `listener` after each store update that changed this market (its prices, line, max stake or presence). */
  onMarket(key: string, listener: Listener): () => void {
    return listen(byMarket, key, listener);
  },
  /** Calls `listener` after each store update that changed anything of this event: a market, its header, score or end. */
  onEvent(eventId: number, listener: Listener): () => void {
    return listen(byEvent, eventId, listener);
  },
  /** Tells the listeners of these markets, then of these events (called by the watchlist slice after its set()). */
  emit(markets: Iterable<string>, events: Iterable<number>): void {
    for (const k of markets) run(byMarket.get(k));
    for (const id of events) run(byEvent.get(id));
  },
  /** Tells every listener (a whole new watchlist: rare, and cheaper than working out what differs). */
  emitAll(): void {
    for (const set of [...byMarket.values()]) run(set);
    for (const set of [...byEvent.values()]) run(set);
  },
  /** How many listeners are held (tests: a cell that unmounts leaves none behind). */
  size(): number {
    let n = 0;
    for (const set of byMarket.values()) n += set.size;
    for (const set of byEvent.values()) n += set.size;
    return n;
  },
};
countListeners('marketBus', () => marketBus.size());
