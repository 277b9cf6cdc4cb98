// The grid's default columns fit the width it has (issue 25, item 2: "sensible widths at 1280 px with the detail
// open"), and a row without prices says why across its price columns, wherever the trader put them.
import { describe, expect, it } from 'vitest';
import { GRID_COLUMNS } from '../../../shared/gridLayout';
import {
  autoColumns,
  columnWidth,
  EVENT_FIT_WIDTH,
  gridTemplate,
  menuOrder,
  moveColumn,
  priceRuns,
  toggleColumn,
} from './gridColumns';

// The grid's row width (its scroller's client width) at the window sizes the issue was found at: the window less
// the navigation (150), the detail pane (minmax(420px, 28vw)), the view's padding (24), the grid's border (2) and,
// with a long list, a 15 px scrollbar.
const gridWidth = (window: number, detail: boolean, scrollbar = 0) =>
  window - 150 - (detail ? Math.max(420, window * 0.28) : 0) - 24 - 2 - scrollbar;

describe('the default columns fit the width', () => {
  it('at 1280 px with the detail open: the moneyline, the score, start, age and max stake, and names in full', () => {
    const cols = autoColumns(gridWidth(1280, true));
    expect(cols).toEqual(['start', 'score', 'moneyline', 'age', 'maxWin']);
    const { minWidth } = gridTemplate(cols);
    expect(minWidth).toBeLessThanOrEqual(gridWidth(1280, true));
    // What the event column gets: more than typical names need.
    expect(gridWidth(1280, true) - (minWidth - 150)).toBeGreaterThan(200);
  });

  it('at 1600 px with the detail open: every default but the league; with a scrollbar, also without the age', () => {
    expect(autoColumns(gridWidth(1600, true))).toEqual([
      'start',
      'score',
      'moneyline',
      'spread',
      'total',
      'age',
      'maxWin',
    ]);
    expect(autoColumns(gridWidth(1600, true, 15))).toEqual([
      'start',
      'score',
      'moneyline',
      'spread',
      'total',
      'maxWin',
    ]);
  });

  it('without the detail: every default column, the league too', () => {
    for (const w of [1280, 1600])
      expect(autoColumns(gridWidth(w, false))).toEqual([
        'start',
        'score',
        'league',
        'moneyline',
        'spread',
        'total',
        'age',
        'maxWin',
      ]);
  });

  it('never wider than the grid, at any width, and the event column keeps room for names', () => {
    for (let w = 300; w <= 2400; w += 7) {
      const cols = autoColumns(w);
      const others = cols.reduce((sum, c) => sum + columnWidth(c), 0);
      expect(others + EVENT_FIT_WIDTH, `width ${w}`).toBeLessThanOrEqual(Math.max(w, EVENT_FIT_WIDTH));
    }
  });
});

describe('a row without prices', () => {
  it('says why across the first run of adjacent price columns; a later run is blank; other columns keep their cells', () => {
    const runs = priceRuns(['start', 'moneyline', 'fair', 'age', 'total', 'maxWin']);
    expect(runs.get('moneyline')).toEqual({ span: 6, first: true });
    expect(runs.get('fair')).toBe(0);
    expect(runs.get('total')).toEqual({ span: 3, first: false });
    expect(runs.has('start')).toBe(false);
    expect(runs.has('age')).toBe(false);
    expect(runs.has('maxWin')).toBe(false);
  });
});

describe("the trader's choice", () => {
  it('shows a column at the end, hides one, and moves one a place; the menu lists every column once', () => {
    expect(toggleColumn(['start', 'moneyline'], 'league', true)).toEqual(['start', 'moneyline', 'league']);
    expect(toggleColumn(['start', 'moneyline', 'league'], 'start', false)).toEqual(['moneyline', 'league']);
    expect(moveColumn(['start', 'moneyline', 'league'], 'league', -1)).toEqual(['start', 'league', 'moneyline']);
    expect(moveColumn(['start', 'moneyline'], 'start', -1)).toEqual(['start', 'moneyline']);
    const menu = menuOrder(['total', 'start']);
    expect(menu.slice(0, 2)).toEqual(['total', 'start']);
    expect([...menu].sort()).toEqual([...GRID_COLUMNS].sort());
  });

  it("the template has the event column first, at least 150 px, then each column's cells, then the room left", () => {
    expect(gridTemplate(['age', 'total'])).toEqual({
      template: '150px 40px 52px 60px 60px minmax(0, 1fr)',
      minWidth: 150 + 40 + 172,
    });
  });
});

describe('widths from the content (issue 34, class 5)', () => {
  // Measured as at 1920 px: long names, the long league, a 3-digit score, a 501.000 price.
  const fit = { event: 212.4, cells: { league: 141, start: 96, score: 97, home: 74, draw: 74, away: 74, maxWin: 62 } };

  it('each column as wide as its content; the event column its longest name, never under 150 px; the room left at the right', () => {
    const { template, minWidth } = gridTemplate(['start', 'league', 'moneyline', 'maxWin'], fit);
    expect(template).toBe('213px 96px 141px 74px 74px 74px 62px minmax(0, 1fr)');
    expect(minWidth).toBe(213 + 96 + 141 + 3 * 74 + 62);
    expect(gridTemplate(['age'], { event: 90, cells: {} }).template).toBe('150px 40px minmax(0, 1fr)');
  });

  it('the default set fits the measured widths: a column that would not fit beside the names is left out', () => {
    const all = autoColumns(2000, fit);
    expect(all).toEqual(['start', 'score', 'league', 'moneyline', 'spread', 'total', 'age', 'maxWin']);
    for (let w = 300; w <= 2600; w += 13) {
      const cols = autoColumns(w, fit);
      expect(gridTemplate(cols, fit).minWidth, `width ${w}`).toBeLessThanOrEqual(Math.max(w, 213));
    }
    // Wider names leave less room: at 700 px the league (141 px) no longer fits beside 400 px names.
    expect(autoColumns(700, { ...fit, event: 400 })).not.toContain('league');
  });
});
