// Migration 005: closing lines of main markets and the trader's bet log. A watched line's opening price (the first
// pre-match price the stream showed) and its last price before the market went offline or the match started are
// kept per line, so a bet's CLV is known without the tick history (which retention trims). Bets stay in this file:
// they never leave the machine.
import type { Migration } from './types';

export const migration005: Migration = {
  version: 5,
  name: 'closing lines and bet log',
  up(db) {
    db.exec(`
      -- last_*: the latest pre-match price; once closed_at is set they are the close and nothing moves them again.
      CREATE TABLE line_closes (
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
        close_reason TEXT CHECK (close_reason IN ('offline', 'started')),
        PRIMARY KEY (event_id, line_id)
      ) WITHOUT ROWID;

      CREATE TABLE bets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        placed_at INTEGER NOT NULL,
        event_id INTEGER NOT NULL,
        line_id INTEGER NOT NULL,
        side TEXT NOT NULL CHECK (side IN ('home', 'draw', 'away', 'over', 'under')),
        price REAL NOT NULL CHECK (price > 1),
        stake REAL NOT NULL CHECK (stake > 0),
        period INTEGER NOT NULL,
        market TEXT NOT NULL,
        line REAL
      );
      CREATE INDEX bets_by_event ON bets(event_id, line_id);
      CREATE INDEX bets_by_time ON bets(placed_at);
    `);
  },
};
