// A monitor that lives all day: what closing the window, quitting, an OS shutdown and a crashed renderer do. The
// rules are here, free of Electron, so they can be tested; index.ts only routes Electron's events to them.
//  - Closing the window hides it to the tray (a setting, on by default on every OS); the core keeps watching and
//    notifying. The first such close says so, once. Quit comes from the tray or the menu (or the OS).
//  - Quitting is one-way: windows hide at once, IPC is refused, nothing reopens a window (second instance,
//    notification click, dock), then the core flushes its ticks and closes the database, then the app exits.

export type Phase = 'running' | 'quitting' | 'done';

export interface CloseDecision {
  /** 'hide': keep running in the tray; 'close': let the window go (the app quits when the last one closes). */
  action: 'hide' | 'close';
  /** Tell the trader, once ever, that Oddsdesk is still running in the tray. */
  notice: boolean;
}

export interface LifecycleOptions {
  closeToTray: () => boolean;
  trayAvailable: () => boolean;
  /** Whether the once-only notice was already shown (persisted by the host). */
  noticeShown: () => boolean;
  markNoticeShown: () => void;
  isMac: boolean;
}

export interface Lifecycle {
  phase(): Phase;
  /** The trader closed the main window. */
  onWindowClose(): CloseDecision;
  /** All windows closed: quit? (macOS apps stay in the dock.) */
  quitWhenAllClosed(): boolean;
  /** Starts shutting down; false when it had already started (the caller then waits for the first). */
  beginQuit(): boolean;
  finishQuit(): void;
  /** May a window be created or shown now? */
  canShowWindow(): boolean;
  /** May the renderer's requests reach the core? */
  acceptsRequests(): boolean;
}

export function createLifecycle(options: LifecycleOptions): Lifecycle {
  let phase: Phase = 'running';
  return {
    phase: () => phase,
    onWindowClose() {
      // Mid-shutdown, or no tray to come back from (some Linux desktops): the window really closes.
      if (phase !== 'running' || !options.closeToTray() || (!options.trayAvailable() && !options.isMac))
        return { action: 'close', notice: false };
      const notice = !options.noticeShown();
      if (notice) options.markNoticeShown();
      return { action: 'hide', notice };
    },
    quitWhenAllClosed: () => phase !== 'running' || !options.isMac,
    beginQuit() {
      if (phase !== 'running') return false;
      phase = 'quitting';
      return true;
    },
    finishQuit() {
      phase = 'done';
    },
    canShowWindow: () => phase === 'running',
    acceptsRequests: () => phase === 'running',
  };
}

/** The error a request gets while the app shuts down. */
export const SHUTTING_DOWN = { kind: 'internal', message: 'Oddsdesk is shutting down' } as const;

/**
 * When a crashed renderer is reloaded: at once for the first crashes, but never in a loop. A page that crashes
 * `maxCrashes` times within `windowMs` is left alone (the window shows a message from the host instead).
 */
export function createCrashPolicy(now: () => number, maxCrashes = 3, windowMs = 60_000) {
  const crashes: number[] = [];
  return {
    /** A renderer process ended with `reason`: reload it? */
    onGone(reason: string): 'reload' | 'give-up' | 'ignore' {
      if (reason === 'clean-exit') return 'ignore';
      const t = now();
      crashes.push(t);
      while (crashes.length && crashes[0]! <= t - windowMs) crashes.shift();
      return crashes.length <= maxCrashes ? 'reload' : 'give-up';
    },
  };
}
