// Alerts slice: the alert history normalised by id (newest first), muting and snoozing per event, the unread count,
// and what a live alert does in the window: a brief flash on its event's row and a sound per kind (settlements on by
// default; none under do-not-disturb or for a snoozed event). A push of an alert already held (a drop episode that
// grew: same id, `updatedAt` set) replaces it in its place: it is not new, so it neither counts as unread nor sounds.
// Bounded: the newest ALERTS_KEEP alerts are held (the core keeps them all; alerts:list pages back), older ones leave
// the map too.
import type { StateCreator } from 'zustand';
import type { AlertRecord } from '../../../shared/domain';
import type { AppError } from '../../../shared/errors';
import type { SettingsSnapshot, SnoozedEvent } from '../../../shared/ipc/contract';
import { host } from '../host';
import type { StoreState } from './index';

export const ALERTS_KEEP = 5000;
/** How long an alerted event's row flashes. */
export const ALERT_FLASH_MS = 1_600;

/** The sounds the window plays, one per kind of alert. */
export type AlertSound = 'settlement' | 'max_win' | 'price';

export function alertSoundOf(kind: string): AlertSound {
  return kind === 'settled' || kind === 'resettled' ? 'settlement' : kind.startsWith('max_win') ? 'max_win' : 'price';
}

/** Whether an event is snoozed at `now` (the core's list, as the settings view carries it). */
export function isSnoozed(snoozes: readonly SnoozedEvent[] | undefined, eventId: number | null, now: number): boolean {
  return eventId !== null && !!snoozes?.some((x) => x.eventId === eventId && x.until > now);
}

/** An event whose alerts say nothing now: muted, or snoozed at `now`. */
function quiet(
  settings: Pick<SettingsSnapshot, 'mutedEvents' | 'snoozedEvents'> | null | undefined,
  eventId: number,
  now: number,
): boolean {
  return Boolean(settings?.mutedEvents.includes(eventId)) || isSnoozed(settings?.snoozedEvents, eventId, now);
}

/**
 * The sound live alerts ask for (at most one per batch: the first kind that is switched on), or null: silent under
 * do-not-disturb, and for a muted or snoozed event (the core already keeps muted events from alerting at all).
 */
export function alertSound(
  alerts: readonly AlertRecord[],
  settings: Pick<
    SettingsSnapshot,
    'doNotDisturb' | 'mutedEvents' | 'snoozedEvents' | 'settlementSound' | 'maxWinSound' | 'priceSound'
  > | null,
  now: number,
): AlertSound | null {
  if (!settings || settings.doNotDisturb) return null;
  const on: Record<AlertSound, boolean> = {
    settlement: settings.settlementSound,
    max_win: settings.maxWinSound,
    price: settings.priceSound,
  };
  for (const a of alerts) {
    // An update of an alert already fired (a drop episode that grew) rang when it fired.
    if (a.updatedAt !== undefined) continue;
    if (a.eventId !== null && quiet(settings, a.eventId, now)) continue;
    const sound = alertSoundOf(a.kind);
    if (on[sound]) return sound;
  }
  return null;
}

export interface AlertsSlice {
  alertsById: Record<number, AlertRecord>;
  alertIds: number[];
  alertsLoaded: boolean;
  alertsError: AppError | null;
  /** Alerts that arrived since the Alerts view was last open. */
  unseenAlerts: number;
  loadAlerts(): Promise<void>;
  addAlert(alert: AlertRecord): void;
  /**
   * Several alerts in one store update (the pushes of one frame), oldest first. An alert already held is replaced in
   * its place (the latest push of it wins); only the others are new.
   */
  addAlerts(alerts: readonly AlertRecord[]): void;
  markAlertsSeen(): void;
  muteEvent(eventId: number, muted: boolean): Promise<AppError | null>;
  /** Snoozes an event's alerts until `until` (epoch ms), or ends its snooze (null). */
  snoozeEvent(eventId: number, until: number | null): Promise<AppError | null>;
  /**
   * Events whose rows flash now (a live alert, not snoozed or muted), each with the flash's number. A row keeps its
   * flash while alerts keep coming and drops it after ALERT_FLASH_MS without one, so the next alert flashes it anew;
   * the value holds still meanwhile, so a busy event's further alerts do not render its row again.
   */
  alertFlash: Record<number, number>;
}

export const createAlertsSlice: StateCreator<StoreState, [], [], AlertsSlice> = (set, get) => {
  /** A flash running: which one (the timer that ends it checks), and when it began. */
  const flashes = new Map<number, { token: number; since: number }>();
  /** When each flashing event's latest live alert came (ms): alerts during a flash keep it for another period. */
  const lastAlertAt = new Map<number, number>();
  let flashSeq = 0;

  /** Times the flash of `ids` (their alertFlash entries are set by the caller), and ends or keeps each. */
  function flash(ids: readonly number[], since: number): void {
    const token = ++flashSeq;
    for (const id of ids) flashes.set(id, { token, since });
    setTimeout(() => {
      const mine = ids.filter((id) => flashes.get(id)?.token === token);
      if (!mine.length) return;
      const s = get();
      const now = Date.now();
      const ended: number[] = [];
      const kept: number[] = [];
      for (const id of mine) {
        flashes.delete(id);
        if (!quiet(s.settings, id, now) && (lastAlertAt.get(id) ?? 0) > since) kept.push(id);
        else ended.push(id);
      }
      // Still alerting: the row keeps its flash (unchanged, so not rendered again) for another period.
      if (kept.length) flash(kept, now);
      if (!ended.length) return;
      const next = { ...s.alertFlash };
      for (const id of ended) {
        lastAlertAt.delete(id);
        delete next[id];
      }
      set({ alertFlash: next });
    }, ALERT_FLASH_MS);
  }

  return {
    alertsById: {},
    alertIds: [],
    alertsLoaded: false,
    alertsError: null,
    unseenAlerts: 0,
    alertFlash: {},
    async loadAlerts() {
      const r = await host.invoke('alerts:list', { limit: 1000 });
      if (!r.ok) {
        set({ alertsError: r.error, alertsLoaded: true });
        return;
      }
      const merged = { ...get().alertsById };
      // What was pushed is never older than what the list read (an episode is pushed before its update is written).
      for (const a of r.value) merged[a.id] ??= a;
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
      if (!batch.length) return;
      const s = get();
      // The latest push of each id wins (an episode may be pushed again within one frame).
      const latest = new Map<number, AlertRecord>();
      for (const a of batch) latest.set(a.id, a);
      const fresh: AlertRecord[] = [];
      const updated: AlertRecord[] = [];
      for (const a of latest.values()) (s.alertsById[a.id] ? updated : fresh).push(a);
      // One copy of the map and the list per batch: a burst of alerts (a goal moves every line of an event) costs one
      // update, not one copy of ALERTS_KEEP entries per alert.
      const alertsById = { ...s.alertsById };
      for (const a of latest.values()) alertsById[a.id] = a;
      // Pushes arrive oldest first; the list is newest first. An updated alert keeps its place.
      const alertIds = fresh.length ? [...fresh.map((a) => a.id).reverse(), ...s.alertIds] : s.alertIds;
      // The oldest fall out of the list and out of the map with them.
      if (fresh.length) for (const dropped of alertIds.splice(ALERTS_KEEP)) delete alertsById[dropped];
      // The alerted events' rows flash briefly (not a snoozed or muted one's); each flash ends by itself once its event
      // has been quiet for ALERT_FLASH_MS. A row already flashing is left alone: under a burst (hundreds of alerts a
      // second) rendering every alerted row again each frame was the page's largest cost.
      const now = Date.now();
      const alerted = [...new Set([...fresh, ...updated].map((a) => a.eventId))].filter(
        (id): id is number => id !== null && !quiet(s.settings, id, now),
      );
      for (const id of alerted) lastAlertAt.set(id, now);
      const starting = alerted.filter((id) => !flashes.has(id));
      let alertFlash = s.alertFlash;
      if (starting.length) {
        alertFlash = { ...alertFlash };
        const n = ++flashSeq;
        for (const id of starting) alertFlash[id] = n;
        flash(starting, now);
      }
      set({
        alertsById,
        alertIds,
        alertFlash,
        unseenAlerts: s.view === 'alerts' ? 0 : s.unseenAlerts + fresh.length,
      });
    },
    markAlertsSeen: () => set({ unseenAlerts: 0 }),
    async muteEvent(eventId, muted) {
      const r = await host.invoke('alerts:mute', eventId, muted);
      if (!r.ok) return r.error;
      const cur = get().settings;
      if (cur) {
        const others = cur.mutedEvents.filter((id) => id !== eventId);
        set({ settings: { ...cur, mutedEvents: muted ? [...others, eventId] : others } });
      }
      void get().loadSettings();
      return null;
    },
    async snoozeEvent(eventId, until) {
      const r = await host.invoke('alerts:snooze', eventId, until);
      if (!r.ok) return r.error;
      const cur = get().settings;
      if (cur) set({ settings: { ...cur, snoozedEvents: r.value } });
      return null;
    },
  };
};
