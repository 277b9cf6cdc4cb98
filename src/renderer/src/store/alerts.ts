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
    const s = get();
    if (s.alertsById[alert.id]) return;
    const alertsById = { ...s.alertsById, [alert.id]: alert };
    const alertIds = [alert.id, ...s.alertIds];
    // The oldest falls out of the list and out of the map with it.
    for (const dropped of alertIds.splice(ALERTS_KEEP)) delete alertsById[dropped];
    set({
      alertsById,
      alertIds,
      unseenAlerts: s.view === 'alerts' ? 0 : s.unseenAlerts + 1,
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
