// Browser-mode notifications (Web Notifications API). In Electron the main process notifies natively, so this
// stays quiet there. Title says what happened; the body carries the lines that matter; a click opens the event.
import type { AlertRecord } from '../../shared/domain';
import { eventName } from './format';
import { focusEvent, focusSettlement, useStore } from './store';

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

export async function askNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  return Notification.requestPermission();
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

export function notifyAlert(alert: AlertRecord): void {
  const s = useStore.getState();
  if (s.info?.host === 'electron' || !notificationsSupported() || Notification.permission !== 'granted') return;
  const settings = s.settings;
  if (settings?.doNotDisturb) return;
  if (alert.eventId !== null && settings?.mutedEvents.includes(alert.eventId)) return;
  const settled = alert.kind.startsWith('settle');
  if (settings && settled && !settings.notifySettlements) return;
  if (settings && alert.kind.startsWith('max_win') && !settings.notifyMaxWin) return;
  const ev = alert.eventId !== null ? s.watchEvents[alert.eventId] : undefined;
  const [title, ...rest] = alert.message.split('\n');
  const body = rest.length ? rest.join('\n') : ev ? `${eventName(ev.runnerHome, ev.runnerAway)} · ${ev.leagueName ?? ''}` : alert.kind;
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
