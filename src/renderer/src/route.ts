// A window of its own (a second monitor): which view or event this page shows alone, read once from its address
// (`#view=movers`, `#event=123`: src/shared/ipc/windowRoute.ts), and how it keeps to it; opening one (the header's
// button, the palette, Shift+Enter) as a desktop window or a browser tab; and which of the open windows plays the
// alert sounds, so a second window never doubles them. Everything else a window shows comes from the core's pushes,
// which every window and tab gets, so they stay in step.
import {
  parseWindowHash,
  windowHash,
  windowTitle,
  WINDOW_VIEWS,
  type WindowTarget,
  type WindowView,
} from '../../shared/ipc/windowRoute';
import { host } from './host';
import { openTab } from './host/bridgeClient';
import { isTextField } from './keys';
import { useStore } from './store';
import type { ViewName } from './store/ui';

// A window of its own shows one of the navigation's views, and every view can have one (both checked by the compiler).
export const WINDOW_VIEWS_ARE_VIEWS: [WindowView] extends [ViewName] ? true : false = true;
export const VIEWS_ARE_WINDOW_VIEWS: [ViewName] extends [WindowView] ? true : false = true;
/** The view as a window's view, or null when it cannot have a window of its own. */
export const windowViewOf = (view: ViewName): WindowView | null =>
  (WINDOW_VIEWS as readonly string[]).includes(view) ? (view as WindowView) : null;

/** What this window shows alone; null for the whole app (the main window, the address the host printed). */
export const pinned: WindowTarget | null = parseWindowHash(window.location.hash);

/** The view a window of one view shows, whatever the store's view (null: the whole app, or one event). */
export const pinnedView: ViewName | null = pinned && pinned.view !== 'event' ? pinned.view : null;
/** The event a window of one event shows. */
export const pinnedEvent: number | null = pinned?.view === 'event' ? pinned.eventId : null;

/**
 * Keeps a window to what it shows alone: its view stays (the view keys and "Go to" do nothing there), and an event
 * opened from its list shows beside it until Esc; a window of one event keeps that event open, and closing its detail
 * closes the window. Call once at start.
 */
export function keepToPinned(): void {
  if (!pinned) return;
  document.title = `${windowTitle(pinned)} · Oddsdesk`;
  const hold = () => {
    const s = useStore.getState();
    if (pinnedEvent !== null) {
      // The window is the detail: its "Close (Esc)" closes the window (a browser may refuse for a tab it did not open).
      if (!s.detailOpen) window.close();
      if (s.view !== 'watchlist' || s.selectedEventId !== pinnedEvent || !s.detailOpen)
        useStore.setState({ view: 'watchlist', selectedEventId: pinnedEvent, detailOpen: true });
      return;
    }
    const eventOpen = s.view === 'watchlist' && s.detailOpen && s.selectedEventId !== null;
    if (pinnedView !== null && s.view !== pinnedView && !eventOpen) useStore.setState({ view: pinnedView });
  };
  // A view's window starts with no event open beside it (the watchlist's keeps its detail pane, as the main one).
  if (pinnedView !== null) useStore.setState({ view: pinnedView, detailOpen: pinnedView === 'watchlist' });
  hold();
  useStore.subscribe(hold);
}

/**
 * Opens `target` in a window of its own: a desktop window (the desktop shell makes it, with the main window's
 * preload and security), or a new browser tab. Must run within the trader's click or key press: a browser opens tabs
 * only then.
 */
export async function openInNewWindow(target: WindowTarget): Promise<void> {
  if (host.desktop) {
    const r = await host.desktop.invoke('desktop:openWindow', target);
    if (!r.ok) useStore.getState().toast(`Could not open a window: ${r.error.message}`, 'error');
    return;
  }
  openTab(windowHash(target));
}

/** What Shift+Enter opens here: the row's event where the list has one under the keyboard, else this view. */
export function targetHere(): WindowTarget | null {
  const s = useStore.getState();
  if (s.view === 'watchlist' && s.selectedEventId !== null && s.watchEvents[s.selectedEventId])
    return { view: 'event', eventId: s.selectedEventId };
  if (s.view === 'settlements' && typeof s.listCursor.settlements === 'number')
    return { view: 'event', eventId: s.listCursor.settlements };
  if (s.view === 'alerts' && typeof s.listCursor.alerts === 'number') {
    const alert = s.alertsById[s.listCursor.alerts];
    if (alert && alert.eventId !== null) return { view: 'event', eventId: alert.eventId };
  }
  const view = windowViewOf(s.view);
  return view ? { view } : null;
}

export interface WindowAction {
  id: string;
  label: string;
  hint?: string;
  run(): void;
}

/** The palette's actions: what Shift+Enter opens, this view, and the lists a second monitor is for. */
export function newWindowActions(): WindowAction[] {
  const s = useStore.getState();
  const open = (target: WindowTarget) => () => void openInNewWindow(target);
  const where = host.desktop ? 'a new window' : 'a new tab';
  const label = (t: WindowTarget) => `Open ${t.view === 'event' ? nameOf(t.eventId) : windowTitle(t)} in ${where}`;
  const out: WindowAction[] = [];
  const here = targetHere();
  if (here) out.push({ id: 'window-here', label: label(here), hint: 'Shift+Enter', run: open(here) });
  const view = windowViewOf(s.view);
  if (here?.view === 'event' && view) out.push({ id: 'window-view', label: label({ view }), run: open({ view }) });
  for (const v of ['movers', 'alerts', 'settlements', 'bets', 'watchlist'] as const) {
    if (v !== s.view) out.push({ id: `window-${v}`, label: label({ view: v }), run: open({ view: v }) });
  }
  return out;
}

function nameOf(eventId: number): string {
  const ev = useStore.getState().watchEvents[eventId];
  return ev?.runnerHome && ev.runnerAway ? `${ev.runnerHome} v ${ev.runnerAway}` : `event ${eventId}`;
}

/** Shift+Enter, before the lists' own Enter (which would open the row here as well). */
function onKeyDown(e: KeyboardEvent) {
  if (e.key !== 'Enter' || !e.shiftKey || e.ctrlKey || e.metaKey || e.altKey) return;
  if (useStore.getState().paletteOpen || isTextField(e.target) || e.target instanceof HTMLButtonElement) return;
  const target = targetHere();
  if (!target) return;
  e.preventDefault();
  e.stopPropagation();
  void openInNewWindow(target);
}

// ---- one window plays the alert sounds ----

let soundsHere = !('locks' in navigator);

/**
 * Every window and tab hears every alert; only the one holding this lock (the first to start, then the next when it
 * closes) plays its sound, so two windows never play one alert twice. Without Web Locks every window plays.
 */
function claimAlertSounds(): void {
  if (!('locks' in navigator)) return;
  navigator.locks
    .request('oddsdesk.alert-sounds', () => {
      soundsHere = true;
      // Held for as long as this page lives.
      return new Promise<never>(() => undefined);
    })
    .catch(() => {
      soundsHere = true;
    });
}

/** Does this window play the alert sounds? */
export function playsAlertSounds(): boolean {
  return soundsHere;
}

let started = false;
/** Keeps to the pinned view, installs Shift+Enter and claims the alert sounds; once, at start. */
export function startWindow(): void {
  if (started) return;
  started = true;
  keepToPinned();
  window.addEventListener('keydown', onKeyDown, true);
  claimAlertSounds();
}
