// What a window of its own shows (a second monitor): one view, or one event's detail. Named once here for both ends:
// the desktop shell builds the window's address from it (desktop:openWindow), browser mode the new tab's, and the
// page reads it back from the address's fragment at start (`#view=movers`, `#event=123`). Nothing else goes in that
// fragment but browser mode's token, which the page takes out as it loads (src/renderer/src/host/bridgeClient.ts).

/** The views a window can show alone: every view of the navigation (the renderer's VIEWS, checked there). */
export const WINDOW_VIEWS = [
  'watchlist',
  'movers',
  'specials',
  'outrights',
  'settlements',
  'bets',
  'models',
  'lab',
  'alerts',
  'coverage',
  'settings',
] as const;
export type WindowView = (typeof WINDOW_VIEWS)[number];

/** A view, or one event's detail. */
export type WindowTarget = { view: WindowView } | { view: 'event'; eventId: number };

const isWindowView = (v: string | null): v is WindowView =>
  v !== null && (WINDOW_VIEWS as readonly string[]).includes(v);

/** The fragment (without '#') that names `target`: `view=movers` or `event=123`. */
export function windowHash(target: WindowTarget): string {
  return target.view === 'event' ? `event=${target.eventId}` : `view=${target.view}`;
}

/**
 * The target a fragment names, or null for the whole app (no fragment, or one that names nothing it knows: a
 * window never shows something made up from its address). Other parameters (the token) are ignored.
 */
export function parseWindowHash(hash: string): WindowTarget | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const event = params.get('event');
  if (event !== null) {
    const eventId = /^[0-9]{1,16}$/.test(event) ? Number(event) : NaN;
    return Number.isSafeInteger(eventId) ? { view: 'event', eventId } : null;
  }
  const view = params.get('view');
  return isWindowView(view) ? { view } : null;
}

const TITLES: Record<WindowView, string> = {
  watchlist: 'Watchlist',
  movers: 'Top movers',
  specials: 'Specials',
  outrights: 'Outrights',
  settlements: 'Settlements',
  bets: 'Bets',
  models: 'Models',
  lab: 'Rule lab',
  alerts: 'Alerts',
  coverage: 'Coverage',
  settings: 'Settings',
};

/** What the window shows, in words (its title). */
export function windowTitle(target: WindowTarget): string {
  return target.view === 'event' ? `Event ${target.eventId}` : TITLES[target.view];
}

/** Do two targets name the same thing (the window already open for it is brought forward instead)? */
export function sameWindowTarget(a: WindowTarget, b: WindowTarget): boolean {
  return windowHash(a) === windowHash(b);
}
