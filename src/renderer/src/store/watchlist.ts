// Watchlist slice: watched events normalised by eventId, their market lines by `${eventId}:${lineId}`, and the
// ordered ids. Pushed odds are folded as they arrive (latest value per market: src/shared/ipc/oddsFold.ts) and shown
// once per animation frame (see wiring.ts), within a per-frame budget: what does not fit waits folded, so a page that
// fell behind shows the latest prices at once instead of replaying what it missed. Also the grid's
// shape as the trader sets it (columns, order, sort: kept per profile by the core with the settings) and the Move
// column's data.
import type { StateCreator } from 'zustand';
import type { AppError } from '../../../shared/errors';
import type { EventView, MarketView, MoverRow, WatchedEventView } from '../../../shared/domain';
import { DEFAULT_GRID_LAYOUT, type GridColumn, type GridLayout, type GridSortKey } from '../../../shared/gridLayout';
import { marketKind } from '../../../shared/trading';
import { STREAM_GONE, type OddsBatch } from '../../../shared/ipc/contract';
import { createOddsFold, type OddsEntry, type OddsFold } from '../../../shared/ipc/oddsFold';
import { host } from '../host';
import type { StoreState } from './index';
import { extendLineSeries } from './lineHistory';
import { marketBus } from './marketBus';
import { marketKey } from './marketKey';
import type { GetStore, SetStore } from './slice';

// Views and selectors read the key from here, beside the slice that stores lines by it.
export { marketKey };

export interface WatchEvent extends EventView {
  addedAt: number;
  settled: boolean;
  /**
   * The stream's `end` reason ('settled', 'removed', ...) once the event left the book: its prices are no longer
   * live. Sticky for as long as the row is watched (no later push of the list or of odds takes it back).
   */
  ended: string | null;
  /**
   * Set when the service now uses this id for another match than the watched one, as the core decided it and keeps it
   * (WatchedEventView.otherMatch): that match's name, for the row's flag. Nothing of it reaches the row.
   */
  otherMatch?: string;
}

export interface WatchlistSlice {
  watchEvents: Record<number, WatchEvent>;
  watchIds: number[];
  /** Keyed by marketKey(eventId, lineId). */
  markets: Record<string, MarketView>;
  lineIdsByEvent: Record<number, number[]>;
  watchLoaded: boolean;
  watchError: AppError | null;
  loadWatchlist(): Promise<void>;
  setWatchlist(list: WatchedEventView[]): void;
  /** Folds a pushed batch into what waits for the next frame (latest value per market); applyOdds shows it. */
  queueOdds(batch: OddsBatch): void;
  /**
   * Folds these batches in and shows what waits, within the frame's budget; true when some still waits for the next
   * frame (the page's one pacer, wiring.ts, schedules it).
   */
  applyOdds(batches: OddsBatch[]): boolean;
  /**
   * How far the screen is behind the host's newest price (ms) when that is over a second; null when it keeps up.
   * The status bar says so, with the figure, until it has caught up.
   */
  screenBehindMs: number | null;
  addWatch(eventId: number): Promise<AppError | null>;
  removeWatch(eventId: number): Promise<AppError | null>;
  /** The Move column's data: each watched event's moneyline movers (movers:list), by event; asked for while shown. */
  gridMoves: Record<number, MoverRow[]>;
  loadGridMoves(): Promise<void>;
  /** The grid's columns (null: the default set that fits the width), kept for this profile. */
  setGridColumns(columns: GridColumn[] | null): Promise<AppError | null>;
  /** Sorts the grid by a key; the same key again reverses it. Kept for this profile. */
  sortGridBy(key: GridSortKey): Promise<AppError | null>;
}

/**
 * How long one frame may spend folding odds into the store (ms), and the clock it is read from. A frame is 16.7 ms at
 * 60 Hz; the store update, the price cells' DOM writes, style and paint need the rest. In steady load a frame's
 * odds fold in well under this; a backlog (a stalled page, a hidden tab coming back) is spread over frames instead of
 * one long task. Mutable for tests, which give it a clock of their own.
 */
export const oddsFrame = { budgetMs: 6, now: (): number => performance.now() };
/** Events applied between two reads of the clock. */
const CHECK_EVERY = 16;
/** The screen is said to be behind when what it shows is more than this much older than the host's newest price. */
export const SCREEN_BEHIND_MS = 1_000;

/** Why an event's stream ended, if it did: as pushed with the odds, else (after a reload) the stream's state. */
type StreamRow = NonNullable<StoreState['status']>['streams'][number];
const streamIndexes = new WeakMap<readonly StreamRow[], Map<number, StreamRow>>();
/**
 * An event's stream as the last status says, found by id (an index per status): every row asks twice on every
 * store update, which was a search of every stream each time.
 */
export function streamOf(s: StoreState, eventId: number): StreamRow | undefined {
  const streams = s.status?.streams;
  if (!streams) return undefined;
  let index = streamIndexes.get(streams);
  if (!index) streamIndexes.set(streams, (index = new Map(streams.map((x) => [x.eventId, x]))));
  return index.get(eventId);
}

export function endedOf(s: StoreState, eventId: number): string | null {
  const ev = s.watchEvents[eventId];
  if (ev?.ended) return ev.ended;
  const st = streamOf(s, eventId);
  if (st?.state === 'failed' && st.endReason === STREAM_GONE) return STREAM_GONE;
  return st?.state === 'ended' ? (st.endReason ?? 'ended') : null;
}

function splitEvent(w: WatchedEventView, ended: string | null = null): WatchEvent {
  const { markets: _markets, ...event } = w;
  return { ...event, ended };
}

/** What a snapshot's header says of an event; the watch's own facts (added, settled, ended) stay. */
function withHeader(ev: WatchEvent, h: EventView): WatchEvent {
  return {
    ...ev,
    sportId: h.sportId ?? ev.sportId,
    sportName: h.sportName ?? ev.sportName,
    leagueId: h.leagueId ?? ev.leagueId,
    leagueName: h.leagueName ?? ev.leagueName,
    runnerHome: h.runnerHome ?? ev.runnerHome,
    runnerAway: h.runnerAway ?? ev.runnerAway,
    starts: h.starts ?? ev.starts,
    liveStatus: h.liveStatus ?? ev.liveStatus,
    scoreHome: h.scoreHome ?? ev.scoreHome,
    scoreAway: h.scoreAway ?? ev.scoreAway,
  };
}

/**
 * The screen's lag behind the host's newest price, as the status bar shows it: given `at`, the host's time of the
 * oldest price still waiting or of the newest one just shown, the figure (ms) while it is over SCREEN_BEHIND_MS, null
 * once caught up; undefined when nothing needs to change. The host stamps batches with its wall clock, and the page
 * reads the same machine's.
 */
function createScreenLag(get: GetStore): (at: number | null) => number | null | undefined {
  /** When the behind figure was last shown, so a lagging screen updates it a few times a second, not every frame. */
  let lagShownAt = 0;
  return (at) => {
    const shown = get().screenBehindMs;
    const now = Date.now();
    const lag = at === null ? 0 : now - at;
    // A host on a virtual clock (tests) or another machine's skew is no measure of this screen.
    if (!(lag >= 0 && lag < 3_600_000) || lag <= SCREEN_BEHIND_MS) return shown === null ? undefined : null;
    if (shown !== null && now - lagShownAt < 250) return undefined;
    lagShownAt = now;
    return lag;
  };
}

/**
 * What one frame's share of the waiting odds changed: copies of the store's maps where something changed (null:
 * untouched), and the keys and events to tell the grid's cells after the set() (marketBus.ts).
 */
interface FrameChanges {
  markets: Record<string, MarketView> | null;
  events: Record<number, WatchEvent> | null;
  lineIds: Record<number, number[]> | null;
  /** The markets applied, for open charts (collected only while one is open). */
  appliedMarkets: Array<[string, MarketView]>;
  changedKeys: string[];
  changedEvents: Set<number>;
}

/** Applies one event's pushed odds (header, end, lines, score) to the frame's changes; an unwatched event is skipped. */
function applyEntry(s: StoreState, c: FrameChanges, e: OddsEntry, chartsOpen: boolean): void {
  let ev = (c.events ?? s.watchEvents)[e.eventId];
  if (!ev) return;
  c.changedEvents.add(e.eventId);
  if (e.event || (e.ended && ev.ended !== e.ended)) {
    c.events ??= { ...s.watchEvents };
    if (e.event) ev = withHeader(ev, e.event);
    if (e.ended) ev = { ...ev, ended: e.ended };
    c.events[e.eventId] = ev;
  }
  const markets = (c.markets ??= { ...s.markets });
  if (e.replace) {
    c.lineIds ??= { ...s.lineIdsByEvent };
    for (const id of c.lineIds[e.eventId] ?? []) {
      const k = marketKey(e.eventId, id);
      delete markets[k];
      c.changedKeys.push(k);
    }
    c.lineIds[e.eventId] = e.markets.map((m) => m.lineId);
  } else {
    const known = (c.lineIds ?? s.lineIdsByEvent)[e.eventId] ?? [];
    const added = e.markets.filter((m) => !(marketKey(e.eventId, m.lineId) in markets)).map((m) => m.lineId);
    if (added.length) {
      c.lineIds ??= { ...s.lineIdsByEvent };
      c.lineIds[e.eventId] = [...known, ...added];
    }
  }
  for (const m of e.markets) {
    const k = marketKey(e.eventId, m.lineId);
    markets[k] = m;
    c.changedKeys.push(k);
    if (chartsOpen) c.appliedMarkets.push([k, m]);
  }
  if (e.score && !ev.otherMatch) {
    c.events ??= { ...s.watchEvents };
    c.events[e.eventId] = { ...ev, ...e.score };
  }
}

/**
 * Takes what waits in the fold into the frame's changes, within the frame's budget. The budget bounds a frame by what
 * changed, never by how far behind the page is: whatever is left waits folded (latest value per market) and goes
 * first in the next frame, with whatever arrives meanwhile.
 */
function drainFold(s: StoreState, fold: OddsFold, chartsOpen: boolean): FrameChanges {
  const c: FrameChanges = {
    markets: null,
    events: null,
    lineIds: null,
    appliedMarkets: [],
    changedKeys: [],
    changedEvents: new Set<number>(),
  };
  const started = oddsFrame.now();
  let applied = 0;
  for (let e = fold.shift(); e; e = fold.shift()) {
    applied++;
    applyEntry(s, c, e, chartsOpen);
    if (applied % CHECK_EVERY === 0 && fold.size && oddsFrame.now() - started > oddsFrame.budgetMs) break;
  }
  return c;
}

/** Whether any chart is open: charts grow by the pushed ticks of their lines; without one nothing needs collecting. */
function anyChartOpen(s: StoreState): boolean {
  for (const _ in s.lineSeries) return true;
  return false;
}

/** Pushed odds: folded as they arrive, shown once per frame within its budget. */
function oddsActions(set: SetStore, get: GetStore): Pick<WatchlistSlice, 'queueOdds' | 'applyOdds'> {
  /** Odds waiting for a frame, folded to the latest value per market (src/shared/ipc/oddsFold.ts). */
  const fold = createOddsFold();
  const screenLag = createScreenLag(get);
  return {
    queueOdds(batch) {
      fold.add(batch);
    },

    applyOdds(incoming) {
      for (const b of incoming) fold.add(b);
      if (fold.size === 0) return false;
      const s = get();
      const chartsOpen = anyChartOpen(s);
      // The screen's honest age: how far what it shows now is behind the host's newest price (see screenLag).
      const newestAt = fold.newestAt;
      const { markets, events, lineIds, appliedMarkets, changedKeys, changedEvents } = drainFold(s, fold, chartsOpen);
      const lag = screenLag(fold.size ? fold.oldestAt : newestAt);
      const patch: Partial<StoreState> = lag === undefined ? {} : { screenBehindMs: lag };
      if (!markets) {
        if (lag !== undefined) set(patch);
        return fold.size > 0;
      }
      // Open charts grow by the pushed ticks of their lines (no re-fetch of the history).
      const lineSeries = chartsOpen ? extendLineSeries(s.lineSeries, appliedMarkets) : null;
      set({
        ...patch,
        markets,
        ...(events ? { watchEvents: events } : {}),
        ...(lineIds ? { lineIdsByEvent: lineIds } : {}),
        ...(lineSeries ? { lineSeries } : {}),
      });
      marketBus.emit(changedKeys, changedEvents);
      return fold.size > 0;
    },
  };
}

/** The grid's shape (columns, sort: kept with the profile's settings) and the Move column's data. */
function gridActions(
  set: SetStore,
  get: GetStore,
): Pick<WatchlistSlice, 'loadGridMoves' | 'setGridColumns' | 'sortGridBy'> {
  const layout = (): GridLayout => get().settings?.gridLayout ?? DEFAULT_GRID_LAYOUT;
  // Shown at once (the settings slice applies a patch locally first); the core keeps it with the profile.
  const saveLayout = (gridLayout: GridLayout) => get().updateSettings({ gridLayout });
  return {
    async loadGridMoves() {
      const r = await host.invoke('movers:list');
      if (!r.ok) return;
      const byEvent: Record<number, MoverRow[]> = {};
      for (const row of r.value) if (marketKind(row.market) === 'moneyline') (byEvent[row.eventId] ??= []).push(row);
      set({ gridMoves: byEvent });
    },

    setGridColumns(columns) {
      return saveLayout({ ...layout(), columns });
    },

    sortGridBy(key) {
      const cur = layout();
      return saveLayout({ ...cur, sort: { key, dir: cur.sort.key === key ? (cur.sort.dir === 1 ? -1 : 1) : 1 } });
    },
  };
}

/** Which events are watched: the list as the core has it, and a watch added or removed. */
function watchActions(
  set: SetStore,
  get: GetStore,
): Pick<WatchlistSlice, 'loadWatchlist' | 'setWatchlist' | 'addWatch' | 'removeWatch'> {
  return {
    async loadWatchlist() {
      const r = await host.invoke('watch:list');
      if (r.ok) get().setWatchlist(r.value);
      else set({ watchError: r.error, watchLoaded: true });
    },

    setWatchlist(list) {
      const prev = get().markets;
      const prevEvents = get().watchEvents;
      const watchEvents: Record<number, WatchEvent> = {};
      const markets: Record<string, MarketView> = {};
      const lineIdsByEvent: Record<number, number[]> = {};
      for (const w of list) {
        watchEvents[w.eventId] = splitEvent(w, prevEvents[w.eventId]?.ended ?? null);
        lineIdsByEvent[w.eventId] = w.markets.map((m) => m.lineId);
        for (const m of w.markets) {
          const k = marketKey(w.eventId, m.lineId);
          // Keep the object we already hold when nothing moved, so nothing downstream re-renders for it.
          const old = prev[k];
          markets[k] = old && old.seenAt === m.seenAt && old.prices === m.prices ? old : m;
        }
      }
      set({
        watchEvents,
        watchIds: list.map((w) => w.eventId),
        markets,
        lineIdsByEvent,
        watchLoaded: true,
        watchError: null,
      });
      marketBus.emitAll();
    },

    async addWatch(eventId) {
      const r = await host.invoke('watch:add', eventId);
      if (!r.ok) return r.error;
      const w = r.value;
      const s = get();
      if (!s.watchEvents[w.eventId]) {
        const markets = { ...s.markets };
        for (const m of w.markets) markets[marketKey(w.eventId, m.lineId)] = m;
        set({
          watchEvents: { ...s.watchEvents, [w.eventId]: splitEvent(w) },
          watchIds: [...s.watchIds, w.eventId],
          lineIdsByEvent: { ...s.lineIdsByEvent, [w.eventId]: w.markets.map((m) => m.lineId) },
          markets,
        });
        marketBus.emitAll();
      }
      return null;
    },

    async removeWatch(eventId) {
      const r = await host.invoke('watch:remove', eventId);
      if (!r.ok) return r.error;
      const s = get();
      const watchEvents = { ...s.watchEvents };
      delete watchEvents[eventId];
      const markets = { ...s.markets };
      for (const id of s.lineIdsByEvent[eventId] ?? []) delete markets[marketKey(eventId, id)];
      const lineIdsByEvent = { ...s.lineIdsByEvent };
      delete lineIdsByEvent[eventId];
      set({ watchEvents, watchIds: s.watchIds.filter((id) => id !== eventId), markets, lineIdsByEvent });
      marketBus.emitAll();
      return null;
    },
  };
}

export const createWatchlistSlice: StateCreator<StoreState, [], [], WatchlistSlice> = (set, get) => ({
  watchEvents: {},
  watchIds: [],
  markets: {},
  lineIdsByEvent: {},
  watchLoaded: false,
  watchError: null,
  gridMoves: {},
  screenBehindMs: null,
  ...gridActions(set, get),
  ...watchActions(set, get),
  ...oddsActions(set, get),
});
