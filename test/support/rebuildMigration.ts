// A migration of the kind that rebuilds a table, on the table a long history makes biggest (line_bars, the packed
// one-minute bars): the same columns with a CHECK that ALTER TABLE cannot add, copied across by the store's
// rebuildTable. Not one of the app's migrations: the migration kill test (test/store/migration-kill.test.ts) and the
// history bench (bench/history.ts) run it after the app's own, to see what such a migration does to a file.
import { LATEST_VERSION, rebuildTable, type Migration } from '../../src/core/store';

export const REBUILD_VERSION = LATEST_VERSION + 1;
/** What the rebuilt table's schema has and the old one lacks. */
export const REBUILT_MARK = 'CHECK (ticks > 0)';

export function rebuildLineBars(sliceRows = 20_000): Migration {
  return {
    version: REBUILD_VERSION,
    name: 'line_bars rebuilt with a check on ticks',
    up: (db, progress) =>
      rebuildTable(db, {
        table: 'line_bars',
        create: `CREATE TABLE {table} (
          event_id INTEGER NOT NULL,
          line_id INTEGER NOT NULL,
          hour INTEGER NOT NULL,
          ticks INTEGER NOT NULL ${REBUILT_MARK},
          bars BLOB NOT NULL
        )`,
        indexes: ['CREATE UNIQUE INDEX line_bars_by_line ON line_bars(event_id, line_id, hour)'],
        sliceRows,
      }, progress),
  };
}
