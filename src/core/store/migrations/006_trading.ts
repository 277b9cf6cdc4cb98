// Migration 006: the trading desk's reading of closes and bets (docs/trading.md). A line's close is its last price
// before kick-off (the stream saying live, or the scheduled start passing), not the first suspension; a line missing
// from a fresh snapshot is closed as "gone". close_reason gains 'kickoff' and 'gone' ('offline' stays for closes
// recorded before this version). Bets gain a result the trader sets by hand for a line the app cannot settle.
import type { Migration } from './types';

export const migration006: Migration = {
  version: 6,
  name: 'closes at kick-off, bets settled by hand',
  up(db) {
    db.exec(`
      CREATE TABLE line_closes_new (
        event_id INTEGER NOT NULL,
        line_id INTEGER NOT NULL,
        period INTEGER NOT NULL,
        market TEXT NOT NULL,
        line REAL,
        opened_at INTEGER NOT NULL,
        open_home REAL, open_draw REAL, open_away REAL, open_over REAL, open_under REAL,
        last_at INTEGER NOT NULL,
        last_home REAL, last_draw REAL, last_away REAL, last_over REAL, last_under REAL,
        closed_at INTEGER,
        close_reason TEXT CHECK (close_reason IN ('offline', 'started', 'kickoff', 'gone')),
        PRIMARY KEY (event_id, line_id)
      ) WITHOUT ROWID;
      INSERT INTO line_closes_new SELECT event_id, line_id, period, market, line, opened_at,
        open_home, open_draw, open_away, open_over, open_under, last_at,
        last_home, last_draw, last_away, last_over, last_under, closed_at, close_reason FROM line_closes;
      DROP TABLE line_closes;
      ALTER TABLE line_closes_new RENAME TO line_closes;

      ALTER TABLE bets ADD COLUMN manual_result TEXT
        CHECK (manual_result IN ('win', 'half_win', 'push', 'half_loss', 'loss'));
    `);
  },
};
