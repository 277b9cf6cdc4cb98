// Migration 003: period results still owed. A set-sport settlement's results are published per event, sometimes
// after the settlement; what the app still has to fetch is a table, not a map in memory, so a restart neither
// forgets a watched match's results nor asks again for ones it already has.
import type { Migration } from './types';

export const migration003: Migration = {
  version: 3,
  name: 'period results owed',
  up(db) {
    db.exec(`
      CREATE TABLE results_owed (
        event_id   INTEGER PRIMARY KEY,
        settled_at INTEGER NOT NULL,
        -- 1: a watched match, fetched at once; 0: fetched when the trader opens it or from spare quota.
        watched    INTEGER NOT NULL DEFAULT 0,
        attempts   INTEGER NOT NULL DEFAULT 0,
        -- ms; not asked again before this (results come late; a fault waits its turn).
        next_at    INTEGER NOT NULL DEFAULT 0
      ) WITHOUT ROWID;
      CREATE INDEX results_owed_due ON results_owed (watched DESC, settled_at DESC);
    `);
  },
};
