// Derived reads of the store shared by views and keyboard handling: which lines are an event's main lines, and the
// watch ids in the order the grid shows them. Pure functions of the state, cheap enough to run every frame.
import type { MarketView } from '../../../shared/domain';
import type { StoreState } from './index';
import { marketKey } from './watchlist';

export interface MainLines {
  ml: number | null;
  spread: number | null;
  total: number | null;
}

const imbalance = (a: number | undefined, b: number | undefined) => (a && b ? Math.abs(a - b) : Number.POSITIVE_INFINITY);

/** The main line of a market kind in a period: the most balanced priced one (ties: the lowest line id). */
export function mainLines(s: StoreState, eventId: number, period: number): MainLines {
  const out: MainLines = { ml: null, spread: null, total: null };
  let bestSpread = Number.POSITIVE_INFINITY;
  let bestTotal = Number.POSITIVE_INFINITY;
  for (const lineId of s.lineIdsByEvent[eventId] ?? []) {
    const m = s.markets[marketKey(eventId, lineId)];
    if (!m || m.period !== period) continue;
    if (m.market === 'moneyline') {
      if (out.ml === null || lineId < out.ml) out.ml = lineId;
    } else if (m.market === 'spread') {
      const d = imbalance(m.prices?.home, m.prices?.away);
      if (out.spread === null || d < bestSpread || (d === bestSpread && lineId < out.spread)) {
        out.spread = lineId;
        bestSpread = d;
      }
    } else if (m.market === 'totals') {
      const d = imbalance(m.prices?.over, m.prices?.under);
      if (out.total === null || d < bestTotal || (d === bestTotal && lineId < out.total)) {
        out.total = lineId;
        bestTotal = d;
      }
    }
  }
  return out;
}

export function eventMaxWin(s: StoreState, eventId: number, period: number): number | null {
  const { ml } = mainLines(s, eventId, period);
  return ml === null ? null : (s.markets[marketKey(eventId, ml)]?.maxWin ?? null);
}

/** Periods an event has lines for, sorted. */
export function eventPeriods(s: StoreState, eventId: number): number[] {
  const set = new Set<number>();
  for (const lineId of s.lineIdsByEvent[eventId] ?? []) {
    const m: MarketView | undefined = s.markets[marketKey(eventId, lineId)];
    if (m) set.add(m.period);
  }
  return [...set].sort((a, b) => a - b);
}

/**
 * Watch ids filtered by the grid's text and live filter, in the grid's sort order. Every store update runs it (the
 * grid subscribes), and odds come every frame: the last answer is kept while what it reads is the same objects
 * (the markets too only when sorting by max_win).
 */
let lastVisible: { inputs: unknown[]; ids: number[] } | null = null;
export function selectVisibleWatchIds(s: StoreState): number[] {
  const inputs = [s.watchIds, s.watchEvents, s.watchFilter, s.watchLiveOnly, s.watchSort, ...(s.watchSort.key === 'maxWin' ? [s.markets, s.watchPeriod, s.lineIdsByEvent] : [])];
  if (lastVisible && lastVisible.inputs.length === inputs.length && lastVisible.inputs.every((x, i) => x === inputs[i])) return lastVisible.ids;
  const ids = visibleWatchIds(s);
  lastVisible = { inputs, ids };
  return ids;
}

function visibleWatchIds(s: StoreState): number[] {
  const q = s.watchFilter.trim().toLowerCase();
  const ids = s.watchIds.filter((id) => {
    const e = s.watchEvents[id];
    if (!e) return false;
    if (s.watchLiveOnly && e.liveStatus !== 1) return false;
    if (!q) return true;
    return [e.runnerHome, e.runnerAway, e.leagueName, e.sportName, String(e.eventId)].some((t) => t?.toLowerCase().includes(q));
  });
  const { key, dir } = s.watchSort;
  const val = (id: number): string | number => {
    const e = s.watchEvents[id]!;
    switch (key) {
      case 'event':
        return `${e.runnerHome ?? ''} ${e.runnerAway ?? ''}`.toLowerCase();
      case 'league':
        return (e.leagueName ?? '').toLowerCase();
      case 'start':
        return e.starts ?? Number.POSITIVE_INFINITY;
      case 'score':
        return (e.scoreHome ?? -1) + (e.scoreAway ?? -1);
      case 'maxWin':
        return eventMaxWin(s, id, s.watchPeriod) ?? -1;
      case 'added':
        return e.addedAt;
    }
  };
  return ids
    .map((id) => ({ id, v: val(id) }))
    .sort((a, b) => (a.v < b.v ? -dir : a.v > b.v ? dir : a.id - b.id))
    .map((x) => x.id);
}
