// Derived reads of the store shared by views and keyboard handling: which lines are an event's main lines, the watch
// ids in the order the grid shows them (by the trader's sort: an event's facts, or any price, line or figure the grid
// shows), and why a row shows no price. Pure functions of the state, cheap enough to run every frame.
import { parseServiceTime } from '../../../shared/api';
import type { EventView, MarketView, MoverRow, PriceSide } from '../../../shared/domain';
import { STREAM_GONE } from '../../../shared/ipc/contract';
import { DEFAULT_GRID_LAYOUT, type GridLayout, type GridSortKey } from '../../../shared/gridLayout';
import { fairPrices, marketKind } from '../../../shared/trading';
import type { StoreState } from './index';
import { endedOf, marketKey, streamOf } from './watchlist';

export interface MainLines {
  ml: number | null;
  spread: number | null;
  total: number | null;
}

const imbalance = (a: number | undefined, b: number | undefined) =>
  a && b ? Math.abs(a - b) : Number.POSITIVE_INFINITY;

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

/** The grid's layout as this profile keeps it (settings:get), the default until the settings arrive. */
export const gridLayoutOf = (s: StoreState): GridLayout => s.settings?.gridLayout ?? DEFAULT_GRID_LAYOUT;

/** A market's updated_at parsed once: a market object is replaced when it changes, so the answer is kept with it. */
const serviceTimes = new WeakMap<MarketView, number | null>();
function serviceTimeOf(m: MarketView): number | null {
  let t = serviceTimes.get(m);
  if (t === undefined) serviceTimes.set(m, (t = m.updatedAt ? parseServiceTime(m.updatedAt) : null));
  return t;
}

/**
 * When the freshest of these lines' prices was set, on this machine's clock: the service's updated_at moved by the
 * measured clock skew, else when we received it. Null: none of them is held.
 */
export function latestPriceTime(s: StoreState, eventId: number, lines: MainLines): number | null {
  const skew = s.status?.quota.clockSkewMs ?? 0;
  let latest: number | null = null;
  for (const id of [lines.ml, lines.spread, lines.total]) {
    if (id === null) continue;
    const m = s.markets[marketKey(eventId, id)];
    if (!m) continue;
    const service = serviceTimeOf(m);
    const t = service !== null ? Math.min(service - skew, m.seenAt) : m.seenAt;
    if (latest === null || t > latest) latest = t;
  }
  return latest;
}

/**
 * The Move column: of an event's moneyline in a period, the side whose fair price moved most in the last 15 minutes
 * (the Top movers measure, from movers:list), or null when none has a 15-minute move yet.
 */
export function eventMove(s: StoreState, eventId: number, period: number): MoverRow | null {
  return moveOf(s.gridMoves[eventId], period);
}

/** eventMove of one event's movers (the grid's Move cell holds them and asks again only when they change). */
export function moveOf(rows: readonly MoverRow[] | undefined, period: number): MoverRow | null {
  let best: MoverRow | null = null;
  for (const r of rows ?? []) {
    if (r.period !== period || r.move15 === null || marketKind(r.market) !== 'moneyline') continue;
    if (best === null || Math.abs(r.move15) > Math.abs(best.move15!)) best = r;
  }
  return best;
}

/** Sort keys read from the live lines (their order changes as prices move), and the side or line each reads. */
const PRICE_SORT: Partial<Record<GridSortKey, { lines: keyof MainLines; side?: PriceSide; line?: true; fair?: true }>> =
  {
    home: { lines: 'ml', side: 'home' },
    draw: { lines: 'ml', side: 'draw' },
    away: { lines: 'ml', side: 'away' },
    fairHome: { lines: 'ml', side: 'home', fair: true },
    fairDraw: { lines: 'ml', side: 'draw', fair: true },
    fairAway: { lines: 'ml', side: 'away', fair: true },
    spreadLine: { lines: 'spread', line: true },
    spreadHome: { lines: 'spread', side: 'home' },
    spreadAway: { lines: 'spread', side: 'away' },
    totalLine: { lines: 'total', line: true },
    over: { lines: 'total', side: 'over' },
    under: { lines: 'total', side: 'under' },
  };
const readsMarkets = (key: GridSortKey) => key in PRICE_SORT || key === 'maxWin' || key === 'age' || key === 'move';

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
 * Watch ids filtered by the grid's text and live filter, in the trader's sort order. Every store update runs it (the
 * grid subscribes), and odds come every frame: the last answer is kept while what it reads is the same objects
 * (the markets too only when sorting by something read from them: a price, a line, the age, the max stake).
 */
let lastVisible: { inputs: unknown[]; ids: number[] } | null = null;
export function selectVisibleWatchIds(s: StoreState): number[] {
  const { key, dir } = gridLayoutOf(s).sort;
  const inputs = [
    s.watchIds,
    s.watchEvents,
    s.watchFilter,
    s.watchLiveOnly,
    key,
    dir,
    ...(readsMarkets(key) ? [s.markets, s.watchPeriod, s.lineIdsByEvent] : []),
    ...(key.startsWith('fair') ? [s.devigModel] : []),
    ...(key === 'move' ? [s.gridMoves] : []),
    ...(key === 'age' ? [s.status?.quota.clockSkewMs] : []),
  ];
  if (lastVisible && lastVisible.inputs.length === inputs.length && lastVisible.inputs.every((x, i) => x === inputs[i]))
    return lastVisible.ids;
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
    return [e.runnerHome, e.runnerAway, e.leagueName, e.sportName, String(e.eventId)].some((t) =>
      t?.toLowerCase().includes(q),
    );
  });
  const { key, dir } = gridLayoutOf(s).sort;
  const period = s.watchPeriod;
  /** The row's value for the sort; null (nothing to sort by: no price, no line) goes last either way. */
  const val = (id: number): string | number | null => {
    const e = s.watchEvents[id]!;
    const price = PRICE_SORT[key];
    if (price) {
      const lineId = mainLines(s, id, period)[price.lines];
      const m = lineId === null ? undefined : s.markets[marketKey(id, lineId)];
      if (!m) return null;
      if (price.line) return m.line;
      if (price.fair) return fairPrices(m.prices, s.devigModel)?.[price.side!] ?? null;
      return m.prices?.[price.side!] ?? null;
    }
    switch (key) {
      case 'event':
        return `${e.runnerHome ?? ''} ${e.runnerAway ?? ''}`.toLowerCase();
      case 'league':
        return (e.leagueName ?? '').toLowerCase();
      case 'start':
        return e.starts;
      case 'score':
        return e.scoreHome === null || e.scoreAway === null ? null : e.scoreHome + e.scoreAway;
      case 'maxWin':
        return eventMaxWin(s, id, period);
      case 'added':
        return e.addedAt;
      case 'age': {
        // Ascending: the freshest price first.
        const at = latestPriceTime(s, id, mainLines(s, id, period));
        return at === null ? null : -at;
      }
      case 'move':
        // Ascending: the biggest shortening first (steam), then the drifts.
        return eventMove(s, id, period)?.move15 ?? null;
      default:
        return null;
    }
  };
  return ids
    .map((id) => ({ id, v: val(id) }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? a.id - b.id : a.v === null ? 1 : -1;
      return a.v < b.v ? -dir : a.v > b.v ? dir : a.id - b.id;
    })
    .map((x) => x.id);
}

/**
 * Why a watched row shows no price, as one code (cheap to compare on every store update); null while the row shows at
 * least one price of its main lines. Ended first (nothing will come back), then the connection (the page's to the
 * host, the host's to the service), then the event's stream, then what the stream says of the markets.
 */
export type NoPriceReason =
  | 'other_match'
  | 'settled'
  | 'removed'
  | 'gone'
  | 'ended'
  | 'full_time'
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

/**
 * Whether the stream says play is over: not live (live_status 0) with a score, so the match was played (a match not
 * yet started has no score). From that moment the row reads "Full time, settling", never "Suspended", until the
 * settlement (or the stream's end) makes it FT. An abandoned match reads the same until its void settlement comes.
 */
export function isFullTime(ev: Pick<EventView, 'liveStatus' | 'scoreHome' | 'scoreAway'> | undefined): boolean {
  return !!ev && ev.liveStatus === 0 && ev.scoreHome !== null && ev.scoreAway !== null;
}

export function noPriceReason(s: StoreState, eventId: number, period: number): NoPriceReason | null {
  const lines = mainLines(s, eventId, period);
  return noPriceReasonOf(s, eventId, lines, hasMainPrice(s, eventId, lines));
}

/** Whether any of these main lines shows a price (a market held, and not offline). */
export function hasMainPrice(s: StoreState, eventId: number, lines: MainLines): boolean {
  for (const id of [lines.ml, lines.spread, lines.total])
    if (id !== null && s.markets[marketKey(eventId, id)]?.prices) return true;
  return false;
}

/**
 * noPriceReason with the price-dependent parts (the main lines, and whether one shows a price) worked out by the
 * caller: the grid's row keeps those from the market changes of its own event, and asks this on every store update,
 * where it reads only the event, the connection and the stream.
 */
export function noPriceReasonOf(
  s: StoreState,
  eventId: number,
  lines: MainLines,
  priced: boolean,
): NoPriceReason | null {
  const ev = s.watchEvents[eventId];
  if (!ev) return null;
  if (ev.otherMatch) return 'other_match';
  const ended = endedOf(s, eventId);
  if (ev.settled || ended === 'settled') return 'settled';
  if (ended === 'removed') return 'removed';
  if (ended === STREAM_GONE) return 'gone';
  if (ended !== null) return 'ended';
  if (isFullTime(ev)) return 'full_time';
  if (priced) return null;
  if (!s.hostConnected) return 'host';
  if (s.status?.connection === 'offline') return 'offline';
  const stream = streamOf(s, eventId)?.state;
  if (
    stream === 'restricted' ||
    (stream === undefined && s.status?.restricted.some((r) => r.path === '/api/stream/event'))
  )
    return 'restricted';
  if (stream === 'connecting' || stream === 'reconnecting' || stream === 'failing' || stream === 'failed')
    return stream;
  if ((s.lineIdsByEvent[eventId] ?? []).length === 0) return 'not_offered';
  if (lines.ml === null && lines.spread === null && lines.total === null) return 'no_lines';
  return 'suspended';
}

/** A reason in a trader's words: a short text for the row and the detail for its tooltip. */
export const NO_PRICE_WORDS: Record<NoPriceReason, { text: string; detail: string }> = {
  settled: {
    text: 'Ended · settled',
    detail: 'The match has ended and left the book: no more prices. Its result is in Settlements.',
  },
  other_match: {
    text: 'Id now names another match',
    detail:
      "The service now uses this event's id for another match (the row's flag names it). This row keeps the match you watched, its close, bets, settlement and snooze; nothing of the other match is stored or shown here, and its stream is stopped (no quota is spent on it). Remove the watch when you are done with it.",
  },
  gone: {
    text: 'Gone from the service',
    detail:
      'The service no longer knows this event (its book was restarted, or the event was withdrawn): no more prices, and no result unless its settlement comes. Remove the watch when you are done with it.',
  },
  full_time: {
    text: 'Full time, settling',
    detail: 'The stream says play is over; the result and the settlement follow within minutes.',
  },
  removed: {
    text: 'Taken off the book',
    detail: 'The service took this event off its book (postponed, cancelled or withdrawn): no more prices.',
  },
  ended: { text: 'Ended', detail: 'The stream says this event has ended: no more prices.' },
  host: {
    text: 'No connection to Oddsdesk',
    detail: 'This page has lost its connection to Oddsdesk; prices come back when it reconnects.',
  },
  offline: {
    text: 'Service offline',
    detail: 'The odds service cannot be reached; prices come back when it answers again.',
  },
  restricted: {
    text: 'Needs the enterprise plan',
    detail: "Live odds streams need the enterprise plan, and this key's plan does not include them.",
  },
  connecting: {
    text: 'Connecting…',
    detail: "Opening this event's live odds stream; prices appear with its first message.",
  },
  reconnecting: {
    text: 'Stream reconnecting…',
    detail: 'The live odds stream dropped; it reconnects by itself, and prices come back with it.',
  },
  failing: {
    text: 'Stream failing, retrying later',
    detail: 'The live odds stream kept dropping; it rests and reconnects by itself within the hour.',
  },
  failed: {
    text: 'Stream stopped',
    detail:
      "The service refused this event's live odds stream (the status bar says why). Remove the watch if the event is gone.",
  },
  not_offered: {
    text: 'Not offered yet',
    detail: 'The service offers no markets for this event yet; prices appear here as soon as it does.',
  },
  no_lines: {
    text: 'No lines for this period',
    detail: 'This event has no moneyline, spread or total for the period chosen above.',
  },
  suspended: {
    text: 'Suspended',
    detail:
      "The service has taken this event's main markets off (suspended, or not offered in play now); prices come back when it offers them again.",
  },
};
