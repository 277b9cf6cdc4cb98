// Keyboard-first: one window-level handler, installed once outside React. Single letters switch views and arrows,
// Enter and Del act on the watchlist, only while no text field has focus; Ctrl/Cmd+K toggles the palette anywhere.
import { useStore } from './store';
import { selectVisibleWatchIds } from './store/selectors';
import type { ViewName } from './store/ui';

export const VIEW_KEYS: Record<string, ViewName> = {
  w: 'watchlist',
  m: 'movers',
  b: 'bets',
  s: 'specials',
  o: 'outrights',
  t: 'settlements',
  a: 'alerts',
  c: 'coverage',
  ',': 'settings',
};

/** In the event detail: record a bet on the selected line (the form is ./views/RecordBet.tsx). */
export const RECORD_BET_KEY = 'r';
export const RECORD_BET_EVENT = 'oddsdesk:record-bet';

/**
 * Keys of a view's own (Top movers: 1/2/3 sort by 5/15/60 min; Bets: 1/2/3 all/open/settled, X export): the view
 * registers its handler while mounted; it runs after the global keys, never while a text field has focus.
 */
type ViewKeyHandler = (e: KeyboardEvent) => boolean;
const viewKeyHandlers = new Map<ViewName, ViewKeyHandler>();
export function setViewKeys(view: ViewName, handler: ViewKeyHandler): () => void {
  viewKeyHandlers.set(view, handler);
  return () => {
    if (viewKeyHandlers.get(view) === handler) viewKeyHandlers.delete(view);
  };
}

const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color']);

export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !NON_TEXT_INPUTS.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

export function focusSearch(): void {
  const el = document.querySelector<HTMLInputElement>('main [data-search]');
  el?.focus();
  el?.select();
}

function moveSelection(delta: number) {
  const s = useStore.getState();
  const ids = selectVisibleWatchIds(s);
  if (ids.length === 0) return;
  const i = s.selectedEventId === null ? -1 : ids.indexOf(s.selectedEventId);
  const next = i < 0 ? (delta > 0 ? 0 : ids.length - 1) : Math.min(ids.length - 1, Math.max(0, i + delta));
  s.selectEvent(ids[next]!);
}

async function removeSelected() {
  const s = useStore.getState();
  const id = s.selectedEventId;
  if (id === null || !s.watchEvents[id]) return;
  const ids = selectVisibleWatchIds(s);
  const i = ids.indexOf(id);
  const err = await s.removeWatch(id);
  if (err) {
    s.toast(`Could not remove the watch: ${err.message}`, 'error');
    return;
  }
  const rest = ids.filter((x) => x !== id);
  useStore.getState().selectEvent(rest[Math.min(i, rest.length - 1)] ?? null);
}

function onKeyDown(e: KeyboardEvent) {
  const s = useStore.getState();
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
    e.preventDefault();
    s.setPaletteOpen(!s.paletteOpen);
    return;
  }
  if (s.paletteOpen || e.defaultPrevented) return;
  const typing = isTextField(e.target);
  if (e.key === 'Escape') {
    if (typing) (e.target as HTMLElement).blur();
    if (s.fixturesOpen && s.view === 'watchlist') s.setFixturesOpen(false);
    else if (typing) return;
    else if (s.view === 'watchlist' && s.detailOpen) s.setDetailOpen(false);
    return;
  }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  const view = VIEW_KEYS[e.key.toLowerCase()];
  if (view) {
    e.preventDefault();
    s.setView(view);
    return;
  }
  if (e.key === '/') {
    e.preventDefault();
    focusSearch();
    return;
  }
  const own = viewKeyHandlers.get(s.view);
  if (own) {
    if (own(e)) e.preventDefault();
    return;
  }
  if (s.view !== 'watchlist') return;
  if (e.key.toLowerCase() === RECORD_BET_KEY && s.detailOpen && s.selectedEventId !== null) {
    e.preventDefault();
    window.dispatchEvent(new CustomEvent(RECORD_BET_EVENT, { detail: { eventId: s.selectedEventId } }));
    return;
  }
  // Buttons keep their own Enter/Space; arrows and Del belong to the grid.
  const onButton = e.target instanceof HTMLButtonElement;
  switch (e.key) {
    case 'ArrowDown':
      e.preventDefault();
      moveSelection(1);
      break;
    case 'ArrowUp':
      e.preventDefault();
      moveSelection(-1);
      break;
    case 'PageDown':
      e.preventDefault();
      moveSelection(20);
      break;
    case 'PageUp':
      e.preventDefault();
      moveSelection(-20);
      break;
    case 'Enter':
      if (!onButton && s.selectedEventId !== null) {
        e.preventDefault();
        s.setDetailOpen(true);
      }
      break;
    case 'Delete':
    case 'Backspace':
      if (s.selectedEventId !== null) {
        e.preventDefault();
        void removeSelected();
      }
      break;
  }
}

let installed = false;
export function installKeys(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('keydown', onKeyDown);
}
