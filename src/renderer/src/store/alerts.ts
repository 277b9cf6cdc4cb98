// Alerts slice: the alert history normalised by id (newest first), and muting per event. Bounded: the newest
// ALERTS_KEEP alerts are held (the core keeps them all; alerts:list pages back), older ones leave the map too.
import type { StateCreator } from 'zustand';
import type { AlertRecord } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import { api } from '../api';
import type { StoreState } from './index';

export const ALERTS_KEEP = 5000;

export interface AlertsSlice {
  alertsById: Record<number, AlertRecord>;
  alertIds: number[];
  alertsLoaded: boolean;
  alertsError: AppError | null;
  /** Alerts that arrived since the Alerts view was last open. */
  unseenAlerts: number;
  loadAlerts(): Promise<void>;
  addAlert(alert: AlertRecord): void;
  /** Several alerts in one store update (the pushes of one frame), oldest first. */
  addAlerts(alerts: readonly AlertRecord[]): void;
  markAlertsSeen(): void;
  muteEvent(eventId: number, muted: boolean): Promise<AppError | null>;
}

export const createAlertsSlice: StateCreator<StoreState, [], [], AlertsSlice> = (set, get) => ({
  alertsById: {},
  alertIds: [],
  alertsLoaded: false,
  alertsError: null,
  unseenAlerts: 0,
  async loadAlerts() {
    const r = await api.invoke('alerts:list', { limit: 1000 });
    if (!r.ok) {
      set({ alertsError: r.error, alertsLoaded: true });
      return;
    }
    const merged = { ...get().alertsById };
    for (const a of r.value) merged[a.id] = a;
    const alertIds = Object.values(merged)
      .sort((a, b) => b.at - a.at || b.id - a.id)
      .slice(0, ALERTS_KEEP)
      .map((a) => a.id);
    const alertsById: Record<number, AlertRecord> = {};
    for (const id of alertIds) alertsById[id] = merged[id]!;
    set({ alertsById, alertIds, alertsLoaded: true, alertsError: null });
  },
  addAlert(alert) {
    get().addAlerts([alert]);
  },
  addAlerts(batch) {
    const s = get();
    const seen = new Set<number>();
    const fresh = batch.filter((a) => !s.alertsById[a.id] && !seen.has(a.id) && seen.add(a.id));
    if (!fresh.length) return;
    // One copy of the map and the list per batch: a burst of alerts (a goal moves every line of an event) costs one
    // update, not one copy of ALERTS_KEEP entries per alert.
    const alertsById = { ...s.alertsById };
    for (const a of fresh) alertsById[a.id] = a;
    // Pushes arrive oldest first; the list is newest first.
    const alertIds = [...fresh.map((a) => a.id).reverse(), ...s.alertIds];
    // The oldest fall out of the list and out of the map with them.
    for (const dropped of alertIds.splice(ALERTS_KEEP)) delete alertsById[dropped];
    set({
      alertsById,
      alertIds,
      unseenAlerts: s.view === 'alerts' ? 0 : s.unseenAlerts + fresh.length,
    });
  },
  markAlertsSeen: () => set({ unseenAlerts: 0 }),
  async muteEvent(eventId, muted) {
    const r = await api.invoke('alerts:mute', eventId, muted);
    if (!r.ok) return r.error;
    const cur = get().settings;
    if (cur) {
      const others = cur.mutedEvents.filter((id) => id !== eventId);
      set({ settings: { ...cur, mutedEvents: muted ? [...others, eventId] : others } });
    }
    void get().loadSettings();
    return null;
  },
});
