// How the core tells the trader something happened outside the window: an Electron notification, a Web
// Notification in browser mode, a JSON line in the CLI. The host injects it.

export interface UserNotification {
  /** What happened, e.g. "Settled: Home v Away 2–1". */
  title: string;
  /** The lines that matter. */
  body: string;
  /** Clicking the notification opens this event. */
  eventId?: number | null;
  /** ... at this line (a price, drop or max stake alert's line), selected in the event's detail. */
  lineId?: number | null;
  kind: 'settlement' | 'max_win' | 'price';
  /** Play the system sound with it (the trader's settlement sound setting); silent when absent or false. */
  sound?: boolean;
}

export interface Notifier {
  notify(notification: UserNotification): void;
}

export const silentNotifier: Notifier = { notify: () => undefined };
