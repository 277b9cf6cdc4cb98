// The shape of one numbered schema migration.
import type Database from 'better-sqlite3';

/** How far a migration has got: `done` of `total` units of its work (rows copied by a table rebuild). */
export interface MigrationProgress {
  version: number;
  name: string;
  done: number;
  total: number;
}

export interface Migration {
  /** The user_version the schema has after this migration; migrations run in ascending order, one transaction each. */
  version: number;
  name: string;
  /**
   * `progress(done, total)`: a migration that takes long on a big file (a table rebuild) says how far it has got, as
   * often as it likes; the runner passes it on to whoever opened the store.
   */
  up(db: Database.Database, progress: (done: number, total: number) => void): void;
}
