// The local store: the app's memory of years of a trader's history, in one SQLite file that survives any crash.
// All SQL of the app lives in this folder; callers see domain types only. Opened by the Electron host, the CLI
// and tests alike: the host passes the path, the clock and (under Electron) the native binding.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type { AlertRecord, CompactProgress, MaintenanceReport, NewAlert, StoreUsage } from '../../shared/domain';
import { makeDatabasePrivate } from '../fileModes';
import { alertCounter, createAlertLog } from './alertLog';
import { HOUR_MS } from './bars';
import { createBetLog, type BetLog } from './queries/bets';
import { startCheckpointer, type Checkpointer } from './threads/checkpointer';
import { createCompaction, type CompactOptions } from './compaction';
import { createLineHistory, type LineHistory } from './queries/history';
import { createIngest, type Ingest } from './queries/ingest';
import { MIGRATIONS, migrate, schemaVersion, type Migration, type MigrationProgress } from './migrations';
import { createReads, type Reads } from './reads';
import { createScoreboardReads, type ScoreboardReads } from './scoreboard';
import { looksLikeSecretName, registerSqlFunctions } from './sqlFunctions';
import { measureUsage } from './usage';
import { createApplier, forgetRuns } from './threads/writeCommands';
import { createWriter, type StoreWriter, type WriterMode } from './threads/writer';

export type { Resettlement, TickBatch } from './queries/ingest';
export type { StoreWriter, WriterMode, WriterProblem } from './threads/writer';
export type { HistoryRange } from './reads';
export type { CompactOptions } from './compaction';
export type { LineCloseOp } from './queries/bets';
export type { LineMaxWinPoint } from './queries/history';
export type { KeptMatch, ScoreboardFilter, ScoreboardRow, StaleMatch } from './scoreboard';
export { LATEST_VERSION, rebuildTable, type Migration, type MigrationProgress, type TableRebuild } from './migrations';

export interface StoreOptions {
  /** The history file; ':memory:' for throwaway stores. */
  path: string;
  /** Path to a better_sqlite3.node built for the host's ABI (Electron); default: the Node build. */
  nativeBinding?: string;
  clock?: () => number;
  /** Days of tick history (raw and bars) kept by maintain() and compaction; change points are kept for good. */
  retentionDays?: number;
  /** Hours of full tick detail; older odds ticks are folded into one-minute bars by compactStep(). */
  rawTickHours?: number;
  /**
   * Where the WAL's checkpoints run (see WalCheckpoints); default 'thread'. 'sqlite' and 'off' are for measuring
   * (bench/checkpoint.ts) and tests. An in-memory store has no WAL, whatever this says.
   */
  checkpoints?: Exclude<WalCheckpoints, 'none'>;
  /** Tests: ms between the checkpointer's looks at the file (default 2,000) and its thread's entry (default beside it). */
  checkpointer?: { everyMs?: number; entry?: string };
  /**
   * Where the stream's writes (ticks, snapshots, closing lines) go: 'thread' (the hosts: off the event loop, see
   * ./writer.ts) or 'inline' (the default: tests, `cli export`; always in memory). Tests may also bound the backlog,
   * name the thread's entry and slow its disk.
   */
  writer?: WriterMode | { mode: WriterMode; maxBacklog?: number; groupMs?: number; entry?: string; slowMs?: number };
  /**
   * Where a warning about the file goes (an existing database or journal others could read, made private on open):
   * the host's logger; stderr when not given (the CLI's export and report).
   */
  warn?: (message: string) => void;
  /**
   * How far the schema upgrade on open has got (a table rebuild on a big file takes a while): the host's status.
   * Called synchronously from inside the upgrade.
   */
  onMigrationProgress?: (p: MigrationProgress) => void;
  /** Migrations after the app's own (the history bench's and the migration kill test's table rebuild); none in the app. */
  extraMigrations?: readonly Migration[];
}

/**
 * Where the WAL's checkpoints (copying committed pages from the -wal file into the database) run:
 *   'thread'  the store's checkpointer: a worker thread with its own connection (./checkpointer.ts); commits never
 *             wait for a checkpoint's copying and syncing;
 *   'sqlite'  SQLite's automatic checkpoint, inside the commit that takes the log past 1,000 pages, on the committing
 *             thread; also what a store falls back to when its checkpointer cannot start or stops;
 *   'off'     none until the store closes (the log grows meanwhile): only for a bench running its own;
 *   'none'    an in-memory store: no WAL at all.
 */
export type WalCheckpoints = 'thread' | 'sqlite' | 'off' | 'none';

export interface HistorySettings {
  retentionDays: number;
  rawTickHours: number;
}

export interface Store extends Ingest, Reads, LineHistory, BetLog, ScoreboardReads {
  readonly path: string;
  /**
   * The stream's writes, in order, off the event loop when the store was opened with writer 'thread' (./writer.ts).
   * A reader of what they write that must see everything handed over so far awaits `writer.settled()` first.
   */
  readonly writer: StoreWriter;
  schemaVersion(): number;
  /** Where the WAL's checkpoints run now: 'thread' unless asked otherwise, 'sqlite' after a checkpointer failed. */
  walCheckpoints(): WalCheckpoints;

  addWatch(eventId: number, at?: number): void;
  removeWatch(eventId: number): void;
  watchIds(): number[];
  /**
   * The highest event id this profile has ever stored (events, watches, settlements, bets), 0 when none: a built-in
   * world (demo) numbers its events above it, so no id the profile remembers ever names another match.
   */
  maxEventId(): number;

  appendAlert(alert: NewAlert): AlertRecord;
  /** Newest first; `beforeId` pages further back. */
  listAlerts(opts?: { limit?: number; beforeId?: number }): AlertRecord[];

  getSetting<T = unknown>(name: string): T | undefined;
  /** Refuses a name that looks like a key, secret or token: the API key lives in the OS keychain, never here. */
  setSetting(name: string, value: unknown): void;
  deleteSetting(name: string): void;
  listSettings(): Record<string, unknown>;

  /** Deletes tick history older than the retention window and lets SQLite refresh its planner statistics. */
  maintain(): MaintenanceReport;
  /** Runs `fn` in one transaction (a savepoint when already inside one): all of it commits, or none of it. */
  transaction<T>(fn: () => T): T;

  /** Notes that a settlement's period results are owed; a watched match goes to the front. */
  oweResults(eventId: number, settledAt: number, watched: boolean): void;
  /** Owed results due at `now`: watched first, then newest settlement first. */
  resultsDue(
    now: number,
    opts: { limit: number; watchedOnly?: boolean },
  ): Array<{ eventId: number; watched: boolean; attempts: number }>;
  /** An attempt that found nothing yet (or failed): ask again after `nextAt`, or give up once `attempts` run out. */
  resultsRetry(eventId: number, nextAt: number, maxAttempts: number): void;
  resultsSettled(eventId: number): void;
  isResultOwed(eventId: number): boolean;
  resultsOwedCount(): number;
  /** Takes changed retention / raw-window settings at run time; the next maintain() and compactStep() use them. */
  configure(settings: Partial<HistorySettings>): HistorySettings;
  /**
   * One small compaction transaction: folds the oldest raw odds ticks past the raw window into bars. Call it
   * again while it returns `done: false`; it resumes from whatever is still raw, after a crash too.
   */
  compactStep(opts?: CompactOptions): CompactProgress;
  /** The file's size and what each kind of history takes. Reads every page (bench: ~1.7 s per GB on a busy 2-core box). */
  usage(): StoreUsage;
  close(): void;
}

export const DEFAULT_RETENTION_DAYS = 30;
/** One hour of full detail: at 2,000 updates/s that is ~560 MB raw; bars take the rest at a few MB an hour. */
export const DEFAULT_RAW_TICK_HOURS = 1;
const DAY_MS = 86_400_000;
/** How often the checkpointer looks at the file: a few seconds of ticks (a few MB of log at 2,000 updates/s). */
const CHECKPOINT_EVERY_MS = 2_000;
/**
 * The -wal file is cut back to this once the log starts over (PRAGMA journal_size_limit): a busy store keeps a file it
 * reuses rather than growing and shrinking it every few seconds, an idle one is truncated to nothing.
 */
export const JOURNAL_SIZE_LIMIT = 16 * 1024 * 1024;
/** SQLite's own default threshold, for a store whose checkpoints run the old way. */
const AUTOCHECKPOINT_PAGES = 1_000;
/** Retention deletes in slices so a years-old backlog never holds the write lock for long. */
const RETENTION_SLICE = 20_000;

export class SecretSettingError extends Error {
  constructor(name: string) {
    super(`Setting "${name}" looks like a credential; the store never holds keys, secrets or tokens.`);
    this.name = 'SecretSettingError';
  }
}

export function openStore(options: StoreOptions): Store {
  const clock = options.clock ?? Date.now;
  const history: HistorySettings = {
    retentionDays: options.retentionDays ?? DEFAULT_RETENTION_DAYS,
    rawTickHours: options.rawTickHours ?? DEFAULT_RAW_TICK_HOURS,
  };
  // Before SQLite opens it: the journals it creates take the database's mode.
  makeDatabasePrivate(options.path, options.warn ?? ((message) => process.stderr.write(`${message}\n`)));
  const db = new Database(options.path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    // WAL: readers never block the writer, and a commit is one append to the log. synchronous=NORMAL in WAL keeps
    // the file consistent after any process crash (a commit is in the OS once write() returns); only a power loss
    // or OS crash can drop the last commits, never corrupt older ones. For a monitor that refetches from the
    // service on restart (the settled cursor moves with its data), that trade buys a far higher ingest rate.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // The CLI exporter or a second window may read while the recorder writes.
    db.pragma('busy_timeout = 5000');
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
    registerSqlFunctions(db);
    migrate(db, undefined, {
      ...(options.onMigrationProgress ? { onProgress: options.onMigrationProgress } : {}),
      ...(options.extraMigrations?.length ? { migrations: [...MIGRATIONS, ...options.extraMigrations] } : {}),
    });
  } catch (e) {
    db.close();
    throw e;
  }
  const checkpoints = startCheckpoints(db, options);

  const { learning, ...ingest } = createIngest(db, clock);
  const reads = createReads(db);
  const lineHistory = createLineHistory(db);
  const betLog = createBetLog(db);
  const scoreboardReads = createScoreboardReads(db);
  const alertLog = createAlertLog(db, clock, alertCounter(db));
  const run = randomUUID();
  // Rows of runs that crashed long ago: the progress of a run is only read while it writes.
  forgetRuns(db, run, clock() - DAY_MS);
  const writerOptions =
    typeof options.writer === 'string' ? { mode: options.writer } : (options.writer ?? { mode: 'inline' as const });
  const writer = createWriter({
    ...writerOptions,
    mode: db.memory ? 'inline' : writerOptions.mode,
    path: options.path,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    run,
    inline: createApplier(db, run, clock, { ingest: { learning }, bets: betLog, alerts: alertLog }),
    alertRecord: (a) => alertLog.record(a),
    alertsFrom: (next) => alertLog.skipTo(next),
    autocheckpoint: () => (checkpoints.where === 'sqlite' ? AUTOCHECKPOINT_PAGES : 0),
    journalSizeLimit: JOURNAL_SIZE_LIMIT,
  });
  const compactStep = createCompaction(db, clock, () => ({
    rawTickMs: history.rawTickHours * HOUR_MS,
    retentionMs: history.retentionDays * DAY_MS,
  }));

  const addWatch = db.prepare(`INSERT OR IGNORE INTO watchlist (event_id, added_at) VALUES (?, ?)`);
  const removeWatch = db.prepare(`DELETE FROM watchlist WHERE event_id = ?`);
  const watchIds = db.prepare(`SELECT event_id FROM watchlist ORDER BY added_at, event_id`).pluck();
  const maxEventId = db
    .prepare(
      `
    SELECT max(coalesce((SELECT max(event_id) FROM events), 0), coalesce((SELECT max(event_id) FROM watchlist), 0),
               coalesce((SELECT max(event_id) FROM settlements), 0), coalesce((SELECT max(event_id) FROM bets), 0))`,
    )
    .pluck();
  const listAlerts = db.prepare(`SELECT * FROM alert_log WHERE id < ? ORDER BY id DESC LIMIT ?`);
  const getSetting = db.prepare(`SELECT value FROM settings WHERE name = ?`).pluck();
  const setSetting = db.prepare(`
    INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)
    ON CONFLICT(name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  const deleteSetting = db.prepare(`DELETE FROM settings WHERE name = ?`);
  /**
   * Settings as last read (raw JSON text; null = not set): the price rules read an event's overrides on every odds
   * batch, and a query per read was 2% of the host's CPU at 2,000 updates/s. This connection is the only writer of
   * the table; a write forgets the name, so the next read goes to the database.
   */
  const settingsRead = new Map<string, string | null>();
  const allSettings = db.prepare(`SELECT name, value FROM settings ORDER BY name`);
  // Ticks arrive in time order, so the oldest rowids are the oldest ticks: retention trims that prefix without an
  // index on `at` that every insert would pay for. A late tick out of order simply waits for a later pass.
  const firstKeptTick = (table: string) =>
    db.prepare(`SELECT rowid FROM ${table} WHERE at >= ? ORDER BY rowid LIMIT 1`).pluck();
  const deletePrefix = (table: string) =>
    db.prepare(
      `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE rowid < ? ORDER BY rowid LIMIT ?)`,
    );
  const retention = ['special_ticks'].map((t) => ({
    first: firstKeptTick(t),
    maxRowid: db.prepare(`SELECT max(rowid) FROM ${t}`).pluck(),
    del: deletePrefix(t),
  }));
  const deleteCoverage = db.prepare(`DELETE FROM coverage_samples WHERE at < ?`);
  const oweResults = db.prepare(`
    INSERT INTO results_owed (event_id, settled_at, watched) VALUES (?, ?, ?)
    ON CONFLICT(event_id) DO UPDATE SET watched = max(watched, excluded.watched), next_at = min(next_at, ?)`);
  const resultsDue = db.prepare(`
    SELECT event_id, watched, attempts FROM results_owed WHERE next_at <= ? AND watched >= ?
    ORDER BY watched DESC, settled_at DESC LIMIT ?`);
  const resultsRetry = db.prepare(`UPDATE results_owed SET attempts = attempts + 1, next_at = ? WHERE event_id = ?`);
  const resultsGiveUp = db.prepare(`DELETE FROM results_owed WHERE event_id = ? AND attempts >= ?`);
  const resultsSettled = db.prepare(`DELETE FROM results_owed WHERE event_id = ?`);
  const resultsOwedCount = db.prepare(`SELECT count(*) FROM results_owed`).pluck();
  const isResultOwed = db.prepare(`SELECT 1 FROM results_owed WHERE event_id = ?`).pluck();
  const deleteOldBars = db.prepare(
    `DELETE FROM line_bars WHERE rowid IN (SELECT rowid FROM line_bars WHERE hour < ? LIMIT ?)`,
  );

  const toAlert = (r: Record<string, unknown>): AlertRecord => ({
    id: r.id as number,
    at: r.at as number,
    kind: r.kind as string,
    eventId: (r.event_id as number | null) ?? null,
    specialId: (r.special_id as number | null) ?? null,
    contestantId: (r.contestant_id as number | null) ?? null,
    message: r.message as string,
    data: r.data === null ? null : JSON.parse(r.data as string),
  });

  return {
    ...ingest,
    ...reads,
    ...lineHistory,
    ...betLog,
    ...scoreboardReads,
    path: options.path,
    writer,
    schemaVersion: () => schemaVersion(db),
    walCheckpoints: () => checkpoints.where,

    addWatch: (eventId, at = clock()) => void addWatch.run(eventId, at),
    removeWatch: (eventId) => void removeWatch.run(eventId),
    watchIds: () => watchIds.all() as number[],
    maxEventId: () => maxEventId.get() as number,

    appendAlert(a) {
      const r = alertLog.record(a);
      const { clashedTo } = alertLog.write(r);
      return clashedTo === null ? r : { ...r, id: clashedTo };
    },
    listAlerts(opts = {}) {
      const rows = listAlerts.all(opts.beforeId ?? Number.MAX_SAFE_INTEGER, opts.limit ?? 100);
      return (rows as Record<string, unknown>[]).map(toAlert);
    },

    getSetting<T>(name: string) {
      let v = settingsRead.get(name);
      if (v === undefined) {
        v = (getSetting.get(name) as string | undefined) ?? null;
        // Only committed values are kept: a value read inside a transaction may yet be rolled back.
        if (!db.inTransaction) settingsRead.set(name, v);
      }
      return v === null ? undefined : (JSON.parse(v) as T);
    },
    setSetting(name, value) {
      if (looksLikeSecretName(name)) throw new SecretSettingError(name);
      if (value === undefined) throw new Error(`setting "${name}": value is undefined (use deleteSetting)`);
      settingsRead.delete(name);
      setSetting.run(name, JSON.stringify(value), clock());
    },
    deleteSetting: (name) => {
      settingsRead.delete(name);
      deleteSetting.run(name);
    },
    listSettings() {
      const out: Record<string, unknown> = {};
      for (const r of allSettings.all() as { name: string; value: string }[]) out[r.name] = JSON.parse(r.value);
      return out;
    },

    // IMMEDIATE, as every write transaction of the store (see ingest.ts): the writer thread shares the file.
    transaction: (fn) => db.transaction(fn).immediate(),

    oweResults: (eventId, settledAt, watched) =>
      void oweResults.run(eventId, settledAt, watched ? 1 : 0, watched ? 0 : Number.MAX_SAFE_INTEGER),
    resultsDue(now, opts) {
      const rows = resultsDue.all(now, opts.watchedOnly ? 1 : 0, opts.limit) as Array<{
        event_id: number;
        watched: number;
        attempts: number;
      }>;
      return rows.map((r) => ({ eventId: r.event_id, watched: r.watched === 1, attempts: r.attempts }));
    },
    resultsRetry: (eventId, nextAt, maxAttempts) =>
      db
        .transaction(() => {
          resultsRetry.run(nextAt, eventId);
          resultsGiveUp.run(eventId, maxAttempts);
        })
        .immediate(),
    resultsSettled: (eventId) => void resultsSettled.run(eventId),
    resultsOwedCount: () => resultsOwedCount.get() as number,
    isResultOwed: (eventId) => isResultOwed.get(eventId) !== undefined,

    maintain() {
      const cutoff = clock() - history.retentionDays * DAY_MS;
      const deleted = retention.map(({ first, maxRowid, del }) => {
        // No tick newer than the cutoff: everything up to the last rowid goes.
        const keepFrom = (first.get(cutoff) as number | undefined) ?? ((maxRowid.get() as number | null) ?? 0) + 1;
        let total = 0;
        for (;;) {
          const n = db.transaction(() => del.run(keepFrom, RETENTION_SLICE).changes).immediate();
          total += n;
          if (n < RETENTION_SLICE) break;
        }
        return total;
      });
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
      let bars = 0;
      for (;;) {
        const n = db.transaction(() => deleteOldBars.run(cutoffHour, RETENTION_SLICE).changes).immediate();
        bars += n;
        if (n < RETENTION_SLICE) break;
      }
      db.pragma('optimize');
      return {
        oddsTicksDeleted: oddsTicks,
        specialTicksDeleted: deleted[0] ?? 0,
        coverageSamplesDeleted: coverage,
        lineBarBlocksDeleted: bars,
      };
    },

    configure(settings) {
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
    },

    compactStep: (opts) => compactStep(opts),

    usage: () => measureUsage(db, options.path, history),

    close() {
      if (!db.open) return;
      // Everything handed to the writer is committed first (its thread's connection closes with it).
      writer.close();
      forgetRuns(db, run, clock() - DAY_MS);
      // The checkpointer's connection closes first: the store's is then the last, and its close folds the log into the
      // database and removes the -wal file.
      checkpoints.checkpointer?.close();
      db.pragma('optimize');
      db.close();
    },
  };
}

/**
 * Automatic checkpoints off on the store's connection and the checkpointer started on the file (unless asked
 * otherwise, or in memory). A checkpointer that cannot start, or stops, hands checkpoints back to SQLite: the log
 * then stays bounded the old way, with the old stalls, and walCheckpoints() says 'sqlite'.
 */
function startCheckpoints(
  db: Database.Database,
  options: StoreOptions,
): { where: WalCheckpoints; checkpointer: Checkpointer | null } {
  const state: { where: WalCheckpoints; checkpointer: Checkpointer | null } = { where: 'none', checkpointer: null };
  if (db.memory) return state;
  const wanted = options.checkpoints ?? 'thread';
  if (wanted === 'sqlite') {
    state.where = 'sqlite';
    return state;
  }
  db.pragma('wal_autocheckpoint = 0');
  state.where = wanted;
  if (wanted === 'off') return state;
  const fallBack = () => {
    state.where = 'sqlite';
    state.checkpointer = null;
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  try {
    state.checkpointer = startCheckpointer({
      path: db.name,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      everyMs: options.checkpointer?.everyMs ?? CHECKPOINT_EVERY_MS,
      journalSizeLimit: JOURNAL_SIZE_LIMIT,
      ...(options.checkpointer?.entry ? { entry: options.checkpointer.entry } : {}),
      onFailure: fallBack,
    });
  } catch {
    fallBack();
  }
  return state;
}
