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
  /** Push onFocusEvent to the renderer once it can receive it: the event, or its settlement with lines and results. */
  focusEvent: (eventId: number, kind?: 'event' | 'settlement') => void;
  /** The app icon: Linux notification daemons show none otherwise. */
  icon?: NotificationConstructorOptions['icon'];
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
      const notification = deps.create({ title: n.title, body: n.body, silent: !n.sound, ...(deps.icon ? { icon: deps.icon } : {}) });
      const forget = () => live.delete(notification);
      notification.on('click', () => {
        forget();
        // focusEvent shows the window itself, and tells the page once it is ready; focusWindow only for the rest.
        if (typeof n.eventId === 'number') deps.focusEvent(n.eventId, n.kind === 'settlement' ? 'settlement' : 'event');
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
