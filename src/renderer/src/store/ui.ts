// Selection and UI slice: the current view, the selected event, the grid's filter (its columns and sort are the
// profile's: the watchlist slice), palette, theme and de-vig model (both kept locally too, so they work even before
// the core answers settings:get); the keyboard's place in each list
// (kept by row identity, so it survives re-ranking, paging and a trip to the event and back); what a list opened (an
// event at one line, a settlement explained) and where Esc goes back to; toasts, and the one undo on offer.
import type { StateCreator } from 'zustand';
import type { DevigModel } from '../../../shared/api';
import type { StoreState } from './index';

export const VIEWS = [
  'watchlist',
  'movers',
  'specials',
  'outrights',
  'settlements',
  'bets',
  'models',
  'lab',
  'alerts',
  'coverage',
  'settings',
] as const;
export type ViewName = (typeof VIEWS)[number];
export type Theme = 'dark' | 'light';

export interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error';
  /** A button on the toast (Undo). */
  action?: { label: string; run(): void };
}

/** The lists the arrows walk, besides the watchlist (whose place is the selected event). */
export type ListName = 'settlements' | 'alerts' | 'movers' | 'bets';
/** A row's identity in its list: a settlement's event id, an alert's id, a mover's `lineId:side`, a bet's id. */
export type RowKey = number | string;

/** How long a removal can be taken back. */
export const UNDO_MS = 8_000;

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
  /** Which period's main lines the grid shows. */
  watchPeriod: number;
  theme: Theme;
  devigModel: DevigModel;
  toasts: Toast[];
  /** The keyboard's row in each list (null: none yet). */
  listCursor: Record<ListName, RowKey | null>;
  /** The line the event detail shows chosen when it was opened at one (a mover, an alert, a bet); seq re-asks. */
  focusLine: { eventId: number; lineId: number; seq: number } | null;
  /** The list an open detail or settlement came from: Esc closes it and goes back there. */
  openedFrom: ViewName | null;
  /** The removal that Z (or Ctrl+Z) takes back, while its toast shows. */
  undo: { toastId: number; label: string; run(): Promise<void> } | null;
  setView(view: ViewName): void;
  selectEvent(eventId: number | null, openDetail?: boolean): void;
  setDetailOpen(open: boolean): void;
  setPaletteOpen(open: boolean): void;
  setFixturesOpen(open: boolean): void;
  setWatchFilter(text: string): void;
  setWatchLiveOnly(on: boolean): void;
  setWatchPeriod(period: number): void;
  /** Shows a toast for `ms` (default 5 s). */
  toast(text: string, tone?: Toast['tone'], options?: { action?: Toast['action']; ms?: number }): void;
  dismissToast(id: number): void;
  setListCursor(list: ListName, key: RowKey | null): void;
  /** Opens an event's detail (at one line, when given), from a list Esc returns to. */
  openEvent(eventId: number, options?: { lineId?: number | null; from?: ViewName }): void;
  /** Opens a settlement explained, from a list Esc returns to. */
  openSettlement(eventId: number, from?: ViewName): void;
  /** Esc after a list opened something: back to that list. False when nothing was opened from one. */
  backToList(): boolean;
  /** Removes a watch and offers to take it back for UNDO_MS (a toast with Undo, and Z / Ctrl+Z). */
  removeWatchWithUndo(eventId: number): Promise<void>;
  /** Takes back the removal on offer, if any. */
  runUndo(): Promise<void>;
  /**
   * Offers to take back a removal for UNDO_MS: a toast saying `text` with Undo, and Z / Ctrl+Z; `label` names it in
   * the command palette. `restore` runs at most once, and only while this is the undo on offer.
   */
  offerUndo(text: string, label: string, restore: () => Promise<void>): void;
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
let focusSeq = 0;

export const createUiSlice: StateCreator<StoreState, [], [], UiSlice> = (set, get) => ({
  view: 'watchlist',
  selectedEventId: null,
  detailOpen: true,
  paletteOpen: false,
  fixturesOpen: false,
  watchFilter: '',
  watchLiveOnly: false,
  watchPeriod: 0,
  theme: stored('oddsdesk.theme', ['dark', 'light'], 'dark'),
  devigModel: stored('oddsdesk.devigModel', ['LOG', 'EM', 'MPTO', 'SHIN', 'OR'], 'MPTO'),
  toasts: [],
  listCursor: { settlements: null, alerts: null, movers: null, bets: null },
  focusLine: null,
  openedFrom: null,
  undo: null,
  // Going to a view by its key or the navigation starts afresh: Esc no longer leads back to a list.
  setView: (view) => set({ view, openedFrom: null }),
  selectEvent(selectedEventId, openDetail) {
    // Another event chosen in the watchlist: what a list opened (its line, the way back) is over.
    const moved = selectedEventId !== get().selectedEventId ? { focusLine: null, openedFrom: null } : {};
    set(openDetail ? { selectedEventId, detailOpen: true, ...moved } : { selectedEventId, ...moved });
  },
  setDetailOpen: (detailOpen) => set(detailOpen ? { detailOpen } : { detailOpen, focusLine: null }),
  setPaletteOpen: (paletteOpen) => set({ paletteOpen }),
  setFixturesOpen: (fixturesOpen) => set({ fixturesOpen }),
  setWatchFilter: (watchFilter) => set({ watchFilter }),
  setWatchLiveOnly: (watchLiveOnly) => set({ watchLiveOnly }),
  setWatchPeriod: (watchPeriod) => set({ watchPeriod }),
  toast(text, tone = 'info', options = {}) {
    const id = toastId++;
    set({
      toasts: [...get().toasts.slice(-3), { id, text, tone, ...(options.action ? { action: options.action } : {}) }],
    });
    setTimeout(() => get().dismissToast(id), options.ms ?? 5000);
  },
  dismissToast: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
  setListCursor: (list, key) => set({ listCursor: { ...get().listCursor, [list]: key } }),
  openEvent(eventId, options = {}) {
    const lineId = options.lineId ?? null;
    set({
      view: 'watchlist',
      selectedEventId: eventId,
      detailOpen: true,
      fixturesOpen: false,
      focusLine: lineId === null ? null : { eventId, lineId, seq: ++focusSeq },
      openedFrom: options.from ?? null,
    });
  },
  openSettlement(eventId, from) {
    set({ view: 'settlements', openedFrom: from ?? null, listCursor: { ...get().listCursor, settlements: eventId } });
    get().selectSettlement(eventId);
  },
  backToList() {
    const from = get().openedFrom;
    if (from === null) return false;
    set({ view: from, openedFrom: null });
    return true;
  },
  async removeWatchWithUndo(eventId) {
    const s = get();
    const ev = s.watchEvents[eventId];
    const name = ev?.runnerHome && ev.runnerAway ? `${ev.runnerHome} v ${ev.runnerAway}` : `event ${eventId}`;
    const err = await s.removeWatch(eventId);
    if (err) {
      get().toast(`Could not remove the watch: ${err.message}`, 'error');
      return;
    }
    // The core's watch:remove keeps what belongs to the event rather than to the watch (its price alerts and drop
    // rule, its mute and snooze: settings of the profile keyed by event), so watching it again restores all of it.
    // Its stream, limit baselines and drop windows start afresh, as for any new watch.
    get().offerUndo(`Removed ${name}`, `Undo: watch ${name} again`, async () => {
      const again = await get().addWatch(eventId);
      if (again) {
        get().toast(`Could not watch ${name} again: ${again.message}`, 'error');
        return;
      }
      get().selectEvent(eventId);
      get().toast(`Watching ${name} again`);
    });
  },
  offerUndo(text, label, restore) {
    const run = async () => {
      if (get().undo?.toastId !== toastIdOfUndo) return;
      set({ undo: null });
      get().dismissToast(toastIdOfUndo);
      await restore();
    };
    const toastIdOfUndo = toastId; // the id the next toast gets
    get().toast(text, 'info', { action: { label: 'Undo (Z / Ctrl+Z)', run: () => void run() }, ms: UNDO_MS });
    set({ undo: { toastId: toastIdOfUndo, label, run } });
    setTimeout(() => {
      if (get().undo?.toastId === toastIdOfUndo) set({ undo: null });
    }, UNDO_MS);
  },
  async runUndo() {
    await get().undo?.run();
  },
});
