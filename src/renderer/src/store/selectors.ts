// Derived reads of the store shared by views and keyboard handling: which lines are an event's main lines, the watch
// ids in the order the grid shows them, and why a row shows no price. Pure functions of the state, cheap enough to
// run every frame.
import type { MarketView } from '../../../shared/domain';
import type { StoreState } from './index';
import { endedOf, marketKey, streamOf } from './watchlist';

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

/**
 * Why a watched row shows no price, as one code (cheap to compare on every store update); null while the row shows at
 * least one price of its main lines. Ended first (nothing will come back), then the connection (the page's to the
 * host, the host's to the service), then the event's stream, then what the stream says of the markets.
 */
export type NoPriceReason =
  | 'settled'
  | 'removed'
  | 'ended'
  | 'host'
  | 'offline'
  | 'restricted'
  | 'connecting'
  | 'reconnecting'
  | 'failing'
  | 'failed'
  | 'not_offered'
  | 'no_lines'
  | 'suspended';

export function noPriceReason(s: StoreState, eventId: number, period: number): NoPriceReason | null {
  const ev = s.watchEvents[eventId];
  if (!ev) return null;
  const ended = endedOf(s, eventId);
  if (ev.settled || ended === 'settled') return 'settled';
  if (ended === 'removed') return 'removed';
  if (ended !== null) return 'ended';
  const lines = mainLines(s, eventId, period);
  for (const id of [lines.ml, lines.spread, lines.total]) if (id !== null && s.markets[marketKey(eventId, id)]?.prices) return null;
  if (!s.hostConnected) return 'host';
  if (s.status?.connection === 'offline') return 'offline';
  const stream = streamOf(s, eventId)?.state;
  if (stream === 'restricted' || (stream === undefined && s.status?.restricted.some((r) => r.path === '/api/stream/event'))) return 'restricted';
  if (stream === 'connecting' || stream === 'reconnecting' || stream === 'failing' || stream === 'failed') return stream;
  if ((s.lineIdsByEvent[eventId] ?? []).length === 0) return 'not_offered';
  if (lines.ml === null && lines.spread === null && lines.total === null) return 'no_lines';
  return 'suspended';
}

/** A reason in a trader's words: a short text for the row and the detail for its tooltip. */
export const NO_PRICE_WORDS: Record<NoPriceReason, { text: string; detail: string }> = {
  settled: { text: 'Ended · settled', detail: 'The match has ended and left the book: no more prices. Its result is in Settlements.' },
  removed: { text: 'Taken off the book', detail: 'The service took this event off its book (postponed, cancelled or withdrawn): no more prices.' },
  ended: { text: 'Ended', detail: 'The stream says this event has ended: no more prices.' },
  host: { text: 'No connection to Oddsdesk', detail: 'This page has lost its connection to Oddsdesk; prices come back when it reconnects.' },
  offline: { text: 'Service offline', detail: 'The odds service cannot be reached; prices come back when it answers again.' },
  restricted: { text: 'Needs the enterprise plan', detail: "Live odds streams need the enterprise plan, and this key's plan does not include them." },
  connecting: { text: 'Connecting…', detail: "Opening this event's live odds stream; prices appear with its first message." },
  reconnecting: { text: 'Stream reconnecting…', detail: 'The live odds stream dropped; it reconnects by itself, and prices come back with it.' },
  failing: { text: 'Stream failing, retrying later', detail: 'The live odds stream kept dropping; it rests and reconnects by itself within the hour.' },
  failed: { text: 'Stream stopped', detail: "The service refused this event's live odds stream (the status bar says why). Remove the watch if the event is gone." },
  not_offered: { text: 'Not offered yet', detail: 'The service offers no markets for this event yet; prices appear here as soon as it does.' },
  no_lines: { text: 'No lines for this period', detail: 'This event has no moneyline, spread or total for the period chosen above.' },
  suspended: {
    text: 'Suspended',
    detail: "The service has taken this event's main markets off (suspended, or not offered in play now); prices come back when it offers them again.",
  },
};
