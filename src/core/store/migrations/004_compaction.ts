// Migration 004: tick history that stays small. Odds ticks older than the raw window are folded into per-line
// one-minute bars, packed one row per line per hour (see ../queries/bars.ts for the blob layout), and the ticks where a
// line's max_win changed are kept whole, for good, beside them.
import type { Migration } from './types';

export const migration004: Migration = {
  version: 4,
  name: 'compacted odds history',
  up(db) {
    db.exec(`
      -- One row per line per clock hour: that hour's one-minute bars in one blob. A rowid table with a separate
      -- unique index, because the blobs (about a kilobyte) are too wide for a WITHOUT ROWID b-tree.
      -- ticks: how many raw ticks the bars hold, so usage and the crash test can count without decoding.
      CREATE TABLE line_bars (
        event_id INTEGER NOT NULL,
        line_id INTEGER NOT NULL,
        hour INTEGER NOT NULL,
        ticks INTEGER NOT NULL,
        bars BLOB NOT NULL
      );
      CREATE UNIQUE INDEX line_bars_by_line ON line_bars(event_id, line_id, hour);

      -- The ticks at which a market line's max_win changed (the first tick of a line is its baseline, with no
      -- previous value), whole: kept for good, whatever the tick retention. Compaction writes them; an upsert on
      -- the key makes a second writer (the monitor, at ingest) harmless.
      CREATE TABLE line_max_win_points (
        event_id INTEGER NOT NULL,
        line_id INTEGER NOT NULL,
        at INTEGER NOT NULL,
        max_win REAL,
        previous_max_win REAL,
        line REAL,
        price_home REAL,
        price_draw REAL,
        price_away REAL,
        price_over REAL,
        price_under REAL,
        PRIMARY KEY (event_id, line_id, at)
      ) WITHOUT ROWID;
    `);
  },
};
