// The store's writers: every batch the monitor hands over becomes one transaction, upserts are idempotent, and
// the settled cursor moves in the same transaction as the settlements it covers. Each kind of data has its module of
// statements in ./ingest/ (events, odds, settlements, results, specials, outrights, catalogue); this one composes them,
// one transaction per call, and keeps the ledger of each line's last max stake (./maxWinLedger.ts) across them.
import type Database from 'better-sqlite3';
import type {
  Coverage,
  EventOdds,
  Fixture,
  Market,
  OutrightMarket,
  Period,
  PeriodResult,
  ScoreMessage,
  SettledEvent,
  SpecialFixture,
  SpecialTick,
  Sport,
} from '../../../shared/api';
import type { MaxWinPoint } from '../../../shared/domain';
import { createCatalogueWrites } from './ingest/catalogue';
import { createEventWrites, eventParams, type DescriptionSource, type EventDescription } from './ingest/events';
import { createOddsWrites, type TickBatch } from './ingest/odds';
import { createOutrightWrites } from './ingest/outrights';
import { createResultWrites } from './ingest/results';
import { createSettlementWrites, type Resettlement } from './ingest/settlements';
import { createSpecialWrites } from './ingest/specials';
import { createMaxWinLedger, storedLineMaxWin, type KeptMaxWins } from './maxWinLedger';

export type { DescriptionSource, EventDescription } from './ingest/events';
export type { TickBatch } from './ingest/odds';
export type { Resettlement } from './ingest/settlements';
export type { KeptMaxWins } from './maxWinLedger';

export interface Ingest {
  recordSports(sports: readonly Sport[]): void;
  recordFixtures(fixtures: readonly Fixture[], at?: number): void;
  recordSnapshot(snapshot: EventOdds, at?: number): void;
  /**
   * Whether the service's description of an event names another match than the one stored under its id
   * (../../../shared/eventIdentity.ts), or the id was found naming another match before. Then the id is flagged for good
   * (kept in other_matches, with the other match's description as first seen) and nothing the service sends under it
   * is the stored match's: this store's writes of descriptions, snapshots and settlements refuse it, and the monitor
   * stops its stream. Stores nothing of the description otherwise.
   */
  namesAnotherMatch(e: EventDescription, source: DescriptionSource, at?: number): boolean;
  recordTicks(eventId: number, markets: readonly Market[], at?: number): void;
  recordTickBatches(batches: readonly TickBatch[]): void;
  recordScore(message: ScoreMessage, at?: number): void;
  /**
   * Stores a page's settlements and moves the cursor, in one transaction. Returns the re-settlements: the matches
   * already stored whose result (score, status or a line's words) this page changed; the result each replaced is
   * kept in their history. A settlement sent again unchanged is not one.
   */
  recordSettledPage(events: readonly SettledEvent[], newCursor: number): Resettlement[];
  settledCursor(): number | null;
  recordPeriodResults(results: readonly PeriodResult[]): void;
  recordPeriods(periods: readonly Period[]): void;
  recordSpecialFixtures(fixtures: readonly SpecialFixture[], at?: number): void;
  recordSpecialTicks(ticks: readonly SpecialTick[], at?: number): MaxWinPoint[];
  recordOutrights(markets: readonly OutrightMarket[], at?: number): void;
  recordCoverage(coverage: Coverage, at?: number): void;
}

/**
 * The tick writes for a caller that runs them inside a transaction of its own, a savepoint each (the writer's
 * messages, ../threads/writeCommands.ts): each returns what the write learnt of the lines' max_win, which the caller
 * keeps as soon as the write's savepoint is released (the next write of the same message reads it: a change point is
 * found against the limit just written). If the transaction then fails as a whole, the caller forgets everything kept
 * (the next writes read the limits back from the file).
 */
export interface IngestLearning {
  ticks(batches: readonly TickBatch[]): KeptMaxWins;
  snapshot(snapshot: EventOdds, at: number): KeptMaxWins;
  keep(limits: KeptMaxWins): void;
  forget(): void;
}

/**
 * Lines whose max_win the ingest keeps between transactions (past this it starts again empty). The stream repeats
 * the same lines, and reading the last change point back was two queries per line per tick transaction.
 */
const MAX_WIN_KEPT = 50_000;

export function createIngest(db: Database.Database, clock: () => number): Ingest & { learning: IngestLearning } {
  /**
   * Each line's max_win as of its latest tick written (and that tick's time), kept across transactions. Filled once a
   * transaction commits (a rolled-back one leaves it as it was), or, for the writer's messages, as each write's
   * savepoint is released and emptied if the message rolls back (IngestLearning); a tick older than the one kept
   * reads the database instead. Change points are never deleted, so what is kept stays true.
   */
  const ledger = createMaxWinLedger({ line: storedLineMaxWin(db) }, MAX_WIN_KEPT);
  /** Keeps what a tick write learnt, once it is committed: inside an outer transaction it may still be rolled back. */
  const keepMaxWins = (limits: KeptMaxWins, inside = false): void => {
    if (db.inTransaction && !inside) return;
    ledger.keep(limits);
  };

  const events = createEventWrites(db);
  const odds = createOddsWrites(db, ledger, events.touch);
  const settlements = createSettlementWrites(db, clock, events);
  const results = createResultWrites(db);
  const specials = createSpecialWrites(db);
  const outrights = createOutrightWrites(db, events);
  const catalogue = createCatalogueWrites(db);

  // IMMEDIATE: the write lock first. The store's writer thread writes the same file from its own connection, and a
  // deferred transaction that read before it wrote could not take the lock once the thread had committed meanwhile
  // (SQLITE_BUSY at once, no waiting); an immediate one waits its turn (busy_timeout).
  const tx = <A extends unknown[], R>(fn: (...args: A) => R) => {
    const t = db.transaction(fn);
    return (...args: A): R => t.immediate(...args);
  };

  const writeTickBatches = tx((batches: readonly TickBatch[]) => odds.ticks(batches));
  const recordTickBatches = (batches: readonly TickBatch[]) => keepMaxWins(writeTickBatches(batches));

  const recordSnapshot = tx((s: EventOdds, at: number): KeptMaxWins => {
    // Another match's snapshot under a stored match's id: none of its prices or score become the stored match's.
    if (events.describe(eventParams(s, 'stream', at))) return new Map();
    odds.markOffline(s.event_id);
    const limits = odds.ticks([{ eventId: s.event_id, markets: s.markets, at }]);
    events.liveState(s.event_id, at, s.live_status, s.score_home, s.score_away);
    return limits;
  });

  const recordScore = tx((m: ScoreMessage, at: number) => {
    events.touch(m.event_id, at, at);
    events.liveState(m.event_id, at, m.live_status, m.score_home, m.score_away);
  });

  const recordSettledPage = tx(settlements.page);
  const recordPeriodResults = tx(results.periodResults);
  const recordPeriods = tx(results.periods);
  const recordSports = tx(catalogue.sports);
  const recordFixtures = tx((fixtures: readonly Fixture[], at: number) => {
    for (const f of fixtures) events.describe(eventParams(f, 'fixture', at));
  });
  const recordSpecialFixtures = tx(specials.fixtures);
  const recordSpecialTicks = tx(specials.ticks);
  const recordOutrights = tx(outrights);
  const recordCoverage = tx(catalogue.coverage);

  const learning: IngestLearning = {
    ticks: (batches) => writeTickBatches(batches),
    snapshot: (s, at) => recordSnapshot(s, at),
    keep: (limits) => keepMaxWins(limits, true),
    forget: () => ledger.forget(),
  };

  return {
    learning,
    recordSports: (s) => recordSports(s),
    recordFixtures: (f, at = clock()) => recordFixtures(f, at),
    recordSnapshot: (s, at = clock()) => keepMaxWins(recordSnapshot(s, at)),
    // No transaction of its own: the monitor asks for every stream's snapshot, and a judgement that finds nothing new
    // only reads (it never waits for the writer's lock); a flag is one idempotent statement.
    namesAnotherMatch: (e, source, at = clock()) => events.namesAnotherMatch(eventParams(e, source, at)),
    recordTicks: (eventId, markets, at = clock()) => recordTickBatches([{ eventId, markets, at }]),
    recordTickBatches: (b) => recordTickBatches(b),
    recordScore: (m, at = clock()) => recordScore(m, at),
    recordSettledPage: (events, newCursor) => {
      if (!Number.isSafeInteger(newCursor)) throw new Error(`settled cursor must be an integer, got ${newCursor}`);
      return recordSettledPage(events, newCursor);
    },
    settledCursor: () => settlements.cursor(),
    recordPeriodResults: (r) => recordPeriodResults(r),
    recordPeriods: (p) => recordPeriods(p),
    recordSpecialFixtures: (f, at = clock()) => recordSpecialFixtures(f, at),
    recordSpecialTicks: (t, at = clock()) => recordSpecialTicks(t, at),
    recordOutrights: (m, at = clock()) => recordOutrights(m, at),
    recordCoverage: (c, at = clock()) => recordCoverage(c, at),
  };
}
