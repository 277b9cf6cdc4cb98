// The store's writers: every batch the monitor hands over becomes one transaction, upserts are idempotent, and
// the settled cursor moves in the same transaction as the settlements it covers.
import type Database from 'better-sqlite3';
import { UPSERT_LINE_MAX_WIN_POINT } from './queries/rows';
import {
  DEVIG_MODELS,
  parseServiceTime,
  type Coverage,
  type EventOdds,
  type Fixture,
  type Market,
  type OutrightMarket,
  type Period,
  type PeriodResult,
  type ScoreMessage,
  type SettledEvent,
  type SettlementLine,
  type SpecialFixture,
  type SpecialTick,
  type Sport,
} from '../../shared/api';
import type { MaxWinPoint } from '../../shared/domain';
import { describesAnotherMatch } from '../../shared/eventIdentity';
import { foldText } from './queries/sqlFunctions';

/** One odds message's worth of ticks: the markets that changed on one event at one instant. */
export interface TickBatch {
  eventId: number;
  markets: readonly Market[];
  at: number;
}

export interface Ingest {
  recordSports(sports: readonly Sport[]): void;
  recordFixtures(fixtures: readonly Fixture[], at?: number): void;
  recordSnapshot(snapshot: EventOdds, at?: number): void;
  /**
   * Whether the service's description of an event names another match than the one stored under its id
   * (../../shared/eventIdentity.ts), or the id was found naming another match before. Then the id is flagged for good
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

/** A stored settlement the service sent again with another result: what it was and what it is now. */
export interface Resettlement {
  eventId: number;
  /** The match's number of replaced results, this one included (1 for the first re-settlement). */
  revision: number;
  runnerHome: string;
  runnerAway: string;
  from: { scoreHome: number; scoreAway: number; status: string };
  /** The settlement as now stored (the service's record). */
  to: SettledEvent;
}

type StoredLine = Pick<
  SettlementLine,
  'line_id' | 'period' | 'market' | 'line' | 'outcome_home' | 'outcome_draw' | 'outcome_away'
>;

/** A settlement's lines in one order, as the store keeps them: one per line id, the last sent winning. */
function linesByIdOf(lines: readonly StoredLine[]): StoredLine[] {
  const byId = new Map<number, StoredLine>();
  for (const l of lines) {
    byId.set(l.line_id, {
      line_id: l.line_id,
      period: l.period,
      market: l.market,
      line: l.line,
      outcome_home: l.outcome_home,
      outcome_draw: l.outcome_draw,
      outcome_away: l.outcome_away,
    });
  }
  return [...byId.values()].sort((a, b) => a.line_id - b.line_id);
}

const msOf = (text: string | null | undefined, fallback: number): number =>
  (text ? parseServiceTime(text) : null) ?? fallback;

/** What the service says of an event where it describes one (a fixture, a snapshot's header, a settlement). */
export interface EventDescription {
  event_id: number;
  sport_id?: number | null;
  sport_name?: string | null;
  league_id?: number | null;
  league_name?: string | null;
  runner_home?: string | null;
  runner_away?: string | null;
  starts?: string | null;
  live_status?: number | null;
}

export type DescriptionSource = 'stream' | 'fixture' | 'settlement' | 'outright';

/** eventId -> lineId -> the line's max_win as of a write's last tick of it. */
export type KeptMaxWins = Map<number, Map<number, { maxWin: number | null; at: number }>>;

/**
 * The tick writes for a caller that runs them inside a transaction of its own, a savepoint each (the writer's
 * messages, ./writeCommands.ts): each returns what the write learnt of the lines' max_win, which the caller keeps as
 * soon as the write's savepoint is released (the next write of the same message reads it: a change point is found
 * against the limit just written). If the transaction then fails as a whole, the caller forgets everything kept (the
 * next writes read the limits back from the file).
 */
export interface IngestLearning {
  ticks(batches: readonly TickBatch[]): KeptMaxWins;
  snapshot(snapshot: EventOdds, at: number): KeptMaxWins;
  keep(limits: KeptMaxWins): void;
  forget(): void;
}

export function createIngest(db: Database.Database, clock: () => number): Ingest & { learning: IngestLearning } {
  const upsertSport = db.prepare(
    `INSERT INTO sports (sport_id, name) VALUES (?, ?) ON CONFLICT(sport_id) DO UPDATE SET name = excluded.name`,
  );
  // Details only ever fill in: a bare id from a stream never erases names a fixture gave us.
  const upsertEvent = db.prepare(`
    INSERT INTO events (event_id, sport_id, sport_name, league_id, league_name, runner_home, runner_away, starts,
                        live_status, source, first_seen, last_seen)
    VALUES (@event_id, @sport_id, @sport_name, @league_id, @league_name, @runner_home, @runner_away, @starts,
            @live_status, @source, @at, @at)
    ON CONFLICT(event_id) DO UPDATE SET
      sport_id = coalesce(excluded.sport_id, sport_id),
      sport_name = coalesce(excluded.sport_name, sport_name),
      league_id = coalesce(excluded.league_id, league_id),
      league_name = coalesce(excluded.league_name, league_name),
      runner_home = coalesce(excluded.runner_home, runner_home),
      runner_away = coalesce(excluded.runner_away, runner_away),
      starts = coalesce(excluded.starts, starts),
      live_status = coalesce(excluded.live_status, live_status),
      last_seen = max(last_seen, excluded.last_seen)`);
  const storedIdentity = db.prepare(`SELECT sport_id, runner_home, runner_away, starts FROM events WHERE event_id = ?`);
  /**
   * Whether the service now describes this id as another match than the one stored (../../shared/eventIdentity.ts):
   * then nothing of it is merged into the stored match, neither its description nor its settlement.
   */
  function anotherMatch(p: {
    event_id: number;
    sport_id: number | null;
    runner_home: string | null;
    runner_away: string | null;
    starts: number | null;
  }): boolean {
    const was = storedIdentity.get(p.event_id) as
      | { sport_id: number | null; runner_home: string | null; runner_away: string | null; starts: number | null }
      | undefined;
    if (!was) return false;
    return describesAnotherMatch(
      { sportId: was.sport_id, runnerHome: was.runner_home, runnerAway: was.runner_away, starts: was.starts },
      { sportId: p.sport_id, runnerHome: p.runner_home, runnerAway: p.runner_away, starts: p.starts },
    );
  }
  const isOtherMatch = db.prepare(`SELECT 1 FROM other_matches WHERE event_id = ?`).pluck();
  // The first description that named another match is kept: the flag never moves to a third.
  const flagOtherMatch = db.prepare(`
    INSERT INTO other_matches (event_id, sport_id, sport_name, runner_home, runner_away, starts, source, seen_at)
    VALUES (@event_id, @sport_id, @sport_name, @runner_home, @runner_away, @starts, @source, @at)
    ON CONFLICT(event_id) DO NOTHING`);
  /**
   * The one judgement of an id's match (Ingest.namesAnotherMatch): flagged before, or named another match now (then
   * flagged for good).
   */
  function namesAnotherMatch(p: ReturnType<typeof eventParams>): boolean {
    if (isOtherMatch.get(p.event_id) !== undefined) return true;
    if (!anotherMatch(p)) return false;
    flagOtherMatch.run(p);
    return true;
  }
  /** Stores what the service says of an event, unless its id names another match than the stored one (true then). */
  function describeEvent(p: ReturnType<typeof eventParams>): boolean {
    if (namesAnotherMatch(p)) return true;
    upsertEvent.run(p);
    return false;
  }
  const touchEvent = db.prepare(`
    INSERT INTO events (event_id, source, first_seen, last_seen) VALUES (?, 'stream', ?, ?)
    ON CONFLICT(event_id) DO UPDATE SET last_seen = max(last_seen, excluded.last_seen)`);
  const insertTick = db.prepare(`
    INSERT INTO odds_ticks (event_id, line_id, at, line, price_home, price_draw, price_away, price_over, price_under,
                            max_win)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // A late batch (older `at`) never overwrites a newer latest state.
  const upsertLine = db.prepare(`
    INSERT INTO market_lines (event_id, line_id, period, market, side, line, price_home, price_draw, price_away,
                              price_over, price_under, max_win, offline, updated_at, seen_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(event_id, line_id) DO UPDATE SET
      period = excluded.period, market = excluded.market, side = excluded.side, line = excluded.line,
      price_home = excluded.price_home, price_draw = excluded.price_draw, price_away = excluded.price_away,
      price_over = excluded.price_over, price_under = excluded.price_under, max_win = excluded.max_win,
      offline = excluded.offline, updated_at = excluded.updated_at, seen_at = excluded.seen_at
    WHERE excluded.seen_at >= market_lines.seen_at`);
  const markEventLinesOffline = db.prepare(`UPDATE market_lines SET offline = 1 WHERE event_id = ?`);
  const currentLiveState = db.prepare(`SELECT live_status, score_home, score_away FROM events WHERE event_id = ?`);
  const setLiveState = db.prepare(
    `UPDATE events SET live_status = ?, score_home = ?, score_away = ? WHERE event_id = ?`,
  );
  const insertLiveState = db.prepare(`
    INSERT INTO live_states (event_id, at, live_status, score_home, score_away) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT(event_id, at) DO UPDATE SET
      live_status = excluded.live_status, score_home = excluded.score_home, score_away = excluded.score_away`);

  const upsertSettlement = db.prepare(`
    INSERT INTO settlements (event_id, sport_id, league_id, league_name, runner_home, runner_away, starts, score_home,
                             score_away, status, settled_at, line_count, stored_at, teams, ml_home, ml_draw, ml_away)
    VALUES (@event_id, @sport_id, @league_id, @league_name, @runner_home, @runner_away, @starts, @score_home,
            @score_away, @status, @settled_at, @line_count, @stored_at, @teams, @ml_home, @ml_draw, @ml_away)
    ON CONFLICT(event_id) DO UPDATE SET
      sport_id = excluded.sport_id, league_id = excluded.league_id, league_name = excluded.league_name,
      runner_home = excluded.runner_home, runner_away = excluded.runner_away, starts = excluded.starts,
      score_home = excluded.score_home, score_away = excluded.score_away, status = excluded.status,
      settled_at = excluded.settled_at, line_count = excluded.line_count, teams = excluded.teams,
      ml_home = excluded.ml_home, ml_draw = excluded.ml_draw, ml_away = excluded.ml_away`);
  const deleteTeams = db.prepare(`DELETE FROM settlement_teams WHERE rowid = ?`);
  const insertTeams = db.prepare(`INSERT INTO settlement_teams (rowid, teams) VALUES (?, ?)`);
  const deleteSettlementLines = db.prepare(`DELETE FROM settlement_lines WHERE event_id = ?`);
  const insertSettlementLine = db.prepare(`
    INSERT OR REPLACE INTO settlement_lines (event_id, line_id, period, market, line, outcome_home, outcome_draw,
                                             outcome_away)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const storedSettlement = db.prepare(
    `SELECT score_home, score_away, status, settled_at, stored_at FROM settlements WHERE event_id = ?`,
  );
  const storedLines = db.prepare(`
    SELECT line_id, period, market, line, outcome_home, outcome_draw, outcome_away FROM settlement_lines
    WHERE event_id = ? ORDER BY line_id`);
  const nextRevision = db
    .prepare(`SELECT coalesce(max(revision), 0) + 1 FROM settlement_revisions WHERE event_id = ?`)
    .pluck();
  const insertRevision = db.prepare(`
    INSERT INTO settlement_revisions (event_id, revision, score_home, score_away, status, settled_at, stored_at, replaced_at, lines)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // max(): the cursor never moves backwards, whatever order pages are replayed in.
  const advanceCursor = db.prepare(`
    INSERT INTO settled_cursor (id, cursor, updated_at) VALUES (1, ?, ?)
    ON CONFLICT(id) DO UPDATE SET cursor = max(cursor, excluded.cursor), updated_at = excluded.updated_at`);
  const readCursor = db.prepare(`SELECT cursor FROM settled_cursor WHERE id = 1`).pluck();

  // A correction carries a higher settlement_id; a replay of an older one is ignored.
  const upsertResult = db.prepare(`
    INSERT INTO period_results (event_id, period, status, score_home, score_away, sets_home, sets_away,
                                settlement_id, cancellation_reason, timestamp)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(event_id, period) DO UPDATE SET
      status = excluded.status, score_home = excluded.score_home, score_away = excluded.score_away,
      sets_home = excluded.sets_home, sets_away = excluded.sets_away, settlement_id = excluded.settlement_id,
      cancellation_reason = excluded.cancellation_reason, timestamp = excluded.timestamp
    WHERE excluded.settlement_id >= period_results.settlement_id`);
  const upsertPeriod = db.prepare(
    `INSERT INTO periods (period, description) VALUES (?, ?)
     ON CONFLICT(period) DO UPDATE SET description = excluded.description`,
  );

  const upsertSpecial = db.prepare(`
    INSERT INTO specials (special_id, event_id, sport_id, league_id, bet_type, special_name, category, units, period,
                          starts, cutoff, runner_home, runner_away, updated_at)
    VALUES (@special_id, @event_id, @sport_id, @league_id, @bet_type, @special_name, @category, @units, @period,
            @starts, @cutoff, @runner_home, @runner_away, @updated_at)
    ON CONFLICT(special_id) DO UPDATE SET
      event_id = coalesce(excluded.event_id, event_id), sport_id = coalesce(excluded.sport_id, sport_id),
      league_id = coalesce(excluded.league_id, league_id), bet_type = coalesce(excluded.bet_type, bet_type),
      special_name = coalesce(excluded.special_name, special_name), category = coalesce(excluded.category, category),
      units = coalesce(excluded.units, units), period = coalesce(excluded.period, period),
      starts = coalesce(excluded.starts, starts), cutoff = coalesce(excluded.cutoff, cutoff),
      runner_home = coalesce(excluded.runner_home, runner_home),
      runner_away = coalesce(excluded.runner_away, runner_away), updated_at = excluded.updated_at`);
  const upsertContestant = db.prepare(`
    INSERT INTO special_contestants (special_id, contestant_id, contestant_name) VALUES (?, ?, ?)
    ON CONFLICT(special_id, contestant_id) DO UPDATE SET contestant_name = excluded.contestant_name`);
  const contestantState = db.prepare(
    `SELECT last_tick_at, last_max_win FROM special_contestants WHERE special_id = ? AND contestant_id = ?`,
  );
  const setContestantState = db.prepare(
    `UPDATE special_contestants SET last_tick_at = ?, last_max_win = ? WHERE special_id = ? AND contestant_id = ?`,
  );
  const insertSpecialTick = db.prepare(`
    INSERT INTO special_ticks (special_id, contestant_id, at, handicap, odds, todds, max_win)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insertMaxWinPoint = db.prepare(`
    INSERT OR IGNORE INTO max_win_points (special_id, contestant_id, at, event_id, max_win, previous_max_win, odds,
                                          todds)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  // The opening record is the earliest tick carrying true odds, the closing record the latest after it. Each keeps
  // the tick's offered odds too: the opening's are what a trader could have bet at the open (the specials' CLV).
  // The same opening fetched again fills in offered odds a record from before migration 007 lacks.
  const upsertOpening = db.prepare(`
    INSERT INTO true_odds_records (special_id, contestant_id, kind, model, true_odds, at, odds)
    VALUES (?, ?, 'opening', ?, ?, ?, ?)
    ON CONFLICT(special_id, contestant_id, kind, model) DO UPDATE SET true_odds = excluded.true_odds, at = excluded.at,
      odds = excluded.odds
    WHERE excluded.at < true_odds_records.at OR (excluded.at = true_odds_records.at AND true_odds_records.odds IS NULL)`);
  const openingAt = db
    .prepare(`SELECT min(at) FROM true_odds_records WHERE special_id = ? AND contestant_id = ? AND kind = 'opening'`)
    .pluck();
  const upsertClosing = db.prepare(`
    INSERT INTO true_odds_records (special_id, contestant_id, kind, model, true_odds, at, odds)
    VALUES (?, ?, 'closing', ?, ?, ?, ?)
    ON CONFLICT(special_id, contestant_id, kind, model) DO UPDATE SET true_odds = excluded.true_odds, at = excluded.at,
      odds = excluded.odds
    WHERE excluded.at >= true_odds_records.at`);

  const upsertOutright = db.prepare(`
    INSERT INTO outright_markets (special_id, event_id, special_name, cutoff, sport_id, sport_name, league_id,
                                  league_name, home, away, starts, live_status, updated_at)
    VALUES (@special_id, @event_id, @special_name, @cutoff, @sport_id, @sport_name, @league_id, @league_name, @home,
            @away, @starts, @live_status, @updated_at)
    ON CONFLICT(special_id) DO UPDATE SET
      event_id = excluded.event_id, special_name = excluded.special_name, cutoff = excluded.cutoff,
      sport_id = excluded.sport_id, sport_name = excluded.sport_name, league_id = excluded.league_id,
      league_name = excluded.league_name, home = excluded.home, away = excluded.away, starts = excluded.starts,
      live_status = excluded.live_status, updated_at = excluded.updated_at`);
  const upsertOutrightContestant = db.prepare(`
    INSERT INTO outright_contestants (special_id, name, handicap, odds, todds, updated_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT(special_id, name) DO UPDATE SET
      handicap = excluded.handicap, odds = excluded.odds, todds = excluded.todds, updated_at = excluded.updated_at`);
  const insertCoverage = db.prepare(`
    INSERT INTO coverage_samples (at, sport_name, event_count) VALUES (?, ?, ?)
    ON CONFLICT(at, sport_name) DO UPDATE SET event_count = excluded.event_count`);

  // A market line's max_win change points, written as the ticks arrive (compaction writes the same keys again, harmlessly):
  // the limit timeline and `export max-win` never depend on raw ticks surviving retention.
  const lastPointMaxWin = db.prepare(
    `SELECT max_win FROM line_max_win_points WHERE event_id = ? AND line_id = ? ORDER BY at DESC LIMIT 1`,
  );
  const lineMaxWin = db.prepare(`SELECT max_win FROM market_lines WHERE event_id = ? AND line_id = ?`);
  const upsertLinePoint = db.prepare(UPSERT_LINE_MAX_WIN_POINT);

  /**
   * Each line's max_win as of its latest tick written (and that tick's time), kept across transactions: the stream
   * repeats the same lines, and reading the last change point back was two queries per line per tick transaction.
   * Filled once a transaction commits (a rolled-back one leaves it as it was), or, for the writer's messages, as each
   * write's savepoint is released and emptied if the message rolls back (IngestLearning); a tick older than the one kept
   * reads the database instead. Change points are never deleted, so what is kept stays true. Bounded: past
   * MAX_WIN_KEPT lines it starts again empty.
   */
  const maxWinKept = new Map<number, Map<number, { maxWin: number | null; at: number }>>();
  let maxWinKeptLines = 0;
  const MAX_WIN_KEPT = 50_000;
  /** Keeps what a tick write learnt, once it is committed: inside an outer transaction it may still be rolled back. */
  function keepMaxWins(limits: KeptMaxWins, inside = false): void {
    if (db.inTransaction && !inside) return;
    for (const [eventId, lines] of limits) {
      let kept = maxWinKept.get(eventId);
      if (!kept) maxWinKept.set(eventId, (kept = new Map()));
      for (const [lineId, v] of lines) {
        const cur = kept.get(lineId);
        if (!cur) maxWinKeptLines++;
        if (!cur || cur.at <= v.at) kept.set(lineId, v);
      }
    }
    if (maxWinKeptLines > MAX_WIN_KEPT) forgetMaxWins();
  }
  function forgetMaxWins(): void {
    maxWinKept.clear();
    maxWinKeptLines = 0;
  }

  /** The max_win a line had before this tick: kept, else its last change point, else its latest state; undefined: new line. */
  function maxWinBefore(eventId: number, lineId: number, at: number): number | null | undefined {
    const kept = maxWinKept.get(eventId)?.get(lineId);
    if (kept && kept.at <= at) return kept.maxWin;
    const p = lastPointMaxWin.get(eventId, lineId) as { max_win: number | null } | undefined;
    if (p) return p.max_win;
    const l = lineMaxWin.get(eventId, lineId) as { max_win: number | null } | undefined;
    return l ? l.max_win : undefined;
  }

  function writeLine(eventId: number, m: Market, at: number): void {
    const p = m.prices;
    upsertLine.run(
      eventId,
      m.line_id,
      m.period,
      m.market,
      m.side,
      m.line,
      p?.home ?? null,
      p?.draw ?? null,
      p?.away ?? null,
      p?.over ?? null,
      p?.under ?? null,
      m.max_win,
      p ? 0 : 1,
      m.updated_at,
      at,
    );
  }

  function writeTicks(batches: readonly TickBatch[]): KeptMaxWins {
    // The latest state of a line is written once per transaction, not once per tick: the stream repeats hot lines.
    const latest = new Map<number, Map<number, { m: Market; at: number }>>();
    // eventId -> lineId -> max_win as of the last tick of this transaction.
    const limits: KeptMaxWins = new Map();
    // Each event is touched once per transaction (its first and last tick here), not once per stream message.
    const seen = new Map<number, { first: number; last: number }>();
    for (const b of batches) {
      const span = seen.get(b.eventId);
      if (!span) seen.set(b.eventId, { first: b.at, last: b.at });
      else {
        if (b.at < span.first) span.first = b.at;
        if (b.at > span.last) span.last = b.at;
      }
      let lines = latest.get(b.eventId);
      if (!lines) latest.set(b.eventId, (lines = new Map()));
      for (const m of b.markets) {
        const p = m.prices;
        insertTick.run(
          b.eventId,
          m.line_id,
          b.at,
          m.line,
          p?.home ?? null,
          p?.draw ?? null,
          p?.away ?? null,
          p?.over ?? null,
          p?.under ?? null,
          m.max_win,
        );
        let known = limits.get(b.eventId);
        if (!known) limits.set(b.eventId, (known = new Map()));
        const here = known.get(m.line_id);
        const before = here ? here.maxWin : maxWinBefore(b.eventId, m.line_id, b.at);
        if (before === undefined || before !== m.max_win) {
          upsertLinePoint.run(
            b.eventId,
            m.line_id,
            b.at,
            m.max_win,
            before ?? null,
            m.line,
            p?.home ?? null,
            p?.draw ?? null,
            p?.away ?? null,
            p?.over ?? null,
            p?.under ?? null,
          );
        }
        if (!here || here.at <= b.at) known.set(m.line_id, { maxWin: m.max_win, at: b.at });
        const prev = lines.get(m.line_id);
        if (!prev || prev.at <= b.at) lines.set(m.line_id, { m, at: b.at });
      }
    }
    for (const [eventId, { first, last }] of seen) touchEvent.run(eventId, first, last);
    for (const [eventId, lines] of latest) for (const { m, at } of lines.values()) writeLine(eventId, m, at);
    return limits;
  }

  function writeLiveState(
    eventId: number,
    at: number,
    liveStatus: number | null,
    scoreHome: number | null,
    scoreAway: number | null,
  ): void {
    const cur = currentLiveState.get(eventId) as
      { live_status: number | null; score_home: number | null; score_away: number | null } | undefined;
    if (cur && cur.live_status === liveStatus && cur.score_home === scoreHome && cur.score_away === scoreAway) return;
    setLiveState.run(liveStatus, scoreHome, scoreAway, eventId);
    insertLiveState.run(eventId, at, liveStatus, scoreHome, scoreAway);
  }

  function eventParams(e: EventDescription, source: DescriptionSource, at: number) {
    return {
      event_id: e.event_id,
      sport_id: e.sport_id ?? null,
      sport_name: e.sport_name ?? null,
      league_id: e.league_id ?? null,
      league_name: e.league_name ?? null,
      runner_home: e.runner_home ?? null,
      runner_away: e.runner_away ?? null,
      starts: e.starts ? parseServiceTime(e.starts) : null,
      live_status: e.live_status ?? null,
      source,
      at,
    };
  }

  // IMMEDIATE: the write lock first. The store's writer thread writes the same file from its own connection, and a
  // deferred transaction that read before it wrote could not take the lock once the thread had committed meanwhile
  // (SQLITE_BUSY at once, no waiting); an immediate one waits its turn (busy_timeout).
  const tx = <A extends unknown[], R>(fn: (...args: A) => R) => {
    const t = db.transaction(fn);
    return (...args: A): R => t.immediate(...args);
  };

  const writeTickBatches = tx((batches: readonly TickBatch[]) => writeTicks(batches));
  const recordTickBatches = (batches: readonly TickBatch[]) => keepMaxWins(writeTickBatches(batches));

  const recordSnapshot = tx((s: EventOdds, at: number) => {
    // Another match's snapshot under a stored match's id: none of its prices or score become the stored match's.
    if (describeEvent(eventParams(s, 'stream', at))) return new Map() as KeptMaxWins;
    // A snapshot replaces what we held: lines it does not carry are offline until they come back.
    markEventLinesOffline.run(s.event_id);
    const limits = writeTicks([{ eventId: s.event_id, markets: s.markets, at }]);
    writeLiveState(s.event_id, at, s.live_status, s.score_home, s.score_away);
    return limits;
  });

  const recordScore = tx((m: ScoreMessage, at: number) => {
    touchEvent.run(m.event_id, at, at);
    writeLiveState(m.event_id, at, m.live_status, m.score_home, m.score_away);
  });

  type StoredSettlement = {
    score_home: number;
    score_away: number;
    status: string;
    settled_at: number;
    stored_at: number;
  };

  /**
   * Whether `e` changes the stored result of its match (score, status, or any line's words, line or presence); if so
   * the stored one is kept as the match's next revision before it is replaced. Names and times are not a result.
   */
  function keepReplacedResult(e: SettledEvent, now: number): Resettlement | null {
    const was = storedSettlement.get(e.event_id) as StoredSettlement | undefined;
    if (!was) return null;
    const wasLines = storedLines.all(e.event_id) as StoredLine[];
    const sameResult =
      was.score_home === e.score_home &&
      was.score_away === e.score_away &&
      was.status === e.status &&
      JSON.stringify(wasLines) === JSON.stringify(linesByIdOf(e.settlement));
    if (sameResult) return null;
    const revision = nextRevision.get(e.event_id) as number;
    insertRevision.run(
      e.event_id,
      revision,
      was.score_home,
      was.score_away,
      was.status,
      was.settled_at,
      was.stored_at,
      now,
      JSON.stringify(wasLines),
    );
    return {
      eventId: e.event_id,
      revision,
      runnerHome: e.runner_home,
      runnerAway: e.runner_away,
      from: { scoreHome: was.score_home, scoreAway: was.score_away, status: was.status },
      to: e,
    };
  }

  const recordSettledPage = tx((events: readonly SettledEvent[], newCursor: number): Resettlement[] => {
    const now = clock();
    const resettled: Resettlement[] = [];
    for (const e of events) {
      const settledAt = parseServiceTime(e.settled_at);
      const starts = parseServiceTime(e.starts);
      if (settledAt === null || starts === null) throw new Error(`settlement ${e.event_id}: bad date-time`);
      // The settlement of another match under a stored match's id is not its result: the stored match keeps its own
      // (its bets never settle on another match's score).
      if (describeEvent(eventParams({ ...e, live_status: null }, 'settlement', now))) continue;
      const changed = keepReplacedResult(e, now);
      if (changed) resettled.push(changed);
      const ml = e.settlement.find((l) => l.market === 'moneyline' && l.period === 0);
      const lineIds = new Set(e.settlement.map((l) => l.line_id));
      const teams = foldText(`${e.runner_home}\n${e.runner_away}`);
      upsertSettlement.run({
        event_id: e.event_id,
        sport_id: e.sport_id,
        league_id: e.league_id,
        league_name: e.league_name,
        runner_home: e.runner_home,
        runner_away: e.runner_away,
        starts,
        score_home: e.score_home,
        score_away: e.score_away,
        status: e.status,
        settled_at: settledAt,
        line_count: lineIds.size,
        stored_at: now,
        teams,
        ml_home: ml?.outcome_home ?? null,
        ml_draw: ml?.outcome_draw ?? null,
        ml_away: ml?.outcome_away ?? null,
      });
      deleteTeams.run(e.event_id);
      insertTeams.run(e.event_id, teams);
      // Replace, not merge: a re-sent settlement (inclusive cursor, or a correction) is stored exactly as last sent;
      // a correction's earlier result is kept in settlement_revisions above.
      deleteSettlementLines.run(e.event_id);
      for (const l of e.settlement) {
        insertSettlementLine.run(
          e.event_id,
          l.line_id,
          l.period,
          l.market,
          l.line,
          l.outcome_home,
          l.outcome_draw,
          l.outcome_away,
        );
      }
    }
    advanceCursor.run(newCursor, now);
    return resettled;
  });

  const recordPeriodResults = tx((results: readonly PeriodResult[]) => {
    for (const r of results) {
      upsertResult.run(
        r.event_id,
        r.period,
        r.status,
        r.score_home,
        r.score_away,
        r.sets_home,
        r.sets_away,
        r.settlement_id,
        r.cancellation_reason,
        r.timestamp ? parseServiceTime(r.timestamp) : null,
      );
    }
  });

  const recordPeriods = tx((periods: readonly Period[]) => {
    for (const p of periods) upsertPeriod.run(p.period, p.description);
  });

  const recordSports = tx((sports: readonly Sport[]) => {
    for (const s of sports) upsertSport.run(s.sport_id, s.name);
  });

  const recordFixtures = tx((fixtures: readonly Fixture[], at: number) => {
    for (const f of fixtures) describeEvent(eventParams(f, 'fixture', at));
  });

  const recordSpecialFixtures = tx((fixtures: readonly SpecialFixture[], at: number) => {
    for (const f of fixtures) {
      upsertSpecial.run({
        special_id: f.special_id,
        event_id: f.event_id,
        sport_id: f.sport_id,
        league_id: f.league_id,
        bet_type: f.bet_type,
        special_name: f.special_name,
        category: f.category,
        units: f.units,
        period: f.period,
        starts: f.starts,
        cutoff: f.cutoff,
        runner_home: f.runner_home,
        runner_away: f.runner_away,
        updated_at: at,
      });
      upsertContestant.run(f.special_id, f.contestant_id, f.contestant_name);
    }
  });

  const recordSpecialTicks = tx((ticks: readonly SpecialTick[], at: number): MaxWinPoint[] => {
    const changes: MaxWinPoint[] = [];
    // Oldest first, so change detection compares each tick with the one before it.
    const ordered = ticks.map((t) => ({ t, ms: msOf(t.timestamp, at) })).sort((a, b) => a.ms - b.ms);
    for (const { t, ms } of ordered) {
      upsertSpecial.run({
        special_id: t.special_id,
        event_id: t.event_id,
        sport_id: null,
        league_id: null,
        bet_type: null,
        special_name: t.special_name,
        category: null,
        units: null,
        period: t.period,
        starts: null,
        cutoff: t.cutoff,
        runner_home: null,
        runner_away: null,
        updated_at: at,
      });
      upsertContestant.run(t.special_id, t.contestant_id, t.contestant_name);
      if (t.true_odds_by_model) {
        for (const model of DEVIG_MODELS) {
          upsertOpening.run(t.special_id, t.contestant_id, model, t.true_odds_by_model[model], ms, t.odds);
        }
        const opened = openingAt.get(t.special_id, t.contestant_id) as number | null;
        if (opened !== null && ms > opened) {
          for (const model of DEVIG_MODELS) {
            upsertClosing.run(t.special_id, t.contestant_id, model, t.true_odds_by_model[model], ms, t.odds);
          }
        }
      }
      const state = contestantState.get(t.special_id, t.contestant_id) as
        { last_tick_at: number | null; last_max_win: number | null } | undefined;
      // A replayed or late tick (history re-fetched after a restart) is already reflected: never a new change.
      if (state?.last_tick_at != null && ms <= state.last_tick_at) continue;
      insertSpecialTick.run(t.special_id, t.contestant_id, ms, t.handicap, t.odds, t.todds, t.max_win);
      const previous = state?.last_max_win ?? null;
      if (previous === null || previous !== t.max_win) {
        insertMaxWinPoint.run(t.special_id, t.contestant_id, ms, t.event_id, t.max_win, previous, t.odds, t.todds);
        if (previous !== null) {
          changes.push({
            eventId: t.event_id,
            specialId: t.special_id,
            specialName: t.special_name,
            contestantId: t.contestant_id,
            contestantName: t.contestant_name,
            at: ms,
            maxWin: t.max_win,
            previousMaxWin: previous,
            odds: t.odds,
            todds: t.todds,
          });
        }
      }
      setContestantState.run(ms, t.max_win, t.special_id, t.contestant_id);
    }
    return changes;
  });

  const recordOutrights = tx((markets: readonly OutrightMarket[], at: number) => {
    for (const m of markets) {
      describeEvent(
        eventParams(
          {
            event_id: m.event_id,
            sport_id: m.sport_id,
            sport_name: m.sport_name,
            league_id: m.league_id,
            league_name: m.league_name,
          },
          'outright',
          at,
        ),
      );
      upsertOutright.run({ ...m, updated_at: at });
      for (const c of m.contestants)
        upsertOutrightContestant.run(m.special_id, c.name, c.handicap, c.odds, c.todds, at);
    }
  });

  const recordCoverage = tx((coverage: Coverage, at: number) => {
    for (const [sport, count] of Object.entries(coverage.standard)) insertCoverage.run(at, sport, count);
  });

  const learning: IngestLearning = {
    ticks: (batches) => writeTickBatches(batches),
    snapshot: (s, at) => recordSnapshot(s, at),
    keep: (limits) => keepMaxWins(limits, true),
    forget: forgetMaxWins,
  };

  return {
    learning,
    recordSports: (s) => recordSports(s),
    recordFixtures: (f, at = clock()) => recordFixtures(f, at),
    recordSnapshot: (s, at = clock()) => keepMaxWins(recordSnapshot(s, at)),
    // No transaction of its own: the monitor asks for every stream's snapshot, and a judgement that finds nothing new
    // only reads (it never waits for the writer's lock); a flag is one idempotent statement.
    namesAnotherMatch: (e, source, at = clock()) => namesAnotherMatch(eventParams(e, source, at)),
    recordTicks: (eventId, markets, at = clock()) => recordTickBatches([{ eventId, markets, at }]),
    recordTickBatches: (b) => recordTickBatches(b),
    recordScore: (m, at = clock()) => recordScore(m, at),
    recordSettledPage: (events, newCursor) => {
      if (!Number.isSafeInteger(newCursor)) throw new Error(`settled cursor must be an integer, got ${newCursor}`);
      return recordSettledPage(events, newCursor);
    },
    settledCursor: () => (readCursor.get() as number | undefined) ?? null,
    recordPeriodResults: (r) => recordPeriodResults(r),
    recordPeriods: (p) => recordPeriods(p),
    recordSpecialFixtures: (f, at = clock()) => recordSpecialFixtures(f, at),
    recordSpecialTicks: (t, at = clock()) => recordSpecialTicks(t, at),
    recordOutrights: (m, at = clock()) => recordOutrights(m, at),
    recordCoverage: (c, at = clock()) => recordCoverage(c, at),
  };
}
