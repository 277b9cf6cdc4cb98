// The desktop Notifier: an Electron notification per settlement or max_win alert; clicking one brings the window
// forward and tells the renderer (onFocusEvent) which event to show. Whether to notify at all (rules,
// do-not-disturb, muted events) is the core's decision; this module only shows what it is given.
import type { NotificationConstructorOptions } from 'electron';
import type { Notifier, UserNotification } from '../core/notifier';

/** The part of Electron's Notification used here; injected so the click path can be tested without Electron. */
export interface NotificationLike {
  on(event: 'click' | 'close' | 'failed', listener: () => void): unknown;
  show(): void;
}

export interface ElectronNotifierDeps {
  /** `(o) => new Notification(o)` in the app. */
  create: (options: NotificationConstructorOptions) => NotificationLike;
  isSupported: () => boolean;
  /** Show, restore and focus the main window (re-creating it if it was closed). */
  focusWindow: () => void;
  /** Push onFocusEvent to the renderer once it can receive it: the event (at a line), or its settlement explained. */
  focusEvent: (eventId: number, kind?: 'event' | 'settlement', lineId?: number | null) => void;
  /** The app icon: Linux notification daemons show none otherwise. */
  icon?: NotificationConstructorOptions['icon'];
  /** process.platform by default: on Linux the title and body are escaped, since several notification daemons render markup. */
  platform?: NodeJS.Platform;
}

/** Title and body caps: a notification is a glance, and upstream text (team, league, special names) is unbounded. */
export const NOTIFICATION_TITLE_MAX = 120;
export const NOTIFICATION_BODY_MAX = 1000;

const cap = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The text a notification shows. Upstream names go into it raw, and on Linux several daemons (those following the
 * Desktop Notifications spec's body-markup capability) read the body as markup: a team called "<b>X</b>" or
 * "<a href=…>" must show as typed, so &, < and > are escaped there, in the title as in the body. Control characters other than newline go;
 * both parts are capped.
 */
export function notificationText(
  n: { title: string; body: string },
  platform: NodeJS.Platform,
): { title: string; body: string } {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const clean = (t: string) => t.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '');
  const title = cap(clean(n.title).replace(/\n/g, ' '), NOTIFICATION_TITLE_MAX);
  const body = cap(clean(n.body), NOTIFICATION_BODY_MAX);
  if (platform !== 'linux') return { title, body };
  const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // The title too: some daemons render markup in the summary as well, and the title carries upstream names.
  return { title: escape(title), body: escape(body) };
}

/** Notifications kept referenced until clicked or closed; bounded because Linux daemons may never report a close. */
const MAX_LIVE = 50;

export function createElectronNotifier(deps: ElectronNotifierDeps): Notifier {
  // An unreferenced Notification can be garbage-collected while on screen, and then its click does nothing.
  const live = new Set<NotificationLike>();
  return {
    notify(n: UserNotification) {
      if (!deps.isSupported()) return;
      // Sound only when the trader asked for it (the settlement sound setting); otherwise a quiet notification.
      const text = notificationText(n, deps.platform ?? process.platform);
      const notification = deps.create({ ...text, silent: !n.sound, ...(deps.icon ? { icon: deps.icon } : {}) });
      const forget = () => live.delete(notification);
      notification.on('click', () => {
        forget();
        // focusEvent shows the window itself, and tells the page once it is ready; focusWindow only for the rest.
        if (typeof n.eventId === 'number')
          deps.focusEvent(n.eventId, n.kind === 'settlement' ? 'settlement' : 'event', n.lineId ?? null);
        else deps.focusWindow();
      });
      notification.on('close', forget);
      notification.on('failed', forget);
      live.add(notification);
      if (live.size > MAX_LIVE) live.delete(live.values().next().value!);
      notification.show();
    },
  };
}
