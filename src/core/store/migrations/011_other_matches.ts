// Migration 011: one event id, one match (issue 34, class 2). `other_matches` keeps, per event id, the first
// description of it that named another match than the stored one (../../../shared/eventIdentity.ts): the id is
// flagged for good from then on, so the watched row says it at once after a restart, and nothing the service sends
// under the id (description, prices, score, settlement) is ever taken as the stored match's. The stored match's own
// row in `events` is left as it was.
import type { Migration } from './types';

export const migration011: Migration = {
  version: 11,
  name: 'other matches',
  up(db) {
    db.exec(`
      CREATE TABLE other_matches (
        event_id INTEGER PRIMARY KEY,
        -- the other match, as the service first described it under this id
        sport_id INTEGER,
        sport_name TEXT,
        runner_home TEXT,
        runner_away TEXT,
        starts INTEGER,
        -- where that description came from ('stream', 'fixture', 'settlement', 'outright') and when (ms)
        source TEXT NOT NULL,
        seen_at INTEGER NOT NULL
      );
    `);
  },
};
