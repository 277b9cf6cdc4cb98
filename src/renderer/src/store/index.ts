// The renderer's one zustand store, built from slices. Its wiring to the core (the IPC listeners, registered once
// outside React, and the per-frame queues) is ../wiring.ts, which imports the store and the notifications; the store
// imports neither, so nothing here loops back through them.
import { create } from 'zustand';
import type { AppError } from '../../../shared/errors';
import type { AppInfo, CoverageView, StatusView } from '../../../shared/ipc/contract';
import { host } from '../host';
import { withCountedSubscribers } from '../listenerCounts';
import { createAlertsSlice, type AlertsSlice } from './alerts';
import { createLineHistorySlice, type LineHistorySlice } from './lineHistory';
import { createSettingsSlice, type SettingsSlice } from './settings';
import { createSettlementsSlice, type SettlementsSlice } from './settlements';
import { createUiSlice, type UiSlice } from './ui';
import { createWatchlistSlice, type WatchlistSlice } from './watchlist';

interface AppSlice {
  info: AppInfo | null;
  status: StatusView | null;
  /** The browser bridge's own connection to the host (always true in Electron). */
  hostConnected: boolean;
}

interface CoverageSlice {
  coverage: CoverageView | null;
  coverageLoading: boolean;
  coverageError: AppError | null;
  loadCoverage: () => Promise<void>;
}

export type StoreState = AppSlice &
  CoverageSlice &
  WatchlistSlice &
  UiSlice &
  SettingsSlice &
  AlertsSlice &
  SettlementsSlice &
  LineHistorySlice;

export const useStore = create<StoreState>()(
  withCountedSubscribers('store', (set, get, store) => ({
    info: null,
    status: null,
    hostConnected: true,
    coverage: null,
    coverageLoading: false,
    coverageError: null,
    async loadCoverage() {
      set({ coverageLoading: true });
      const r = await host.invoke('coverage:get');
      set(
        r.ok
          ? { coverage: r.value, coverageError: null, coverageLoading: false }
          : { coverageError: r.error, coverageLoading: false },
      );
    },
    ...createWatchlistSlice(set, get, store),
    ...createUiSlice(set, get, store),
    ...createSettingsSlice(set, get, store),
    ...createAlertsSlice(set, get, store),
    ...createSettlementsSlice(set, get, store),
    ...createLineHistorySlice(set, get, store),
  })),
);

/** Show one event: the watchlist with that row selected and its detail open, at a line when one is named (notification clicks, palette). */
export function focusEvent(eventId: number, lineId: number | null = null): void {
  useStore.getState().openEvent(eventId, { lineId });
}

/** Show one settlement explained (a settlement notification's click): the Settlements view with it open. */
export function focusSettlement(eventId: number): void {
  useStore.setState({ view: 'settlements' });
  useStore.getState().selectSettlement(eventId);
}
