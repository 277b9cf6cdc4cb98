// Keyboard-first: one window-level handler, installed once outside React. Single letters switch views and arrows,
// Enter and Del act on the watchlist, only while no text field has focus; Ctrl/Cmd+K toggles the palette anywhere;
// Z (or Ctrl/Cmd+Z) takes back a removal while its toast shows. The other lists (settlements, alerts, movers, bets)
// walk the same way through one hook, useListKeys: arrows, PgUp/PgDn, Home/End, Enter opens the row's thing, Esc
// closes it (and goes back to the list it was opened from).
import { useEffect, useRef } from 'react';
import { useStore } from './store';
import { selectVisibleWatchIds } from './store/selectors';
import type { ViewName } from './store/ui';

export const VIEW_KEYS: Record<string, ViewName> = {
  w: 'watchlist',
  m: 'movers',
  b: 'bets',
  d: 'models',
  l: 'lab',
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
/** Keys sent to a view before it was showing (pressViewKey): they run once its handler is in place. */
const pendingViewKeys = new Map<ViewName, string[]>();
export function setViewKeys(view: ViewName, handler: ViewKeyHandler): () => void {
  viewKeyHandlers.set(view, handler);
  const pending = pendingViewKeys.get(view);
  pendingViewKeys.delete(view);
  for (const key of pending ?? []) handler(new KeyboardEvent('keydown', { key }));
  return () => {
    if (viewKeyHandlers.get(view) === handler) viewKeyHandlers.delete(view);
  };
}

/**
 * Goes to a view and presses one of its keys there (the palette's actions are the views' own keys, so the two never
 * disagree): at once when the view is showing, else as soon as it has registered its keys.
 */
export function pressViewKey(view: ViewName, key: string): void {
  const s = useStore.getState();
  const handler = s.view === view ? viewKeyHandlers.get(view) : undefined;
  if (handler) {
    handler(new KeyboardEvent('keydown', { key }));
    return;
  }
  pendingViewKeys.set(view, [...(pendingViewKeys.get(view) ?? []), key]);
  s.setView(view);
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
  await s.removeWatchWithUndo(id);
  if (useStore.getState().watchEvents[id]) return; // not removed (the toast said why)
  const rest = ids.filter((x) => x !== id);
  useStore.getState().selectEvent(rest[Math.min(i, rest.length - 1)] ?? null);
}

/** Rows PgUp and PgDn move. */
export const LIST_PAGE = 20;

/** What a list gives the keys: its length, where the keyboard is, and what Enter and Esc do there. */
export interface ListKeys {
  count: number;
  /** The selected row's index; -1 for none (the first arrow selects an end). */
  index: number;
  select(index: number): void;
  /** Enter on the selected row: open its thing (an event at its line, a settlement explained). */
  open?(index: number): void;
  /** Esc: close what the list shows opened; false when there is nothing to close. */
  back?(): boolean;
  /** The view's other keys (1/2/3, X, Del...); true when handled. */
  other?(e: KeyboardEvent): boolean;
}

/** One list's keys: true when the key was the list's (the caller prevents its default). */
export function listKey(k: ListKeys, e: KeyboardEvent): boolean {
  const move = (delta: number) => {
    if (k.count === 0) return true;
    const next = k.index < 0 ? (delta > 0 ? 0 : k.count - 1) : Math.min(k.count - 1, Math.max(0, k.index + delta));
    if (next !== k.index) k.select(next);
    return true;
  };
  switch (e.key) {
    case 'ArrowDown':
      return move(1);
    case 'ArrowUp':
      return move(-1);
    case 'PageDown':
      return move(LIST_PAGE);
    case 'PageUp':
      return move(-LIST_PAGE);
    case 'Home':
      if (k.count > 0 && k.index !== 0) k.select(0);
      return true;
    case 'End':
      if (k.count > 0 && k.index !== k.count - 1) k.select(k.count - 1);
      return true;
    case 'Enter':
      // A focused button keeps its own Enter.
      if (e.target instanceof HTMLButtonElement || !k.open || k.index < 0 || k.index >= k.count) return false;
      k.open(k.index);
      return true;
    case 'Escape':
      return k.back?.() ?? false;
  }
  return k.other?.(e) ?? false;
}

/** Registers a list's keys for its view while mounted; reads the latest `keys` on every key press. */
export function useListKeys(view: ViewName, keys: ListKeys): void {
  const latest = useRef(keys);
  latest.current = keys;
  useEffect(() => setViewKeys(view, (e) => listKey(latest.current, e)), [view]);
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
    else if (s.view === 'watchlist' && s.detailOpen) {
      // A detail a list opened closes back to that list (its row still selected).
      s.setDetailOpen(false);
      s.backToList();
    } else if (viewKeyHandlers.get(s.view)?.(e)) e.preventDefault();
    return;
  }
  // Undo a removal while its toast shows: Z, or Ctrl/Cmd+Z (a text field keeps its own).
  if (!typing && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'z' && s.undo) {
    e.preventDefault();
    void s.runUndo();
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
