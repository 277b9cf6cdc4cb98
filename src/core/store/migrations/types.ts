// The shape of one numbered schema migration.
import type Database from 'better-sqlite3';

export interface Migration {
  /** The user_version the schema has after this migration; migrations run in ascending order, one transaction each. */
  version: number;
  name: string;
  up(db: Database.Database): void;
}
