// A migration of the kind that rebuilds a table, on the table a long history makes biggest (line_bars, the packed
// one-minute bars): the same columns with a CHECK that ALTER TABLE cannot add, copied across by the store's
// rebuildTable. Not one of the app's migrations: the migration kill test (test/store/migration-kill.test.ts) and the
// history bench (bench/history.ts) run it after the app's own, to see what such a migration does to a file.
import Database from 'better-sqlite3';
import { LATEST_VERSION, rebuildTable, type Migration } from '../../src/core/store';

export const REBUILD_VERSION = LATEST_VERSION + 1;
/** What the rebuilt table's schema has and the old one lacks. */
export const REBUILT_MARK = 'CHECK (ticks > 0)';

export function rebuildLineBars(sliceRows = 20_000): Migration {
  return {
    version: REBUILD_VERSION,
    name: 'line_bars rebuilt with a check on ticks',
    up: (db, progress) =>
      rebuildTable(
        db,
        {
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
        },
        progress,
      ),
  };
}

/** What the rebuild may change and must keep, and whether the file is sound (integrity_check reads every page). */
export interface RebuildShape {
  version: number;
  rebuilt: boolean;
  /** The rebuild's table under its temporary name is in the file: a rebuild left half done. */
  halfBuilt: boolean;
  integrity: string;
  rows: number;
  ticks: number;
  bytes: number;
}

export function rebuildShape(path: string): RebuildShape & { checkMs: number } {
  const db = new Database(path, { readonly: true });
  try {
    const sql = db.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'line_bars'`).pluck().get() as string;
    const sums = db
      .prepare('SELECT count(*) AS rows, sum(ticks) AS ticks, sum(length(bars)) AS bytes FROM line_bars')
      .get() as { rows: number; ticks: number; bytes: number };
    const t = performance.now();
    const integrity = db.pragma('integrity_check', { simple: true }) as string;
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      rebuilt: sql.includes(REBUILT_MARK),
      halfBuilt: db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name GLOB 'line_bars__*'`).pluck().get() !== 0,
      integrity,
      ...sums,
      checkMs: performance.now() - t,
    };
  } finally {
    db.close();
  }
}

/** The shape without the time its check took. */
export const shapeOf = ({ checkMs: _, ...shape }: RebuildShape & { checkMs: number }): RebuildShape => shape;
