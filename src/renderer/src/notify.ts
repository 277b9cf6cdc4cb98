// Browser-mode notifications (Web Notifications API). The core decides every notification (kind, pacing, and the
// settings that mute it) and pushes it ready-made (`onNotification`); this only shows it. In Electron the main
// process shows them natively and the core pushes none. A click opens the event, a settlement opens explained.
// The sounds are the window's, not the notification's: one short tune per kind of alert, played as live alerts
// arrive (./wiring.ts asks ./store/alerts.ts whether a batch sounds), in Electron and in the browser alike.
import type { NotificationView } from '../../shared/ipc/contract';
import { focusEvent, focusSettlement, useStore } from './store';
import type { AlertSound } from './store/alerts';

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

/** Each kind's tune (Hz per note, 120 ms apart): a settlement rises, a max stake change knocks twice, a price pings. */
const TUNES: Record<AlertSound, number[]> = { settlement: [880, 1320], max_win: [523, 523], price: [1175] };

/** One context for the page's life: browsers cap how many a page may open. */
let audio: AudioContext | null = null;

/** Plays a kind's short tune (no audio file to ship); browsers may refuse it until the page had a user gesture. */
export function playAlertSound(kind: AlertSound): void {
  try {
    audio ??= new AudioContext();
    const ctx = audio;
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    const gain = ctx.createGain();
    gain.gain.value = 0.08;
    gain.connect(ctx.destination);
    TUNES[kind].forEach((hz, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = hz;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.12);
      osc.stop(ctx.currentTime + i * 0.12 + 0.1);
    });
  } catch {
    // No audio here: the alert still shows in the list and on the row.
  }
}

/** Shows a notification the core decided on, when the trader has allowed this page to. */
export function showNotification(n: NotificationView): void {
  if (useStore.getState().info?.host === 'electron') return;
  if (notificationPermission() !== 'granted') return;
  try {
    // The same tag in every tab of this host: the browser shows it once, however many tabs are open.
    const shown = new Notification(n.title, { body: n.body, tag: `oddsdesk-${n.id}` });
    shown.onclick = () => {
      window.focus();
      if (n.eventId !== null) {
        if (n.kind === 'settlement') focusSettlement(n.eventId);
        else focusEvent(n.eventId, n.lineId);
      }
      shown.close();
    };
  } catch {
    // Some browsers only allow notifications from a service worker; the in-app alert list still has it.
  }
}
