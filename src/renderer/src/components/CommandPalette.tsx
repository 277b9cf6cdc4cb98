// Ctrl/Cmd+K: one box that finds events (watched and fixtures), views and actions, and runs the chosen one. It lists
// whatever the app can do from a key or a button (views, theme, do-not-disturb, the selected event's detail, bet,
// mute, snooze and removal, undo, exports, checking settlements, the lists' own keys), each with its key: the
// actions of a view's keys are those very keys, pressed in that view (pressViewKey), so the two cannot disagree.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FixtureView } from '../../../shared/ipc/contract';
import { api } from '../api';
import { eventName, fmtDateTime, serviceMs } from '../format';
import { newWindowActions } from '../route';
import { focusEvent, useStore } from '../store';
import { focusSearch, pressViewKey, RECORD_BET_EVENT, VIEW_KEYS } from '../keys';
import { askNotificationPermission, notificationPermission } from '../notify';
import type { ViewName } from '../store/ui';
import { SNOOZE_CHOICES, snooze } from './Snooze';

interface Item {
  id: string;
  group: 'Event' | 'View' | 'Action';
  label: string;
  hint?: string;
  run(): void | Promise<void>;
}

const VIEW_TITLES: Record<ViewName, string> = {
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
export { VIEW_TITLES };

const keyOf = (v: ViewName) => Object.entries(VIEW_KEYS).find(([, view]) => view === v)?.[0] ?? '';

export function CommandPalette() {
  const close = () => useStore.getState().setPaletteOpen(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [fixtures, setFixtures] = useState<FixtureView[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const watchEvents = useStore((s) => s.watchEvents);

  useEffect(() => {
    input.current?.focus();
    let alive = true;
    void api.invoke('fixtures:list', {}).then((r) => alive && r.ok && setFixtures(r.value));
    return () => {
      alive = false;
    };
  }, []);

  const items = useMemo<Item[]>(() => {
    const s = useStore.getState();
    const toast = s.toast;
    const views: Item[] = (Object.keys(VIEW_TITLES) as ViewName[]).map((v) => ({
      id: `view-${v}`,
      group: 'View',
      label: `Go to ${VIEW_TITLES[v]}`,
      hint: keyOf(v).toUpperCase(),
      run: () => s.setView(v),
    }));
    const act = (id: string, label: string, run: Item['run'], hint?: string): Item => ({
      id: `act-${id}`,
      group: 'Action',
      label,
      run,
      ...(hint ? { hint } : {}),
    });
    const actions: Item[] = [
      ...(s.undo ? [act('undo', s.undo.label, () => void useStore.getState().runUndo(), 'Z / Ctrl+Z')] : []),
      act('fixtures', 'Browse fixtures to watch', () =>
        useStore.setState({ view: 'watchlist', fixturesOpen: true, openedFrom: null }),
      ),
      act('search', "Search or filter this view's list", () => focusSearch(), '/'),
      act(
        'theme',
        `Switch to the ${s.theme === 'dark' ? 'light' : 'dark'} theme`,
        () => void s.updateSettings({ theme: s.theme === 'dark' ? 'light' : 'dark' }),
      ),
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
        const r = await api.invoke('settlements:syncNow');
        toast(
          r.ok ? `Settlements checked: ${r.value.added} new` : `Could not check settlements: ${r.error.message}`,
          r.ok ? 'info' : 'error',
        );
        if (r.ok) void useStore.getState().loadSettlements();
      }),
      act(
        'export-settlements',
        'Export the settlements shown (CSV)',
        () => pressViewKey('settlements', 'x'),
        'T then X',
      ),
      act('export-bets', 'Export the bets shown (CSV)', () => pressViewKey('bets', 'x'), 'B then X'),
      act('bets-all', 'Bets: show all', () => pressViewKey('bets', '1'), 'B then 1'),
      act('bets-open', 'Bets: show open bets', () => pressViewKey('bets', '2'), 'B then 2'),
      act('bets-settled', 'Bets: show settled bets', () => pressViewKey('bets', '3'), 'B then 3'),
      act('movers-5', 'Top movers: rank by the 5-minute move', () => pressViewKey('movers', '1'), 'M then 1'),
      act('movers-15', 'Top movers: rank by the 15-minute move', () => pressViewKey('movers', '2'), 'M then 2'),
      act('movers-60', 'Top movers: rank by the 60-minute move', () => pressViewKey('movers', '3'), 'M then 3'),
      act('reconnect', 'Reconnect to the service now', async () => {
        const r = await api.invoke('app:reconnect');
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
    // The selected event's own actions.
    const sel = s.selectedEventId !== null ? s.watchEvents[s.selectedEventId] : undefined;
    if (sel) {
      const id = sel.eventId;
      const name = eventName(sel.runnerHome, sel.runnerAway, id);
      const muted = s.settings?.mutedEvents.includes(id) ?? false;
      const snoozed = s.settings?.snoozedEvents.some((x) => x.eventId === id && x.until > Date.now()) ?? false;
      actions.push(
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
      );
    }
    if (s.view === 'watchlist' && s.detailOpen)
      actions.push(act('close-detail', 'Close the event detail', () => s.setDetailOpen(false), 'Esc'));
    // Windows of their own (a second monitor): what Shift+Enter opens here, this view, the lists.
    actions.push(
      ...newWindowActions().map((w): Item => ({
        id: `act-${w.id}`,
        group: 'Action',
        label: w.label,
        run: w.run,
        ...(w.hint ? { hint: w.hint } : {}),
      })),
    );
    const id = Number(query.trim());
    if (query.trim() && Number.isInteger(id) && id >= 0 && !watchEvents[id]) {
      actions.unshift({
        id: 'act-watch-id',
        group: 'Action',
        label: `Watch event #${id}`,
        run: async () => {
          const err = await s.addWatch(id);
          if (err) toast(`Could not watch ${id}: ${err.message}`, 'error');
          else focusEvent(id);
        },
      });
    }
    const watched: Item[] = Object.values(watchEvents).map((e) => ({
      id: `ev-${e.eventId}`,
      group: 'Event',
      label: eventName(e.runnerHome, e.runnerAway, e.eventId),
      hint: `watched · ${e.leagueName ?? ''} · #${e.eventId}`,
      run: () => focusEvent(e.eventId),
    }));
    const fx: Item[] = fixtures
      .filter((f) => !watchEvents[f.event_id])
      .map((f) => ({
        id: `fx-${f.event_id}`,
        group: 'Event',
        label: `${f.runner_home} v ${f.runner_away}`,
        hint: `${f.sport_name} · ${f.league_name} · ${fmtDateTime(serviceMs(f.starts))} · #${f.event_id} · Enter watches`,
        run: async () => {
          const err = await s.addWatch(f.event_id);
          if (err) toast(`Could not watch: ${err.message}`, 'error');
          else focusEvent(f.event_id);
        },
      }));
    return [...actions, ...views, ...watched, ...fx];
  }, [query, watchEvents, fixtures]);

  const shown = useMemo(() => {
    const tokens = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const hits = tokens.length
      ? items.filter((it) => tokens.every((t) => `${it.label} ${it.hint ?? ''}`.toLowerCase().includes(t)))
      : items.filter((it) => it.group !== 'Event' || it.id.startsWith('ev-'));
    return hits.slice(0, 50);
  }, [items, query]);

  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const run = (it: Item | undefined) => {
    if (!it) return;
    close();
    void it.run();
  };

  return (
    <div className="palette-backdrop" onMouseDown={close}>
      <div
        className="palette"
        role="dialog"
        aria-label="Command palette"
        data-testid="palette"
        onMouseDown={(e) => e.stopPropagation()}
      >
        <input
          ref={input}
          data-testid="palette-input"
          placeholder="Find an event, a view or an action…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setActive((a) => Math.min(shown.length - 1, a + 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => Math.max(0, a - 1));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              run(shown[active]);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              close();
            }
          }}
          aria-activedescendant={shown[active] ? `pal-${shown[active].id}` : undefined}
        />
        <ul ref={list} role="listbox">
          {shown.map((it, i) => (
            <li
              key={it.id}
              id={`pal-${it.id}`}
              role="option"
              aria-selected={i === active}
              data-index={i}
              data-testid="palette-item"
              className={i === active ? 'active' : undefined}
              onMouseEnter={() => setActive(i)}
              onClick={() => run(it)}
            >
              <span className="pal-group">{it.group}</span>
              <span className="pal-label">{it.label}</span>
              {it.hint && <span className="pal-hint">{it.hint}</span>}
            </li>
          ))}
          {shown.length === 0 && <li className="muted">Nothing matches “{query}”.</li>}
        </ul>
      </div>
    </div>
  );
}
