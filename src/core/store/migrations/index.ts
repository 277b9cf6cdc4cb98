// The ordered list of schema migrations and the runner that applies them under PRAGMA user_version.
import type Database from 'better-sqlite3';
import type { Migration } from './types';
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

export type { Migration } from './types';

export const MIGRATIONS: readonly Migration[] = [migration001, migration002, migration003, migration004, migration005, migration006, migration007, migration008, migration009, migration010, migration011];
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema up to `to` (default: the latest). Each migration and its user_version bump commit together, so
 * a crash mid-migration leaves the previous version intact. A file from a newer app is refused, not downgraded.
 */
export function migrate(db: Database.Database, to: number = LATEST_VERSION): number {
  const from = schemaVersion(db);
  if (from > LATEST_VERSION) {
    throw new Error(`The history file has schema version ${from}, newer than this app knows (${LATEST_VERSION}).`);
  }
  for (const m of MIGRATIONS) {
    if (m.version <= from || m.version > to) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return schemaVersion(db);
}
