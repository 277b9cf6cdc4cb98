// Browser-mode notifications (Web Notifications API). In Electron the main process notifies natively, so this
// stays quiet there. Title says what happened; the body carries the lines that matter; a click opens the event.
import type { AlertRecord } from '../../shared/domain';
import { eventName } from './format';
import { focusEvent, useStore } from './store';

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

export async function askNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  return Notification.requestPermission();
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
      if (alert.eventId !== null) focusEvent(alert.eventId);
      n.close();
    };
  } catch {
    // Some browsers only allow notifications from a service worker; the in-app alert list still has it.
  }
}
