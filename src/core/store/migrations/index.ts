// The ordered list of schema migrations and the runner that applies them under PRAGMA user_version.
import type Database from 'better-sqlite3';
import type { Migration, MigrationProgress } from './types';
import { migration001 } from './001_init';
import { migration002 } from './002_queries';
import { migration003 } from './003_results_owed';
import { migration004 } from './004_compaction';
import { migration005 } from './005_bets';
import { migration006 } from './006_trading';
import { migration007 } from './007_special_offered_odds';
import { migration008 } from './008_writer_progress';
import { migration009 } from './009_settlement_revisions';
import { migration010 } from './010_bet_revisions';
import { migration011 } from './011_other_matches';
import { migration012 } from './012_model_score_sums';

export type { Migration, MigrationProgress } from './types';
export { rebuildTable, type TableRebuild } from './rebuild';

export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
];
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export interface MigrateOptions {
  /** Where a migration's progress goes (a table rebuild on a big file takes a while): the host's status. */
  onProgress?: (p: MigrationProgress) => void;
  /** The migrations to apply (tests and the history bench add one of their own after the app's); default MIGRATIONS. */
  migrations?: readonly Migration[];
}

/**
 * Brings the schema up to `to` (default: the latest). Each migration and its user_version bump commit together, so
 * a crash mid-migration (a SIGKILL halfway through a table rebuild too) leaves the previous version intact: the file
 * is as it was or migrated, never half. A file from a newer app is refused, not downgraded.
 */
export function migrate(db: Database.Database, to?: number, options: MigrateOptions = {}): number {
  const migrations = options.migrations ?? MIGRATIONS;
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const target = to ?? latest;
  const from = schemaVersion(db);
  if (from > latest) {
    throw new Error(`The history file has schema version ${from}, newer than this app knows (${latest}).`);
  }
  for (const m of migrations) {
    if (m.version <= from || m.version > target) continue;
    const progress = (done: number, total: number) =>
      options.onProgress?.({ version: m.version, name: m.name, done, total });
    db.transaction(() => {
      m.up(db, progress);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return schemaVersion(db);
}
