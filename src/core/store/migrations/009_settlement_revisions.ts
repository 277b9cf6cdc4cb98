// Migration 009: re-settlements kept with their history (issue 36, item 7). The service may send a settled match
// again with other results (a correction); `settlements` and `settlement_lines` hold the result as last sent, and
// each result it replaced is kept here, whole (score, status and every line's words), numbered from 1 per match in
// the order they were replaced. A settlement sent again unchanged adds nothing.
import type { Migration } from './types';

export const migration009: Migration = {
  version: 9,
  name: 'settlement revisions',
  up(db) {
    db.exec(`
      CREATE TABLE settlement_revisions (
        event_id INTEGER NOT NULL,
        revision INTEGER NOT NULL CHECK (revision >= 1),
        score_home INTEGER,
        score_away INTEGER,
        status TEXT,
        settled_at INTEGER NOT NULL,
        stored_at INTEGER,
        -- when the service sent the result that replaced this one
        replaced_at INTEGER NOT NULL,
        -- the lines as a JSON array of SettlementLine (the service's shape)
        lines TEXT NOT NULL,
        PRIMARY KEY (event_id, revision)
      ) WITHOUT ROWID;
    `);
  },
};
