// Line history slice: the recorded ticks of the lines whose charts are open. A line's history is fetched once when
// its chart opens; after that the odds pushes extend it (applyOdds calls extendLineSeries), so nothing re-fetches
// or re-sorts a whole history on a timer. Bounded over a trading day: the LINE_SERIES_KEEP most recently opened
// lines, each with its newest LINE_POINTS_KEEP points.
import type { StateCreator } from 'zustand';
import type { LineHistoryPoint, MarketView } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import { host } from '../host';
import type { StoreState } from './index';
import { marketKey } from './marketKey';

export const LINE_SERIES_KEEP = 8;
export const LINE_POINTS_KEEP = 5000;
/** Trimmed in steps, so a full series does not copy itself on every tick. */
const TRIM_SLACK = 500;

export interface LineSeries {
  /** Oldest first. */
  points: LineHistoryPoint[];
  /** The recorded history has arrived (points before that are live ticks only). */
  loaded: boolean;
  error: AppError | null;
}

export interface LineHistorySlice {
  /** Keyed by marketKey(eventId, lineId). */
  lineSeries: Record<string, LineSeries>;
  /** Keys, most recently opened first. */
  lineSeriesOrder: string[];
  /** Holds a line's series (fetching its history if it is not held yet) and marks it most recently used. */
  openLineSeries(eventId: number, lineId: number): void;
  /** Forget every series (after a reconnect, pushes may have been missed); open charts fetch again. */
  resetLineSeries(): void;
}

const trim = (points: LineHistoryPoint[]) =>
  points.length > LINE_POINTS_KEEP + TRIM_SLACK ? points.slice(-LINE_POINTS_KEEP) : points;

const pointOf = (m: MarketView): LineHistoryPoint => ({
  at: m.seenAt,
  line: m.line,
  prices: m.prices,
  maxWin: m.maxWin,
});

/**
 * The series after some pushed market updates: each held line gets the update as a point when it is newer than its
 * last one. Returns null when no held series changed (the common case: the open chart's line did not move).
 */
export function extendLineSeries(
  held: Record<string, LineSeries>,
  updates: Iterable<[key: string, market: MarketView]>,
): Record<string, LineSeries> | null {
  let next: Record<string, LineSeries> | null = null;
  for (const [key, m] of updates) {
    const series = (next ?? held)[key];
    if (!series) continue;
    const last = series.points[series.points.length - 1];
    if (last && m.seenAt <= last.at) continue;
    next ??= { ...held };
    next[key] = { ...series, points: trim([...series.points, pointOf(m)]) };
  }
  return next;
}

export const createLineHistorySlice: StateCreator<StoreState, [], [], LineHistorySlice> = (set, get) => ({
  lineSeries: {},
  lineSeriesOrder: [],
  openLineSeries(eventId, lineId) {
    const key = marketKey(eventId, lineId);
    const s = get();
    const order = [key, ...s.lineSeriesOrder.filter((k) => k !== key)];
    const dropped = order.splice(LINE_SERIES_KEEP);
    if (s.lineSeries[key]) {
      if (s.lineSeriesOrder[0] !== key) set({ lineSeriesOrder: order });
      return;
    }
    // The line's latest tick may be on screen before it is on disk (the core pushes first): it starts the series.
    const latest = s.markets[key];
    const lineSeries = {
      ...s.lineSeries,
      [key]: { points: latest ? [pointOf(latest)] : [], loaded: false, error: null },
    };
    for (const k of dropped) delete lineSeries[k];
    set({ lineSeries, lineSeriesOrder: order });
    void host.invoke('event:lineHistory', eventId, lineId).then((r) => {
      const cur = get().lineSeries[key];
      if (!cur || cur.loaded) return; // evicted or reset meanwhile: a later open fetches again
      let next: LineSeries;
      if (r.ok) {
        // Sorted once, here; live ticks that arrived while the history was on its way follow it.
        const history = [...r.value].sort((a, b) => a.at - b.at);
        const lastAt = history[history.length - 1]?.at ?? Number.NEGATIVE_INFINITY;
        next = { points: trim([...history, ...cur.points.filter((p) => p.at > lastAt)]), loaded: true, error: null };
      } else {
        next = { ...cur, loaded: true, error: r.error };
      }
      set({ lineSeries: { ...get().lineSeries, [key]: next } });
    });
  },
  resetLineSeries: () => set({ lineSeries: {}, lineSeriesOrder: [] }),
});
