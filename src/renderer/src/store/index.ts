// The renderer's one zustand store, built from slices, and its wiring to the core: the IPC listeners are registered
// once here, outside React; odds batches are queued and applied once per animation frame.
import { create } from 'zustand';
import type { AlertRecord } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import type { AppInfo, CoverageView, OddsBatch, StatusView } from '../../../shared/ipc/contract';
import { api } from '../api';
import { notifyAlert } from '../notify';
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

export const useStore = create<StoreState>()((set, get, store) => ({
  info: null,
  status: null,
  hostConnected: true,
  coverage: null,
  coverageLoading: false,
  coverageError: null,
  async loadCoverage() {
    set({ coverageLoading: true });
    const r = await api.invoke('coverage:get');
    set(r.ok ? { coverage: r.value, coverageError: null, coverageLoading: false } : { coverageError: r.error, coverageLoading: false });
  },
  ...createWatchlistSlice(set, get, store),
  ...createUiSlice(set, get, store),
  ...createSettingsSlice(set, get, store),
  ...createAlertsSlice(set, get, store),
  ...createSettlementsSlice(set, get, store),
  ...createLineHistorySlice(set, get, store),
}));

/** Show one event: the watchlist with that row selected and its detail open (notification clicks, palette). */
export function focusEvent(eventId: number): void {
  useStore.setState({ view: 'watchlist', selectedEventId: eventId, detailOpen: true });
}

/** Show one settlement explained (a settlement notification's click): the Settlements view with it open. */
export function focusSettlement(eventId: number): void {
  useStore.setState({ view: 'settlements' });
  useStore.getState().selectSettlement(eventId);
}

// ---- odds and alerts: one store update each per animation frame, however many pushes arrived ----
let oddsQueue: OddsBatch[] = [];
let alertQueue: AlertRecord[] = [];
let frameScheduled = false;
function flushFrame() {
  frameScheduled = false;
  const batches = oddsQueue;
  const alerts = alertQueue;
  oddsQueue = [];
  alertQueue = [];
  if (batches.length) useStore.getState().applyOdds(batches);
  if (alerts.length) useStore.getState().addAlerts(alerts);
}
function scheduleFrame() {
  if (frameScheduled) return;
  frameScheduled = true;
  // A hidden tab gets no frames; apply at a slow pace there so the queues cannot grow without bound.
  if (document.hidden) setTimeout(flushFrame, 250);
  else requestAnimationFrame(flushFrame);
}
function queueOdds(batch: OddsBatch) {
  oddsQueue.push(batch);
  scheduleFrame();
}
function queueAlert(alert: AlertRecord) {
  alertQueue.push(alert);
  scheduleFrame();
}

let started = false;
/** Wires pushed events into the store and loads the first data; call once at start-up. */
export function startStore(): void {
  if (started) return;
  started = true;
  const s = () => useStore.getState();
  api.on('onStatus', (status) => useStore.setState({ status }));
  api.on('onOdds', queueOdds);
  api.on('onWatchlist', (list) => s().setWatchlist(list));
  api.on('onAlert', (alert) => {
    queueAlert(alert);
    notifyAlert(alert);
  });
  api.on('onSettlement', (row) => s().addLiveSettlement(row));
  api.on('onFocusEvent', ({ eventId, kind }) => (kind === 'settlement' ? focusSettlement(eventId) : focusEvent(eventId)));
  // The browser bridge also reports its own connection (not part of the contract, so typed loosely here).
  api.on('onBridge', ({ connected }) => {
    useStore.setState({ hostConnected: connected });
    if (!connected) return;
    // Pushes sent while the page was away are lost: open charts fetch their lines' history again.
    s().resetLineSeries();
    void loadAll();
  });
  void loadAll();
}

async function loadAll() {
  const s = useStore.getState();
  const [info, status] = await Promise.all([api.invoke('app:info'), api.invoke('status:get')]);
  if (info.ok) useStore.setState({ info: info.value });
  if (status.ok) useStore.setState({ status: status.value });
  await Promise.all([s.loadSettings(), s.loadWatchlist(), s.loadAlerts()]);
}
