// Browser-mode notifications (Web Notifications API). In Electron the main process notifies natively, so this
// stays quiet there. Title says what happened; the body carries the lines that matter; a click opens the event.
// Paced (../../shared/notifyPacer.ts): a burst of price or max_win alerts is one notification, not a hundred.
import type { AlertRecord } from '../../shared/domain';
import { createNotifyPacer, moreLine, type NotifyGroup } from '../../shared/notifyPacer';
import { eventName } from './format';
import { focusEvent, focusSettlement, useStore } from './store';

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/**
 * The permission as last known. Reading Notification.permission asks the browser process each time (a synchronous
 * round trip: 2 ms a read under load, 15% of the page's time when alerts came 150 a second), so it is read once and
 * then kept current by the permission's change event and by our own request.
 */
let permission: NotificationPermission | 'unsupported' | null = null;
export function notificationPermission(): NotificationPermission | 'unsupported' {
  if (permission !== null) return permission;
  if (!notificationsSupported()) return (permission = 'unsupported');
  permission = Notification.permission;
  void navigator.permissions
    ?.query({ name: 'notifications' })
    .then((status) => {
      status.onchange = () => {
        permission = Notification.permission;
      };
    })
    .catch(() => undefined);
  return permission;
}

export async function askNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  permission = await Notification.requestPermission();
  return permission;
}

/** A short two-note chime (no audio file to ship); browsers may refuse it until the page had a user gesture. */
function chime(): void {
  try {
    const ctx = new AudioContext();
    const gain = ctx.createGain();
    gain.gain.value = 0.08;
    gain.connect(ctx.destination);
    [880, 1320].forEach((hz, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = hz;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.12);
      osc.stop(ctx.currentTime + i * 0.12 + 0.1);
    });
    setTimeout(() => void ctx.close(), 600);
  } catch {
    // No audio here: the notification itself still shows.
  }
}

const pacer = createNotifyPacer<AlertRecord>({
  timers: { now: () => Date.now(), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as number) },
  group: (a) => (a.kind.startsWith('settle') ? null : a.kind.startsWith('max_win') ? 'max_win' : 'price'),
  show,
});

export function notifyAlert(alert: AlertRecord): void {
  const s = useStore.getState();
  if (s.info?.host === 'electron') return;
  const settings = s.settings;
  if (settings?.doNotDisturb) return;
  if (alert.eventId !== null && settings?.mutedEvents.includes(alert.eventId)) return;
  const settled = alert.kind.startsWith('settle');
  if (settings && settled && !settings.notifySettlements) return;
  if (settings && alert.kind.startsWith('max_win') && !settings.notifyMaxWin) return;
  if (notificationPermission() !== 'granted') return;
  pacer.notify(alert);
}

function show(alert: AlertRecord, more: number, group: NotifyGroup | null): void {
  const s = useStore.getState();
  const settings = s.settings;
  const settled = alert.kind.startsWith('settle');
  const ev = alert.eventId !== null ? s.watchEvents[alert.eventId] : undefined;
  const [title, ...rest] = alert.message.split('\n');
  const body = (rest.length ? rest.join('\n') : ev ? `${eventName(ev.runnerHome, ev.runnerAway)} · ${ev.leagueName ?? ''}` : alert.kind) + moreLine(more, group);
  try {
    const n = new Notification(title ?? alert.kind, { body, tag: `oddsdesk-${alert.id}` });
    n.onclick = () => {
      window.focus();
      // A settlement opens explained (its lines and period results); anything else opens its event.
      if (alert.eventId !== null) (settled ? focusSettlement : focusEvent)(alert.eventId);
      n.close();
    };
    if (settled && settings?.settlementSound) chime();
  } catch {
    // Some browsers only allow notifications from a service worker; the in-app alert list still has it.
  }
}
