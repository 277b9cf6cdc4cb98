// The renderer's start-up wiring: the pushed events are registered once here, outside React, and the first data is
// loaded; odds batches and alerts are queued and applied once per animation frame. It sits above the store (./store)
// and the notifications (./notify.ts, which read the store), joining them; the store imports neither, so nothing loops.
import type { AlertRecord } from '../../shared/domain';
import type { OddsBatch } from '../../shared/ipc/contract';
import { host } from './host';
import { playAlertSound, showNotification } from './notify';
import { alertSound } from './store/alerts';
import { playsAlertSounds } from './route';
import { focusEvent, focusSettlement, useStore } from './store';

// ---- odds and alerts: one store update each per animation frame, however many pushes arrived ----
// Odds are folded into the store's waiting set as they arrive (latest value per market), never queued as batches.
// Alerts too: an episode's updates keep its number, so the latest push of a number is the one shown.
// This is the page's one pacer: a frame applies what waits, and asks for another if the budget left some.
let oddsWaiting = false;
let alertQueue = new Map<number, AlertRecord>();
let frameScheduled = false;
function flushFrame() {
  frameScheduled = false;
  const alerts = [...alertQueue.values()];
  alertQueue = new Map();
  if (oddsWaiting) {
    oddsWaiting = useStore.getState().applyOdds([]);
    if (oddsWaiting) scheduleFrame();
  }
  if (alerts.length) {
    const s = useStore.getState();
    s.addAlerts(alerts);
    // One sound per frame at most, whatever a burst brought, and from one window only (a second monitor hears the
    // same alerts).
    const sound = alertSound(alerts, s.settings, Date.now());
    if (sound && playsAlertSounds()) playAlertSound(sound);
  }
}
function scheduleFrame() {
  if (frameScheduled) return;
  frameScheduled = true;
  // A hidden tab gets no frames; apply at a slow pace there so the queues cannot grow without bound.
  if (document.hidden) setTimeout(flushFrame, 250);
  else requestAnimationFrame(flushFrame);
}
function queueOdds(batch: OddsBatch) {
  useStore.getState().queueOdds(batch);
  oddsWaiting = true;
  scheduleFrame();
}
function queueAlert(alert: AlertRecord) {
  alertQueue.set(alert.id, alert);
  scheduleFrame();
}

let started = false;
/** Wires pushed events into the store and loads the first data; call once at start-up. */
export function startStore(): void {
  if (started) return;
  started = true;
  const s = () => useStore.getState();
  host.on('onStatus', (status) => useStore.setState({ status }));
  host.on('onOdds', queueOdds);
  host.on('onWatchlist', (list) => s().setWatchlist(list));
  // A change made in another window or tab (a second monitor) shows here too.
  host.on('onSettings', (settings) => s().settingsPushed(settings));
  host.on('onAlert', queueAlert);
  host.on('onNotification', showNotification);
  host.on('onSettlement', (row) => s().addLiveSettlement(row));
  host.on('onFocusEvent', ({ eventId, kind, lineId }) =>
    kind === 'settlement' ? focusSettlement(eventId) : focusEvent(eventId, lineId ?? null),
  );
  // The browser bridge also reports its own connection (not part of the contract, so typed loosely here).
  host.on('onBridge', ({ connected }) => {
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
  const [info, status] = await Promise.all([host.invoke('app:info'), host.invoke('status:get')]);
  if (info.ok) useStore.setState({ info: info.value });
  if (status.ok) useStore.setState({ status: status.value });
  await Promise.all([s.loadSettings(), s.loadWatchlist(), s.loadAlerts()]);
}
