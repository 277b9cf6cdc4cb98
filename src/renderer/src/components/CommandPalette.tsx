// Ctrl/Cmd+K: one box that finds events (watched and fixtures), views and actions, and runs the chosen one.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FixtureView } from '../../../shared/ipc/contract';
import { api } from '../api';
import { eventName, fmtDateTime, serviceMs } from '../format';
import { focusEvent, useStore } from '../store';
import { VIEW_KEYS } from '../keys';
import type { ViewName } from '../store/ui';

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
    const actions: Item[] = [
      { id: 'act-fixtures', group: 'Action', label: 'Browse fixtures to watch', run: () => useStore.setState({ view: 'watchlist', fixturesOpen: true }) },
      { id: 'act-theme', group: 'Action', label: `Switch to the ${s.theme === 'dark' ? 'light' : 'dark'} theme`, run: () => void s.updateSettings({ theme: s.theme === 'dark' ? 'light' : 'dark' }) },
      {
        id: 'act-dnd',
        group: 'Action',
        label: s.settings?.doNotDisturb ? 'Turn do-not-disturb off' : 'Turn do-not-disturb on',
        run: () => void s.updateSettings({ doNotDisturb: !s.settings?.doNotDisturb }),
      },
      {
        id: 'act-sync',
        group: 'Action',
        label: 'Sync settlements now',
        run: async () => {
          const r = await api.invoke('settlements:syncNow');
          toast(r.ok ? `Settlements synced: ${r.value.added} new` : `Sync failed: ${r.error.message}`, r.ok ? 'info' : 'error');
          if (r.ok) void useStore.getState().loadSettlements();
        },
      },
      { id: 'act-key', group: 'Action', label: 'Enter a new API key', run: () => s.setView('settings') },
    ];
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
    const hits = tokens.length ? items.filter((it) => tokens.every((t) => `${it.label} ${it.hint ?? ''}`.toLowerCase().includes(t))) : items.filter((it) => it.group !== 'Event' || it.id.startsWith('ev-'));
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
      <div className="palette" role="dialog" aria-label="Command palette" data-testid="palette" onMouseDown={(e) => e.stopPropagation()}>
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
