// The store's upkeep: retention (old tick history deleted in slices, raw odds ticks through compaction so their
// max_win change points stay), compaction steps, the history settings they follow, what the file takes on disk, the
// schema version and where the WAL's checkpoints run.
import type Database from 'better-sqlite3';
import type { CompactProgress, MaintenanceReport, StoreUsage } from '../../../shared/domain';
import { schemaVersion } from '../migrations';
import { HOUR_MS } from './bars';
import { createCompaction, type CompactOptions } from './compaction';
import { measureUsage } from './usage';

export interface HistorySettings {
  retentionDays: number;
  rawTickHours: number;
}

/**
 * Where the WAL's checkpoints (copying committed pages from the -wal file into the database) run:
 *   'thread'  the store's checkpointer: a worker thread with its own connection (../threads/checkpointer.ts); commits never
 *             wait for a checkpoint's copying and syncing;
 *   'sqlite'  SQLite's automatic checkpoint, inside the commit that takes the log past 1,000 pages, on the committing
 *             thread; also what a store falls back to when its checkpointer cannot start or stops;
 *   'off'     none until the store closes (the log grows meanwhile): only for a bench running its own;
 *   'none'    an in-memory store: no WAL at all.
 */
export type WalCheckpoints = 'thread' | 'sqlite' | 'off' | 'none';

export interface Maintenance {
  schemaVersion(): number;
  /** Where the WAL's checkpoints run now: 'thread' unless asked otherwise, 'sqlite' after a checkpointer failed. */
  walCheckpoints(): WalCheckpoints;
  /** Deletes tick history older than the retention window and lets SQLite refresh its planner statistics. */
  maintain(): MaintenanceReport;
  /** Takes changed retention / raw-window settings at run time; the next maintain() and compactStep() use them. */
  configure(settings: Partial<HistorySettings>): HistorySettings;
  /**
   * One small compaction transaction: folds the oldest raw odds ticks past the raw window into bars. Call it
   * again while it returns `done: false`; it resumes from whatever is still raw, after a crash too.
   */
  compactStep(opts?: CompactOptions): CompactProgress;
  /** The file's size and what each kind of history takes. Reads every page (bench: ~1.7 s per GB on a busy 2-core box). */
  usage(): StoreUsage;
}

export const DAY_MS = 86_400_000;
/** Retention deletes in slices so a years-old backlog never holds the write lock for long. */
const RETENTION_SLICE = 20_000;

/** Runs `slice` (one IMMEDIATE transaction each) until it deletes fewer than a slice; returns the rows deleted. */
function deleteInSlices(db: Database.Database, slice: () => number): number {
  let total = 0;
  for (;;) {
    const n = db.transaction(slice).immediate();
    total += n;
    if (n < RETENTION_SLICE) return total;
  }
}

/** maintain(): deletes every kind of tick history past `cutoff`, each in slices. */
function createRetention(db: Database.Database, compactStep: (opts?: CompactOptions) => CompactProgress) {
  // Ticks arrive in time order, so the oldest rowids are the oldest ticks: retention trims that prefix without an
  // index on `at` that every insert would pay for. A late tick out of order simply waits for a later pass.
  const specialTicks = {
    first: db.prepare<[number], number>(`SELECT rowid FROM special_ticks WHERE at >= ? ORDER BY rowid LIMIT 1`).pluck(),
    maxRowid: db.prepare<[], number | null>(`SELECT max(rowid) FROM special_ticks`).pluck(),
    del: db.prepare<[number, number]>(
      `DELETE FROM special_ticks WHERE rowid IN (SELECT rowid FROM special_ticks WHERE rowid < ? ORDER BY rowid LIMIT ?)`,
    ),
  };
  const deleteCoverage = db.prepare<[number]>(`DELETE FROM coverage_samples WHERE at < ?`);
  const deleteOldBars = db.prepare<[number, number]>(
    `DELETE FROM line_bars WHERE rowid IN (SELECT rowid FROM line_bars WHERE hour < ? LIMIT ?)`,
  );

  return (cutoff: number): MaintenanceReport => {
    // No tick newer than the cutoff: everything up to the last rowid goes.
    const keepFrom = specialTicks.first.get(cutoff) ?? (specialTicks.maxRowid.get() ?? 0) + 1;
    const special = deleteInSlices(db, () => specialTicks.del.run(keepFrom, RETENTION_SLICE).changes);
    // Raw odds ticks past retention go through compaction, which keeps their max_win change points.
    let oddsTicks = 0;
    for (;;) {
      const step = compactStep({ before: cutoff, maxRows: RETENTION_SLICE, budgetMs: Infinity });
      oddsTicks += step.ticksCompacted + step.ticksDropped;
      if (step.done) break;
    }
    const coverage = deleteCoverage.run(cutoff).changes;
    // Whole hours only: a bar block straddling the cutoff stays until its hour has passed.
    const cutoffHour = Math.floor(cutoff / HOUR_MS);
    const bars = deleteInSlices(db, () => deleteOldBars.run(cutoffHour, RETENTION_SLICE).changes);
    db.pragma('optimize');
    return {
      oddsTicksDeleted: oddsTicks,
      specialTicksDeleted: special,
      coverageSamplesDeleted: coverage,
      lineBarBlocksDeleted: bars,
    };
  };
}

function checkedSettings(history: HistorySettings, settings: Partial<HistorySettings>): HistorySettings {
  const { retentionDays, rawTickHours } = settings;
  if (retentionDays !== undefined) {
    if (!(Number.isFinite(retentionDays) && retentionDays > 0))
      throw new Error(`retentionDays must be > 0, got ${retentionDays}`);
    history.retentionDays = retentionDays;
  }
  if (rawTickHours !== undefined) {
    if (!(Number.isFinite(rawTickHours) && rawTickHours >= 0))
      throw new Error(`rawTickHours must be >= 0, got ${rawTickHours}`);
    history.rawTickHours = rawTickHours;
  }
  return { ...history };
}

export function createMaintenance(o: {
  db: Database.Database;
  clock: () => number;
  path: string;
  /** The store's history settings: configure() changes them in place. */
  history: HistorySettings;
  walCheckpoints: () => WalCheckpoints;
}): Maintenance {
  const { db, clock, history } = o;
  const compactStep = createCompaction(db, clock, () => ({
    rawTickMs: history.rawTickHours * HOUR_MS,
    retentionMs: history.retentionDays * DAY_MS,
  }));
  const retention = createRetention(db, compactStep);
  return {
    schemaVersion: () => schemaVersion(db),
    walCheckpoints: o.walCheckpoints,
    maintain: () => retention(clock() - history.retentionDays * DAY_MS),
    configure: (settings) => checkedSettings(history, settings),
    compactStep: (opts) => compactStep(opts),
    usage: () => measureUsage(db, o.path, history),
  };
}
