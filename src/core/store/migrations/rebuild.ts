// A table rebuild, the way SQLite changes what ALTER TABLE cannot (a constraint, a column's type, WITHOUT ROWID): a
// new table under a temporary name, the rows copied across in rowid slices (each slice reports progress, so a big
// file's upgrade shows how far it has got), the old table dropped, the new one renamed and its indexes made again.
// It runs inside the migration's transaction (./index.ts): a kill at any moment rolls the whole rebuild back.
import type Database from 'better-sqlite3';

export interface TableRebuild {
  table: string;
  /** The new table's CREATE TABLE statement, with `{table}` where its name goes. */
  create: string;
  /** The columns copied, in the order of the SELECT (default: every column of the old table, by name). */
  columns?: readonly string[];
  /** CREATE INDEX statements made after the rename. */
  indexes?: readonly string[];
  /** Rows copied a slice (default 20,000). */
  sliceRows?: number;
}

/** Rebuilds a rowid table as `r` says, reporting rows copied of rows to copy after each slice. */
export function rebuildTable(
  db: Database.Database,
  r: TableRebuild,
  progress: (done: number, total: number) => void,
): void {
  const temp = `${r.table}__rebuild`;
  const columns =
    r.columns ?? db.prepare<[string], string>(`SELECT name FROM pragma_table_info(?)`).pluck().all(r.table);
  const list = columns.map((c) => `"${c}"`).join(', ');
  const slice = r.sliceRows ?? 20_000;
  db.exec(r.create.replaceAll('{table}', temp));
  const total = db.prepare<[], number>(`SELECT count(*) FROM "${r.table}"`).pluck().get() ?? 0;
  const copy = db.prepare(`
    INSERT INTO "${temp}" (rowid, ${list})
    SELECT rowid, ${list} FROM "${r.table}" WHERE rowid > ? ORDER BY rowid LIMIT ${slice}`);
  const lastCopied = db.prepare<[], number | null>(`SELECT max(rowid) FROM "${temp}"`).pluck();
  let done = 0;
  let after = -Number.MAX_SAFE_INTEGER;
  progress(0, total);
  for (;;) {
    const n = copy.run(after).changes;
    if (n === 0) break;
    done += n;
    // Rows were just copied: their largest rowid is a number.
    after = lastCopied.get() ?? after;
    progress(done, total);
  }
  db.exec(`DROP TABLE "${r.table}"; ALTER TABLE "${temp}" RENAME TO "${r.table}";`);
  for (const sql of r.indexes ?? []) db.exec(sql);
}
