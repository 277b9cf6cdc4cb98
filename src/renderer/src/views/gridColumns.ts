// The watchlist grid's columns on screen: each column's header cells (one per price, line or figure, each sortable),
// its widths, the default set that fits the width the grid has, and the CSS grid template. Pure, so the fitting rule
// is tested without a browser. The trader's own choice (columns, order, sort) is src/shared/gridLayout.ts.
import type { GridColumn, GridSortKey } from '../../../shared/gridLayout';
import { GRID_COLUMNS } from '../../../shared/gridLayout';

export interface HeaderCell {
  key: GridSortKey;
  label: string;
  title: string;
  /** A number column (right-aligned). */
  num: boolean;
  /** Width in px. */
  width: number;
}

/** The event column: never narrower than this (its header holds the sort and the Columns button). */
export const EVENT_MIN_WIDTH = 150;
/** What the event column is given before the names on screen have been measured. */
export const EVENT_FIT_WIDTH = 150;

/**
 * What the cells need, measured from what they show (GridSizer.tsx): the event column's width (its longest name) and
 * each header cell's (its widest text, or its label's). A cell not measured yet has its width below.
 */
export interface ContentWidths {
  event: number;
  cells: Partial<Record<GridSortKey, number>>;
}

// Before they are measured: prices 60 px ("▲ 12.500", "+1150", "11/2"), a line 52 px ("+0.75", "224.5"), a score 88 px.
const cell = (key: GridSortKey, label: string, title: string, width: number, num = true): HeaderCell => ({
  key,
  label,
  title,
  num,
  width,
});
export const COLUMN_CELLS: Record<GridColumn, HeaderCell[]> = {
  league: [cell('league', 'League', 'The league or competition', 120, false)],
  start: [cell('start', 'Start', 'When the match starts (or started), in your time zone', 84, false)],
  score: [cell('score', 'Score', 'Live or final score', 88, false)],
  moneyline: [
    cell('home', '1', 'Moneyline: the home side to win', 60),
    cell('draw', 'X', 'Moneyline: the draw', 60),
    cell('away', '2', 'Moneyline: the away side to win', 60),
  ],
  fair: [
    cell('fairHome', 'Fair 1', "The moneyline's fair (no-vig) price for home, under your de-vig model", 56),
    cell('fairDraw', 'Fair X', "The moneyline's fair (no-vig) price for the draw, under your de-vig model", 56),
    cell('fairAway', 'Fair 2', "The moneyline's fair (no-vig) price for away, under your de-vig model", 56),
  ],
  spread: [
    cell('spreadLine', 'Spread', "The main spread: the home side's handicap", 52),
    cell('spreadHome', 'Home', 'The main spread: home at its handicap', 60),
    cell('spreadAway', 'Away', 'The main spread: away at its handicap', 60),
  ],
  total: [
    cell('totalLine', 'Total', 'The main total', 52),
    cell('over', 'Over', 'The main total: over', 60),
    cell('under', 'Under', 'The main total: under', 60),
  ],
  move: [
    cell(
      'move',
      'Move',
      'The moneyline side whose fair price moved most in the last 15 minutes, and by how much (the Top movers measure)',
      84,
    ),
  ],
  age: [cell('age', 'Age', "How long ago the row's freshest price was set; dimmed while the feed is not live", 40)],
  maxWin: [cell('maxWin', 'Max stake', 'Limit: the maximum stake accepted on the moneyline', 80)],
};

/** How the column menu names each column. */
export const COLUMN_NAMES: Record<GridColumn, string> = {
  league: 'League',
  start: 'Start',
  score: 'Score',
  moneyline: 'Moneyline (1 X 2)',
  fair: 'Fair prices (1 X 2)',
  spread: 'Spread (line, home, away)',
  total: 'Total (line, over, under)',
  move: 'Move (15 minutes)',
  age: 'Age of the price',
  maxWin: 'Max stake',
};

/** The columns that show prices: a row without prices says why across them. */
export const PRICE_COLUMNS: ReadonlySet<GridColumn> = new Set(['moneyline', 'fair', 'spread', 'total', 'move']);

export const cellWidth = (h: HeaderCell, fit?: ContentWidths): number => fit?.cells[h.key] ?? h.width;
export const columnWidth = (c: GridColumn, fit?: ContentWidths): number =>
  COLUMN_CELLS[c].reduce((sum, h) => sum + cellWidth(h, fit), 0);
/** The event column's width: its longest name, at least EVENT_MIN_WIDTH. */
export const eventWidth = (fit?: ContentWidths): number =>
  Math.max(EVENT_MIN_WIDTH, Math.ceil(fit?.event ?? EVENT_FIT_WIDTH));

/** The default columns, in the order they are shown. */
export const DEFAULT_ORDER: readonly GridColumn[] = [
  'start',
  'score',
  'league',
  'moneyline',
  'spread',
  'total',
  'age',
  'maxWin',
];
/** Which of them stay when the grid is narrow, most wanted first. */
const FIT_PRIORITY: readonly GridColumn[] = [
  'moneyline',
  'score',
  'maxWin',
  'start',
  'total',
  'spread',
  'age',
  'league',
];

/**
 * The default set for a grid `width` px wide: the most wanted columns that fit beside the event column (its names
 * whole), in the default order. At 1280 px with the detail open (about 680 px) that is start, score, the moneyline,
 * age and max stake; at 1600 px with the detail, every default but the league; without the detail, all.
 */
export function autoColumns(width: number, fit?: ContentWidths): GridColumn[] {
  let room = width - eventWidth(fit);
  const chosen = new Set<GridColumn>();
  for (const c of FIT_PRIORITY) {
    const w = columnWidth(c, fit);
    if (w <= room) {
      chosen.add(c);
      room -= w;
    }
  }
  return DEFAULT_ORDER.filter((c) => chosen.has(c));
}

/**
 * The CSS grid template of the header and every row, and the width below which the grid scrolls sideways: every
 * column as wide as what it shows, the event column first; what the window has beyond that is left empty at the
 * right, so the prices sit beside the names rather than at the far edge.
 */
export function gridTemplate(
  columns: readonly GridColumn[],
  fit?: ContentWidths,
): { template: string; minWidth: number } {
  const widths = columns.flatMap((c) => COLUMN_CELLS[c].map((h) => cellWidth(h, fit)));
  const event = eventWidth(fit);
  return {
    template: [`${event}px`, ...widths.map((w) => `${w}px`), 'minmax(0, 1fr)'].join(' '),
    minWidth: event + widths.reduce((a, b) => a + b, 0),
  };
}

/**
 * For a row without prices: the runs of adjacent price columns. The first run carries the reason across all its
 * cells; a later run is one blank cell across its own. A column inside a run (not its first) draws nothing: 0.
 */
export function priceRuns(columns: readonly GridColumn[]): Map<GridColumn, { span: number; first: boolean } | 0> {
  const out = new Map<GridColumn, { span: number; first: boolean } | 0>();
  let firstRun = true;
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    if (!PRICE_COLUMNS.has(c)) continue;
    if (i > 0 && PRICE_COLUMNS.has(columns[i - 1]!)) {
      out.set(c, 0);
      continue;
    }
    let span = 0;
    for (let j = i; j < columns.length && PRICE_COLUMNS.has(columns[j]!); j++) span += COLUMN_CELLS[columns[j]!].length;
    out.set(c, { span, first: firstRun });
    firstRun = false;
  }
  return out;
}

/** The trader's order with one column shown or hidden: shown at the end of the shown ones, or taken out. */
export function toggleColumn(current: readonly GridColumn[], c: GridColumn, on: boolean): GridColumn[] {
  const without = current.filter((x) => x !== c);
  return on ? [...without, c] : without;
}

/** The shown columns with one moved up (-1) or down (+1) a place. */
export function moveColumn(current: readonly GridColumn[], c: GridColumn, by: -1 | 1): GridColumn[] {
  const i = current.indexOf(c);
  const j = i + by;
  if (i < 0 || j < 0 || j >= current.length) return [...current];
  const out = [...current];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** Every column, shown ones first in their order, then the hidden ones in the default order: the menu's list. */
export function menuOrder(shown: readonly GridColumn[]): GridColumn[] {
  return [...shown, ...GRID_COLUMNS.filter((c) => !shown.includes(c))];
}
