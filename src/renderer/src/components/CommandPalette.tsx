// Ctrl/Cmd+K: one box that finds events (watched and fixtures), views and actions, and runs the chosen one. It lists
// whatever the app can do from a key or a button (views, theme, odds format and time zone, do-not-disturb, the
// selected event's detail, bet, mute, snooze and removal, undo, exports, checking settlements, the lists' own keys),
// each with its key: the actions of a view's keys are those very keys, pressed in that view (pressViewKey), so the
// two cannot disagree.
// What it lists is built by ./paletteCommands.ts; this draws the box and the list and walks it by keys.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { FixtureView } from '../../../shared/ipc/contract';
import { host } from '../host';
import { useStore } from '../store';
import { matchingItems, paletteItems, type PaletteItem } from './paletteCommands';

export { VIEW_TITLES } from './paletteCommands';

/** The fixtures the palette can watch, fetched once when it opens. */
function useFixtures(): FixtureView[] {
  const [fixtures, setFixtures] = useState<FixtureView[]>([]);
  useEffect(() => {
    let alive = true;
    void host.invoke('fixtures:list', {}).then((r) => alive && r.ok && setFixtures(r.value));
    return () => {
      alive = false;
    };
  }, []);
  return fixtures;
}

/**
 * The highlighted item of the list shown, back to the first on a new query and kept in view; the box's keys: arrows
 * move, Enter runs the highlighted item, Esc closes.
 */
function useActiveItem(
  shown: PaletteItem[],
  query: string,
  run: (it: PaletteItem | undefined) => void,
  close: () => void,
) {
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
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
  };
  return { active, setActive, list, onKeyDown };
}

export function CommandPalette() {
  const close = () => useStore.getState().setPaletteOpen(false);
  const [query, setQuery] = useState('');
  const fixtures = useFixtures();
  const input = useRef<HTMLInputElement>(null);
  const watchEvents = useStore((s) => s.watchEvents);
  useEffect(() => input.current?.focus(), []);

  const items = useMemo(
    () => paletteItems(useStore.getState(), query, watchEvents, fixtures),
    [query, watchEvents, fixtures],
  );
  const shown = useMemo(() => matchingItems(items, query), [items, query]);
  const run = (it: PaletteItem | undefined) => {
    if (!it) return;
    close();
    void it.run();
  };
  const { active, setActive, list, onKeyDown } = useActiveItem(shown, query, run, close);

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
          onKeyDown={onKeyDown}
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
