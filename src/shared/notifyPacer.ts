// Desktop notifications at a pace a trader can read. A goal moves every line of an event, and a volatile hour can
// raise a hundred drop alerts a second: each is kept in the Alerts list, but a notification per alert would bury the
// screen. Per group (price and drop alerts, max_win alerts), at most one notification per interval: the first shows
// at once; any that come within the interval are summed up in one notification at its end ("and N more"), naming
// the latest. An ungrouped notification (a settlement) always shows at once. Pure: time and timers are injected, so
// the core (Electron) and the page (browser mode) both use it, on real or manual clocks.

export interface PacerTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What is paced together: price and drop alerts, and max_win alerts. */
export type NotifyGroup = 'price' | 'max_win';

export interface NotifyPacer<N> {
  notify(notification: N): void;
  /** Drops whatever is held back (the host is shutting down, or the profile changed). */
  clear(): void;
}

/** One notification a second per group would still be a stream; ten seconds lets the trader read each. */
export const NOTIFY_INTERVAL_MS = 10_000;

export function createNotifyPacer<N>(o: {
  timers: PacerTimers;
  intervalMs?: number;
  /** The group a notification is paced in; null shows it at once. */
  group(notification: N): NotifyGroup | null;
  /** Shows one notification; `more` is how many others of its group it stands for (0 when alone). */
  show(notification: N, more: number, group: NotifyGroup | null): void;
}): NotifyPacer<N> {
  const interval = o.intervalMs ?? NOTIFY_INTERVAL_MS;
  const groups = new Map<NotifyGroup, { shownAt: number; held: N | null; count: number; timer: unknown }>();

  const flush = (key: NotifyGroup) => {
    const g = groups.get(key);
    if (!g) return;
    g.timer = null;
    if (g.held === null) return;
    const held = g.held;
    const more = g.count - 1;
    g.held = null;
    g.count = 0;
    g.shownAt = o.timers.now();
    o.show(held, more, key);
  };

  return {
    notify(n) {
      const key = o.group(n);
      if (key === null) {
        o.show(n, 0, null);
        return;
      }
      const now = o.timers.now();
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { shownAt: -Infinity, held: null, count: 0, timer: null }));
      if (g.timer === null && now - g.shownAt >= interval) {
        g.shownAt = now;
        o.show(n, 0, key);
        return;
      }
      g.held = n;
      g.count++;
      if (g.timer === null) g.timer = o.timers.setTimeout(() => flush(key), g.shownAt + interval - now);
    },
    clear() {
      for (const g of groups.values()) if (g.timer !== null) o.timers.clearTimeout(g.timer);
      groups.clear();
    },
  };
}

const GROUP_WORDS: Record<NotifyGroup, string> = { price: 'price alerts', max_win: 'max stake alerts' };

/** The line a summed-up notification adds to its body ('' for one that stands alone). */
export function moreLine(more: number, group: NotifyGroup | null): string {
  return more > 0 && group
    ? `\n+${more} more ${GROUP_WORDS[group]} in the last ${Math.round(NOTIFY_INTERVAL_MS / 1000)} s (Alerts list)`
    : '';
}
