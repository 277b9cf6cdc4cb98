// The watchlist grid as the trader shapes it: which columns it shows, in which order, and what it is sorted by. One
// profile keeps one layout (the core stores it with the profile's settings; the contract checks it); the renderer
// draws it. Pure, no I/O.

/**
 * The grid's columns besides the event (always first, and sticky). A price column is a group: the moneyline's 1, X
 * and 2; their fair prices; the spread's line with its home and away prices; the total's line with over and under.
 */
export const GRID_COLUMNS = [
  'league',
  'start',
  'score',
  'moneyline',
  'fair',
  'spread',
  'total',
  'move',
  'age',
  'maxWin',
] as const;
export type GridColumn = (typeof GRID_COLUMNS)[number];

/** What the grid can be sorted by: the event's facts, and each price, line and figure it shows. */
export const GRID_SORT_KEYS = [
  'event',
  'league',
  'start',
  'score',
  'added',
  'home',
  'draw',
  'away',
  'fairHome',
  'fairDraw',
  'fairAway',
  'spreadLine',
  'spreadHome',
  'spreadAway',
  'totalLine',
  'over',
  'under',
  'move',
  'age',
  'maxWin',
] as const;
export type GridSortKey = (typeof GRID_SORT_KEYS)[number];

export interface GridSort {
  key: GridSortKey;
  /** 1: ascending, -1: descending. */
  dir: 1 | -1;
}

export interface GridLayout {
  /** The columns shown, in order; null: the default set that fits the grid's width (it changes with the width). */
  columns: GridColumn[] | null;
  sort: GridSort;
}

export const DEFAULT_GRID_LAYOUT: GridLayout = { columns: null, sort: { key: 'start', dir: 1 } };

export const isGridColumn = (x: unknown): x is GridColumn =>
  typeof x === 'string' && (GRID_COLUMNS as readonly string[]).includes(x);
export const isGridSortKey = (x: unknown): x is GridSortKey =>
  typeof x === 'string' && (GRID_SORT_KEYS as readonly string[]).includes(x);

/**
 * A stored layout read back: columns this version does not know (an older or newer app wrote them) and repeats are
 * dropped, a sort it does not know falls back to the default. Never throws.
 */
export function readGridLayout(raw: unknown): GridLayout {
  if (!raw || typeof raw !== 'object') return DEFAULT_GRID_LAYOUT;
  const r = raw as { columns?: unknown; sort?: unknown };
  const columns = Array.isArray(r.columns) ? [...new Set(r.columns.filter(isGridColumn))] : null;
  const s = (r.sort && typeof r.sort === 'object' ? r.sort : {}) as { key?: unknown; dir?: unknown };
  const sort: GridSort = isGridSortKey(s.key) ? { key: s.key, dir: s.dir === -1 ? -1 : 1 } : DEFAULT_GRID_LAYOUT.sort;
  return { columns, sort };
}
