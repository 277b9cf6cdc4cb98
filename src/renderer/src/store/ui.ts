// Selection and UI slice: the current view, the selected event, grid sort/filter, palette, theme and de-vig model
// (both kept locally too, so they work even before the core answers settings:get).
import type { StateCreator } from 'zustand';
import type { DevigModel } from '../../../shared/api';
import type { StoreState } from './index';

export const VIEWS = ['watchlist', 'movers', 'specials', 'outrights', 'settlements', 'bets', 'alerts', 'coverage', 'settings'] as const;
export type ViewName = (typeof VIEWS)[number];
export type SortKey = 'event' | 'league' | 'start' | 'score' | 'maxWin' | 'added';
export type Theme = 'dark' | 'light';

export interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error';
}

export interface UiSlice {
  view: ViewName;
  selectedEventId: number | null;
  /** Event detail pane shown for the selection (Enter opens it). */
  detailOpen: boolean;
  paletteOpen: boolean;
  /** The fixtures picker above the watchlist grid. */
  fixturesOpen: boolean;
  watchFilter: string;
  watchLiveOnly: boolean;
  watchSort: { key: SortKey; dir: 1 | -1 };
  /** Which period's main lines the grid shows. */
  watchPeriod: number;
  theme: Theme;
  devigModel: DevigModel;
  toasts: Toast[];
  setView(view: ViewName): void;
  selectEvent(eventId: number | null, openDetail?: boolean): void;
  setDetailOpen(open: boolean): void;
  setPaletteOpen(open: boolean): void;
  setFixturesOpen(open: boolean): void;
  setWatchFilter(text: string): void;
  setWatchLiveOnly(on: boolean): void;
  sortWatchBy(key: SortKey): void;
  setWatchPeriod(period: number): void;
  toast(text: string, tone?: Toast['tone']): void;
  dismissToast(id: number): void;
}

const stored = <T extends string>(key: string, allowed: readonly T[], fallback: T): T => {
  try {
    const v = localStorage.getItem(key);
    return v && (allowed as readonly string[]).includes(v) ? (v as T) : fallback;
  } catch {
    return fallback;
  }
};

let toastId = 1;

export const createUiSlice: StateCreator<StoreState, [], [], UiSlice> = (set, get) => ({
  view: 'watchlist',
  selectedEventId: null,
  detailOpen: true,
  paletteOpen: false,
  fixturesOpen: false,
  watchFilter: '',
  watchLiveOnly: false,
  watchSort: { key: 'start', dir: 1 },
  watchPeriod: 0,
  theme: stored('oddsdesk.theme', ['dark', 'light'], 'dark'),
  devigModel: stored('oddsdesk.devigModel', ['LOG', 'EM', 'MPTO', 'SHIN', 'OR'], 'MPTO'),
  toasts: [],
  setView: (view) => set({ view }),
  selectEvent: (selectedEventId, openDetail) => set(openDetail ? { selectedEventId, detailOpen: true } : { selectedEventId }),
  setDetailOpen: (detailOpen) => set({ detailOpen }),
  setPaletteOpen: (paletteOpen) => set({ paletteOpen }),
  setFixturesOpen: (fixturesOpen) => set({ fixturesOpen }),
  setWatchFilter: (watchFilter) => set({ watchFilter }),
  setWatchLiveOnly: (watchLiveOnly) => set({ watchLiveOnly }),
  sortWatchBy: (key) => {
    const cur = get().watchSort;
    set({ watchSort: { key, dir: cur.key === key ? (cur.dir === 1 ? -1 : 1) : 1 } });
  },
  setWatchPeriod: (watchPeriod) => set({ watchPeriod }),
  toast(text, tone = 'info') {
    const id = toastId++;
    set({ toasts: [...get().toasts.slice(-3), { id, text, tone }] });
    setTimeout(() => get().dismissToast(id), 5000);
  },
  dismissToast: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
});
