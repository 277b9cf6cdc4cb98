// The local store: the app's memory of years of a trader's history, in one SQLite file that survives any crash.
// All SQL of the app lives in this folder; callers see domain types only. Opened by the Electron host, the CLI
// and tests alike: the host passes the path, the clock and (under Electron) the native binding.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { makeDatabasePrivate } from '../fileModes';
import { createBetLog, type BetLog } from './queries/bets';
import { startCheckpointer, type Checkpointer } from './threads/checkpointer';
import { createLineHistory, type LineHistory } from './queries/history';
import { createIngest, type Ingest } from './queries/ingest';
import { MIGRATIONS, migrate, type Migration, type MigrationProgress } from './migrations';
import { alertCounter, createAlertLog, createAlertStore, type AlertStore } from './queries/alertLog';
import { createEventReads, type EventReads } from './queries/events';
import { createMaintenance, DAY_MS, type Maintenance, type WalCheckpoints } from './queries/maintenance';
import { createResultsQueue, type ResultsQueue } from './queries/resultsQueue';
import { createScoreboardReads, type ScoreboardReads } from './queries/scoreSums';
import { createSettings, type SettingsStore } from './queries/settings';
import { createSettlementReads, type SettlementReads } from './queries/settlements';
import { createSpecialReads, type SpecialReads } from './queries/specials';
import { registerSqlFunctions } from './queries/sqlFunctions';
import { createWatchlist, type Watchlist } from './queries/watchlist';
import { createApplier, forgetRuns } from './threads/writeCommands';
import { createWriter, type StoreWriter, type WriterMode } from './threads/writer';

export type { Resettlement, TickBatch } from './queries/ingest';
export type { StoreWriter, WriterMode, WriterProblem } from './threads/writer';
export type { HistoryRange } from './queries/rows';
export type { CompactOptions } from './queries/compaction';
export type { LineCloseOp, BetLog } from './queries/bets';
export type { LineMaxWinPoint, LineHistory } from './queries/history';
export type { KeptMatch, ScoreboardFilter, ScoreboardReads, ScoreboardRow, StaleMatch } from './queries/scoreSums';
export type { AlertStore } from './queries/alertLog';
export type { EventReads } from './queries/events';
export type { HistorySettings, Maintenance, WalCheckpoints } from './queries/maintenance';
export type { ResultsQueue } from './queries/resultsQueue';
export type { SettingsStore } from './queries/settings';
export type { SettlementReads } from './queries/settlements';
export type { SpecialReads } from './queries/specials';
export type { Watchlist } from './queries/watchlist';
export { SecretSettingError } from './queries/settings';
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
   * ./threads/writer.ts) or 'inline' (the default: tests, `cli export`; always in memory). Tests may also bound the backlog,
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

/** The writes of what the service said: odds, snapshots, scores, specials, outrights, reference lists. */
export type OddsWriter = Omit<Ingest, keyof SettlementWrites>;
/** The settled walk's writes: a page of settlements with its cursor, and the period results. */
type SettlementWrites = Pick<Ingest, 'recordSettledPage' | 'settledCursor' | 'recordPeriodResults'>;
/** Settlements and period results: the settled walk's writes beside the reads of the same tables. */
export interface Settlements extends SettlementReads, SettlementWrites {}
/** The reads of lines, ticks and specials: an event, its markets and their histories, the exports of them. */
export interface HistoryReader extends EventReads, SpecialReads, LineHistory {}

/**
 * The store by role, as Signal Desktop's readers and writers: a caller takes the role it uses (`store.bets`,
 * `Pick<Store, 'history' | 'scores'>`), never the whole. No role has more than 25 members
 * (scripts/store-shape.mjs checks it).
 */
export interface Store {
  readonly path: string;
  /**
   * The stream's writes, in order, off the event loop when the store was opened with writer 'thread' (./threads/writer.ts).
   * A reader of what they write that must see everything handed over so far awaits `writer.settled()` first.
   */
  readonly writer: StoreWriter;
  readonly odds: OddsWriter;
  readonly history: HistoryReader;
  readonly watchlist: Watchlist;
  readonly bets: BetLog;
  readonly settlements: Settlements;
  /** The model scoreboard's reads and its sums kept per match. */
  readonly scores: ScoreboardReads;
  readonly settings: SettingsStore;
  readonly resultsQueue: ResultsQueue;
  readonly alerts: AlertStore;
  readonly maintenance: Maintenance;
  /** Runs `fn` in one transaction (a savepoint when already inside one): all of it commits, or none of it. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

/** The names of the store's roles: what a `Pick<Store, ...>` of a caller names. */
export type StoreRole = Exclude<keyof Store, 'path' | 'writer' | 'transaction' | 'close'>;

export const DEFAULT_RETENTION_DAYS = 30;
/** One hour of full detail: at 2,000 updates/s that is ~560 MB raw; bars take the rest at a few MB an hour. */
export const DEFAULT_RAW_TICK_HOURS = 1;
/** How often the checkpointer looks at the file: a few seconds of ticks (a few MB of log at 2,000 updates/s). */
const CHECKPOINT_EVERY_MS = 2_000;
/**
 * The -wal file is cut back to this once the log starts over (PRAGMA journal_size_limit): a busy store keeps a file it
 * reuses rather than growing and shrinking it every few seconds, an idle one is truncated to nothing.
 */
export const JOURNAL_SIZE_LIMIT = 16 * 1024 * 1024;
/** SQLite's own default threshold, for a store whose checkpoints run the old way. */
const AUTOCHECKPOINT_PAGES = 1_000;

/** The file opened private, in WAL mode, with the app's SQL functions, and its schema brought up to date. */
function openDatabase(options: StoreOptions): Database.Database {
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
  return db;
}

export function openStore(options: StoreOptions): Store {
  const clock = options.clock ?? Date.now;
  const db = openDatabase(options);
  const checkpoints = startCheckpoints(db, options);

  const { learning, recordSettledPage, settledCursor, recordPeriodResults, ...odds } = createIngest(db, clock);
  const bets = createBetLog(db);
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
    inline: createApplier(db, run, clock, { ingest: { learning }, bets, alerts: alertLog }),
    alertRecord: (a) => alertLog.record(a),
    alertsFrom: (next) => alertLog.skipTo(next),
    autocheckpoint: () => (checkpoints.where === 'sqlite' ? AUTOCHECKPOINT_PAGES : 0),
    journalSizeLimit: JOURNAL_SIZE_LIMIT,
  });

  return {
    path: options.path,
    writer,
    odds,
    history: { ...createEventReads(db), ...createSpecialReads(db), ...createLineHistory(db) },
    watchlist: createWatchlist(db, clock),
    bets,
    settlements: { ...createSettlementReads(db), recordSettledPage, settledCursor, recordPeriodResults },
    scores: createScoreboardReads(db),
    settings: createSettings(db, clock),
    resultsQueue: createResultsQueue(db),
    alerts: createAlertStore(db, alertLog),
    maintenance: createMaintenance({
      db,
      clock,
      path: options.path,
      history: {
        retentionDays: options.retentionDays ?? DEFAULT_RETENTION_DAYS,
        rawTickHours: options.rawTickHours ?? DEFAULT_RAW_TICK_HOURS,
      },
      walCheckpoints: () => checkpoints.where,
    }),

    // IMMEDIATE, as every write transaction of the store (see ingest.ts): the writer thread shares the file.
    transaction: (fn) => db.transaction(fn).immediate(),

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
