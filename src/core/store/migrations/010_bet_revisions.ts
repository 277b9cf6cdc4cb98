// Migration 010: bets editable and removable with undo (issue 34, class 1), every change kept. A bet gains the
// trader's note and `removed_at` (a removed bet leaves every list, total, report and export, but stays in the file so
// Undo can bring it back as it was, under its id). `bet_revisions` holds the bet as each change left it, numbered from
// 1 per bet: 1 is the bet as recorded (backfilled for the bets already here), then every edit, removal and restore.
import type { Migration } from './types';

export const migration010: Migration = {
  version: 10,
  name: 'bet revisions',
  up(db) {
    db.exec(`
      ALTER TABLE bets ADD COLUMN note TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 500);
      ALTER TABLE bets ADD COLUMN removed_at INTEGER;

      CREATE TABLE bet_revisions (
        bet_id INTEGER NOT NULL,
        revision INTEGER NOT NULL CHECK (revision >= 1),
        at INTEGER NOT NULL,
        change TEXT NOT NULL CHECK (change IN ('recorded', 'edited', 'removed', 'restored')),
        -- the bet's price, stake and note after the change
        price REAL NOT NULL CHECK (price > 1),
        stake REAL NOT NULL CHECK (stake > 0),
        note TEXT NOT NULL,
        PRIMARY KEY (bet_id, revision)
      ) WITHOUT ROWID;

      INSERT INTO bet_revisions (bet_id, revision, at, change, price, stake, note)
        SELECT id, 1, placed_at, 'recorded', price, stake, note FROM bets;
    `);
  },
};
