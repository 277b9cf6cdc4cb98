// What the command palette (./CommandPalette.tsx) offers, built from the store's state as it is when the palette
// lists it: the views, the app's actions, the selected event's own actions, windows of their own, the events watched
// and the fixtures not yet watched. The actions of a view's keys are those very keys, pressed in that view
// (pressViewKey), so the two cannot disagree. Building the list does nothing; running an item does.
import type { FixtureView } from '../../../shared/ipc/contract';
import { host } from '../host';
import { eventName, fmtDateTime, serviceMs } from '../format';
import { newWindowActions } from '../route';
import { focusEvent, useStore, type StoreState } from '../store';
import { focusSearch, pressViewKey, RECORD_BET_EVENT, VIEW_KEYS } from '../keys';
import { askNotificationPermission, notificationPermission } from '../notify';
import type { ViewName } from '../store/ui';
import { SNOOZE_CHOICES, snooze } from './Snooze';
import { changeSetting, openTimeZoneSetting } from '../views/settings/Appearance';
import { DEFAULT_ODDS_FORMAT, ODDS_FORMAT_NAMES, ODDS_FORMATS, systemTimeZone } from '../../../shared/formats';

export interface PaletteItem {
  id: string;
  group: 'Event' | 'View' | 'Action';
  label: string;
  hint?: string;
  /** Listed only for a query that finds it (each odds format by name), so the list with no query stays short. */
  typedOnly?: boolean;
  run(): void | Promise<void>;
}

export const VIEW_TITLES: Record<ViewName, string> = {
  watchlist: 'Watchlist',
  movers: 'Top movers',
  bets: 'Bets',
  models: 'Models',
  lab: 'Rule lab',
  specials: 'Specials',
  outrights: 'Outrights',
  settlements: 'Settlements',
  alerts: 'Alerts',
  coverage: 'Coverage',
  settings: 'Settings',
};

const keyOf = (v: ViewName) => Object.entries(VIEW_KEYS).find(([, view]) => view === v)?.[0] ?? '';

const act = (id: string, label: string, run: PaletteItem['run'], hint?: string): PaletteItem => ({
  id: `act-${id}`,
  group: 'Action',
  label,
  run,
  ...(hint ? { hint } : {}),
});

/** Everything the palette offers for a query, actions first, then views, watched events and fixtures. */
export function paletteItems(
  s: StoreState,
  query: string,
  watchEvents: StoreState['watchEvents'],
  fixtures: FixtureView[],
): PaletteItem[] {
  const actions: PaletteItem[] = [
    ...watchByIdAction(s, query, watchEvents),
    ...appActions(s),
    ...selectedEventActions(s),
    ...(s.view === 'watchlist' && s.detailOpen
      ? [act('close-detail', 'Close the event detail', () => s.setDetailOpen(false), 'Esc')]
      : []),
    // Windows of their own (a second monitor): what Shift+Enter opens here, this view, the lists.
    ...newWindowActions().map((w) => act(w.id, w.label, w.run, w.hint)),
  ];
  return [...actions, ...viewItems(s), ...eventItems(s, watchEvents, fixtures)];
}

/**
 * The items a query shows: every word found in an item's label or hint; with no words, all but the fixtures and the
 * items listed only when typed for.
 */
export function matchingItems(items: PaletteItem[], query: string): PaletteItem[] {
  const tokens = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const hits = tokens.length
    ? items.filter((it) => tokens.every((t) => `${it.label} ${it.hint ?? ''}`.toLowerCase().includes(t)))
    : items.filter((it) => !it.typedOnly && (it.group !== 'Event' || it.id.startsWith('ev-')));
  return hits.slice(0, 50);
}

function viewItems(s: StoreState): PaletteItem[] {
  return (Object.keys(VIEW_TITLES) as ViewName[]).map((v) => ({
    id: `view-${v}`,
    group: 'View',
    label: `Go to ${VIEW_TITLES[v]}`,
    hint: keyOf(v).toUpperCase(),
    run: () => s.setView(v),
  }));
}

/** The app's own actions: undo, fixtures, search, theme, do-not-disturb, the lists' keys, settlements, the key. */
function appActions(s: StoreState): PaletteItem[] {
  const toast = s.toast;
  const actions: PaletteItem[] = [
    ...(s.undo ? [act('undo', s.undo.label, () => void useStore.getState().runUndo(), 'Z / Ctrl+Z')] : []),
    act('fixtures', 'Browse fixtures to watch', () =>
      useStore.setState({ view: 'watchlist', fixturesOpen: true, openedFrom: null }),
    ),
    act('search', "Search or filter this view's list", () => focusSearch(), '/'),
    ...appearanceActions(s),
    act(
      'dnd',
      s.settings?.doNotDisturb ? 'Turn do-not-disturb off' : 'Turn do-not-disturb on (no notification, no sound)',
      () => void s.updateSettings({ doNotDisturb: !s.settings?.doNotDisturb }),
    ),
    act('live-only', s.watchLiveOnly ? 'Watchlist: show every event' : 'Watchlist: show live events only', () => {
      s.setWatchLiveOnly(!s.watchLiveOnly);
      s.setView('watchlist');
    }),
    act('check-settlements', 'Check settlements now', async () => {
      const r = await host.invoke('settlements:syncNow');
      toast(
        r.ok ? `Settlements checked: ${r.value.added} new` : `Could not check settlements: ${r.error.message}`,
        r.ok ? 'info' : 'error',
      );
      if (r.ok) void useStore.getState().loadSettlements();
    }),
    act('export-settlements', 'Export the settlements shown (CSV)', () => pressViewKey('settlements', 'x'), 'T then X'),
    act('export-bets', 'Export the bets shown (CSV)', () => pressViewKey('bets', 'x'), 'B then X'),
    act('bets-all', 'Bets: show all', () => pressViewKey('bets', '1'), 'B then 1'),
    act('bets-open', 'Bets: show open bets', () => pressViewKey('bets', '2'), 'B then 2'),
    act('bets-settled', 'Bets: show settled bets', () => pressViewKey('bets', '3'), 'B then 3'),
    act('bets-report', 'Bets: the report (P/L, CLV, by league)', () => pressViewKey('bets', '4'), 'B then 4'),
    act('movers-5', 'Top movers: rank by the 5-minute move', () => pressViewKey('movers', '1'), 'M then 1'),
    act('movers-15', 'Top movers: rank by the 15-minute move', () => pressViewKey('movers', '2'), 'M then 2'),
    act('movers-60', 'Top movers: rank by the 60-minute move', () => pressViewKey('movers', '3'), 'M then 3'),
    act('reconnect', 'Reconnect to the service now', async () => {
      const r = await host.invoke('app:reconnect');
      if (!r.ok) toast(`Could not reconnect: ${r.error.message}`, 'error');
    }),
    act('key', 'Enter a new API key', () => s.setView('settings')),
    act('sounds', 'Alert sounds and notifications (Settings)', () => s.setView('settings')),
  ];
  if (notificationPermission() === 'default') {
    actions.push(
      act('allow-notifications', 'Allow notifications in this browser', () => void askNotificationPermission()),
    );
  }
  return actions;
}

/**
 * The theme, the odds format (each by name) and the time zone, changed as Settings changes them: "format", "odds",
 * "theme" and "zone" each find them. The current choice is marked and left in the list.
 */
function appearanceActions(s: StoreState): PaletteItem[] {
  const format = s.settings?.oddsFormat ?? DEFAULT_ODDS_FORMAT;
  const inUse = (on: boolean) => (on ? ' · in use' : '');
  // The other theme first: the one a trader typing "theme" means.
  const themes = s.theme === 'dark' ? (['light', 'dark'] as const) : (['dark', 'light'] as const);
  return [
    ...themes.map((t) =>
      act(`theme-${t}`, `Theme: ${t}${inUse(s.theme === t)}`, () => changeSetting({ theme: t }, 'Theme')),
    ),
    ...ODDS_FORMATS.map((f) => ({
      ...act(`odds-${f}`, `Odds format: ${ODDS_FORMAT_NAMES[f]}${inUse(format === f)}`, () =>
        changeSetting({ oddsFormat: f }, 'Odds format'),
      ),
      typedOnly: true,
    })),
    act('time-zone', `Time zone: ${s.settings?.timeZone ?? systemTimeZone()}, change it in Settings`, () =>
      openTimeZoneSetting(),
    ),
  ];
}

/** The selected event's own actions: open, record a bet, mute, snooze and stop watching. */
function selectedEventActions(s: StoreState): PaletteItem[] {
  const sel = s.selectedEventId !== null ? s.watchEvents[s.selectedEventId] : undefined;
  if (!sel) return [];
  const id = sel.eventId;
  const name = eventName(sel.runnerHome, sel.runnerAway, id);
  const muted = s.settings?.mutedEvents.includes(id) ?? false;
  const snoozed = s.settings?.snoozedEvents.some((x) => x.eventId === id && x.until > Date.now()) ?? false;
  return [
    act('open-detail', `Open ${name}`, () => s.openEvent(id), 'Enter'),
    act(
      'record-bet',
      `Record a bet on ${name}`,
      () => {
        s.openEvent(id);
        // After the detail (and its form) is on screen: two frames, so its effects have run.
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            window.dispatchEvent(new CustomEvent(RECORD_BET_EVENT, { detail: { eventId: id } })),
          ),
        );
      },
      'R',
    ),
    act('mute', `${muted ? 'Unmute' : 'Mute'} the alerts of ${name}`, () => void s.muteEvent(id, !muted)),
    ...SNOOZE_CHOICES.map((c) =>
      act(`snooze-${c.id}`, `Snooze the alerts of ${name}: ${c.label}`, () => void snooze(id, c)),
    ),
    ...(snoozed ? [act('snooze-off', `End the snooze of ${name}`, () => void snooze(id, null))] : []),
    act('remove', `Stop watching ${name} (undo for 8 s)`, () => void s.removeWatchWithUndo(id), 'Del'),
  ];
}

/** A query that is an event's number not watched yet: watch it. */
function watchByIdAction(s: StoreState, query: string, watchEvents: StoreState['watchEvents']): PaletteItem[] {
  const id = Number(query.trim());
  if (!query.trim() || !Number.isInteger(id) || id < 0 || watchEvents[id]) return [];
  return [
    {
      id: 'act-watch-id',
      group: 'Action',
      label: `Watch event #${id}`,
      run: async () => {
        const err = await s.addWatch(id);
        if (err) s.toast(`Could not watch ${id}: ${err.message}`, 'error');
        else focusEvent(id);
      },
    },
  ];
}

/** The events watched (Enter focuses one), then the fixtures not watched yet (Enter watches one). */
function eventItems(s: StoreState, watchEvents: StoreState['watchEvents'], fixtures: FixtureView[]): PaletteItem[] {
  const watched: PaletteItem[] = Object.values(watchEvents).map((e) => ({
    id: `ev-${e.eventId}`,
    group: 'Event',
    label: eventName(e.runnerHome, e.runnerAway, e.eventId),
    hint: `watched · ${e.leagueName ?? ''} · #${e.eventId}`,
    run: () => focusEvent(e.eventId),
  }));
  const fx: PaletteItem[] = fixtures
    .filter((f) => !watchEvents[f.event_id])
    .map((f) => ({
      id: `fx-${f.event_id}`,
      group: 'Event',
      label: `${f.runner_home} v ${f.runner_away}`,
      hint: `${f.sport_name} · ${f.league_name} · ${fmtDateTime(serviceMs(f.starts))} · #${f.event_id} · Enter watches`,
      run: async () => {
        const err = await s.addWatch(f.event_id);
        if (err) s.toast(`Could not watch: ${err.message}`, 'error');
        else focusEvent(f.event_id);
      },
    }));
  return [...watched, ...fx];
}
