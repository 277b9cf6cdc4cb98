// The store's readers for the UI and the CLI export. They need no network and no key: this is the offline review.
import type Database from 'better-sqlite3';
import { formatServiceTime, type DevigModel, type OutrightMarket, type SettledEvent } from '../../shared/api';
import type {
  ClvQuery,
  ClvRow,
  CoverageSample,
  EventView,
  MarketView,
  ExportFilter,
  LiveStatePoint,
  MaxWinExportRow,
  MaxWinPoint,
  PeriodResultView,
  SettlementPage,
  SettlementQuery,
  SpecialHistoryPoint,
  SpecialView,
  WatchedEventView,
} from '../../shared/domain';

import { otherMatchName } from '../../shared/eventIdentity';
import { isSetSport, labelPeriod, periodNames, type PeriodNames } from '../../shared/periods';
import {
  marketFromRow,
  maxWinFromRow,
  settlementLineFromRow,
  type MarketLineRow,
  type MaxWinDbRow,
  type SettlementDbRow,
  type SettlementLineRow,
} from './rows';
import { createSettlementsQuery } from './settlementsQuery';

export interface HistoryRange {
  from?: number;
  to?: number;
}

export interface Reads {
  watchedEvents(): WatchedEventView[];
  /** The ids the service now uses for another match than the stored one (Ingest.namesAnotherMatch), flagged for good. */
  otherMatchIds(): number[];
  eventView(eventId: number): EventView | null;
  latestMarkets(eventId: number): MarketView[];
  /** Which of these event ids already have a stored settlement. */
  knownSettlements(eventIds: readonly number[]): Set<number>;
  specialsOf(eventId: number): SpecialView[];
  maxWinPointsOf(eventId: number): MaxWinPoint[];
  liveStateHistory(eventId: number): LiveStatePoint[];
  specialHistory(specialId: number, contestantId: number, range?: HistoryRange): SpecialHistoryPoint[];
  maxWinHistory(specialId: number, contestantId: number): MaxWinPoint[];
  querySettlements(q: SettlementQuery): SettlementPage;
  settlement(eventId: number): SettledEvent | null;
  results(eventId: number): PeriodResultView[];
  closingLineValue(q?: ClvQuery): ClvRow[];
  latestCoverage(): CoverageSample[];
  periods(): { period: number; description: string }[];
  /** The sports the service named, as last stored (offline sport names and filters). */
  storedSports(): { sport_id: number; name: string }[];
  /** Outright markets as last fetched, newest first (the offline outrights view). */
  storedOutrights(q?: { sportId?: number; minContestants?: number }): OutrightMarket[];
  exportSettlements(f?: ExportFilter): IterableIterator<SettledEvent>;
  exportResults(f?: ExportFilter): IterableIterator<PeriodResultView>;
  exportMaxWin(f?: ExportFilter): IterableIterator<MaxWinExportRow>;
}

/**
 * The true odds under every model of a contestant's latest tick, when that tick is its opening or closing record
 * (only those carry true_odds_by_model): the closing record once there is one, else the opening. Null when a later
 * tick came, whose fair price the service gave under one model only (its todds).
 */
function latestTrueOdds(rows: readonly ClvRow[], tickAt: number | null): Partial<Record<DevigModel, number>> | null {
  const out: Partial<Record<DevigModel, number>> = {};
  let any = false;
  for (const r of rows) {
    const closed = r.closingTrueOdds !== null && r.closedAt !== null;
    const at = closed ? r.closedAt! : r.openedAt;
    if (tickAt !== null && tickAt > at) continue;
    out[r.model] = closed ? r.closingTrueOdds! : r.openingTrueOdds;
    any = true;
  }
  return any ? out : null;
}

/** Exports walk in chunks: better-sqlite3 allows no other statement on the connection while one iterates. */
const EXPORT_CHUNK = 500;
const FAR_PAST = -8.64e15;

interface ResultDbRow {
  event_id: number;
  period: number;
  status: number;
  score_home: number | null;
  score_away: number | null;
  sets_home: number | null;
  sets_away: number | null;
  settlement_id: number;
  cancellation_reason: string | null;
  timestamp: number | null;
  sport_id: number | null;
  sport_name: string | null;
}

export function createReads(db: Database.Database): Reads {
  const watched = db.prepare(`
    SELECT w.event_id, w.added_at, e.sport_id, coalesce(e.sport_name, sp.name) AS sport_name, e.league_id,
           e.league_name, e.runner_home, e.runner_away, e.starts, e.live_status, e.score_home, e.score_away,
           EXISTS (SELECT 1 FROM settlements s WHERE s.event_id = w.event_id) AS settled,
           o.event_id IS NOT NULL AS other_match, o.runner_home AS other_home, o.runner_away AS other_away,
           coalesce(o.sport_name, osp.name) AS other_sport
    FROM watchlist w
    LEFT JOIN events e ON e.event_id = w.event_id
    LEFT JOIN sports sp ON sp.sport_id = e.sport_id
    LEFT JOIN other_matches o ON o.event_id = w.event_id
    LEFT JOIN sports osp ON osp.sport_id = o.sport_id
    ORDER BY w.added_at, w.event_id`);
  const otherMatchIds = db.prepare(`SELECT event_id FROM other_matches ORDER BY event_id`).pluck();
  const watchedLines = db.prepare(`
    SELECT m.* FROM watchlist w JOIN market_lines m ON m.event_id = w.event_id ORDER BY m.period, m.line_id`);
  const eventRow = db.prepare(`
    SELECT e.event_id, e.sport_id, coalesce(e.sport_name, sp.name) AS sport_name, e.league_id, e.league_name,
           e.runner_home, e.runner_away, e.starts, e.live_status, e.score_home, e.score_away
    FROM events e LEFT JOIN sports sp ON sp.sport_id = e.sport_id WHERE e.event_id = ?`);
  const linesOf = db.prepare(`SELECT * FROM market_lines WHERE event_id = ? ORDER BY period, line_id`);
  const settlementExists = db.prepare(`SELECT 1 FROM settlements WHERE event_id = ?`).pluck();
  const specialsOfEvent = db.prepare(`SELECT * FROM specials WHERE event_id = ? ORDER BY special_id`);
  const contestantsOf = db.prepare(`
    SELECT c.contestant_id, c.contestant_name, c.last_max_win, t.handicap, t.odds, t.todds, t.at AS tick_at
    FROM special_contestants c
    LEFT JOIN special_ticks t ON t.rowid = (
      SELECT rowid FROM special_ticks WHERE special_id = c.special_id AND contestant_id = c.contestant_id
      ORDER BY at DESC LIMIT 1)
    WHERE c.special_id = ? ORDER BY c.contestant_id`);
  const liveStates = db.prepare(
    `SELECT at, live_status, score_home, score_away FROM live_states WHERE event_id = ? ORDER BY at`,
  );
  const specialHistory = db.prepare(`
    SELECT at, handicap, odds, todds, max_win FROM special_ticks
    WHERE special_id = ? AND contestant_id = ? AND at >= ? AND at <= ? ORDER BY at`);
  const maxWinSelect = `
    SELECT p.event_id, p.special_id, sp.special_name, p.contestant_id, c.contestant_name, p.at, p.max_win,
           p.previous_max_win, p.odds, p.todds, sp.sport_id
    FROM max_win_points p
    LEFT JOIN specials sp ON sp.special_id = p.special_id
    LEFT JOIN special_contestants c ON c.special_id = p.special_id AND c.contestant_id = p.contestant_id`;
  const maxWinOfEvent = db.prepare(`${maxWinSelect} WHERE p.event_id = ? ORDER BY p.at, p.special_id, p.contestant_id`);
  const maxWinHistory = db.prepare(`${maxWinSelect} WHERE p.special_id = ? AND p.contestant_id = ? ORDER BY p.at`);
  const settlementRow = db.prepare(`SELECT * FROM settlements WHERE event_id = ?`);
  const settlementLines = db.prepare(`SELECT * FROM settlement_lines WHERE event_id = ? ORDER BY line_id`);
  const resultSelect = `
    SELECT r.*, e.sport_id, coalesce(e.sport_name, sp.name) AS sport_name
    FROM period_results r
    LEFT JOIN events e ON e.event_id = r.event_id
    LEFT JOIN sports sp ON sp.sport_id = e.sport_id`;
  const resultsOf = db.prepare(`${resultSelect} WHERE r.event_id = ? ORDER BY r.period`);
  const clv = db.prepare(`
    SELECT sp.event_id, o.special_id, sp.special_name, o.contestant_id, c.contestant_name, o.model,
           o.odds AS opening_odds, o.true_odds AS opening, o.at AS opened_at,
           cl.odds AS closing_odds, cl.true_odds AS closing, cl.at AS closed_at
    FROM true_odds_records o
    LEFT JOIN true_odds_records cl ON cl.special_id = o.special_id AND cl.contestant_id = o.contestant_id
         AND cl.model = o.model AND cl.kind = 'closing'
    LEFT JOIN specials sp ON sp.special_id = o.special_id
    LEFT JOIN special_contestants c ON c.special_id = o.special_id AND c.contestant_id = o.contestant_id
    WHERE o.kind = 'opening'
      AND (@event_id IS NULL OR sp.event_id = @event_id)
      AND (@special_id IS NULL OR o.special_id = @special_id)
      AND (@model IS NULL OR o.model = @model)
    ORDER BY o.special_id, o.contestant_id, o.model`);
  const latestCoverage = db.prepare(`
    SELECT at, sport_name, event_count FROM coverage_samples
    WHERE at = (SELECT max(at) FROM coverage_samples) ORDER BY sport_name`);
  const periods = db.prepare(`SELECT period, description FROM periods ORDER BY period`);
  const sports = db.prepare(`SELECT sport_id, name FROM sports ORDER BY name, sport_id`);
  const outrights = db.prepare(`
    SELECT * FROM outright_markets WHERE (@sport IS NULL OR sport_id = @sport)
      AND (SELECT count(*) FROM outright_contestants c WHERE c.special_id = outright_markets.special_id) >= @min
    ORDER BY updated_at DESC, special_id`);
  const outrightContestants = db.prepare(
    `SELECT name, handicap, odds, todds FROM outright_contestants WHERE special_id = ? ORDER BY odds, name`,
  );

  const exportSettlementsChunk = db.prepare(`
    SELECT * FROM settlements
    WHERE (settled_at > @at OR (settled_at = @at AND event_id > @id)) AND (@sport IS NULL OR sport_id = @sport)
    ORDER BY settled_at, event_id LIMIT ${EXPORT_CHUNK}`);
  const exportResultsChunk = db.prepare(`
    ${resultSelect}
    WHERE (r.event_id > @id OR (r.event_id = @id AND r.period > @period))
      AND (@since IS NULL OR r.timestamp >= @since) AND (@sport IS NULL OR e.sport_id = @sport)
    ORDER BY r.event_id, r.period LIMIT ${EXPORT_CHUNK}`);
  const exportMaxWinChunk = db.prepare(`
    ${maxWinSelect}
    WHERE (p.at > @at OR (p.at = @at AND (p.special_id > @special OR (p.special_id = @special AND p.contestant_id > @contestant))))
      AND (@sport IS NULL OR sp.sport_id = @sport)
    ORDER BY p.at, p.special_id, p.contestant_id LIMIT ${EXPORT_CHUNK}`);

  const query = createSettlementsQuery(db);

  function toSettledEvent(r: SettlementDbRow): SettledEvent {
    return {
      event_id: r.event_id,
      sport_id: r.sport_id,
      league_id: r.league_id,
      league_name: r.league_name,
      runner_home: r.runner_home,
      runner_away: r.runner_away,
      starts: formatServiceTime(r.starts),
      score_home: r.score_home,
      score_away: r.score_away,
      status: r.status,
      settled_at: formatServiceTime(r.settled_at),
      settlement: (settlementLines.all(r.event_id) as SettlementLineRow[]).map(settlementLineFromRow),
    };
  }

  /** The service's descriptions as last stored: the same labels online and offline. */
  const storedNames = (): PeriodNames => periodNames(periods.all() as { period: number; description: string }[]);

  /** `asTheServiceSays`: the export's label of period 0 is the service's own (see labelPeriod). */
  function resultView(r: ResultDbRow, inSets: boolean, names: PeriodNames, asTheServiceSays = false): PeriodResultView {
    return {
      eventId: r.event_id,
      period: r.period,
      periodLabel: labelPeriod(r.sport_name ?? inSets, r.period, names, { asTheServiceSays }),
      status: r.status,
      scoreHome: r.score_home,
      scoreAway: r.score_away,
      setsHome: r.sets_home,
      setsAway: r.sets_away,
      settlementId: r.settlement_id,
      cancellationReason: r.cancellation_reason,
      timestamp: r.timestamp,
      sportId: r.sport_id,
    };
  }

  function eventFromRow(r: Record<string, number | string | null>): EventView {
    return {
      eventId: r.event_id as number,
      sportId: r.sport_id as number | null,
      sportName: r.sport_name as string | null,
      leagueId: r.league_id as number | null,
      leagueName: r.league_name as string | null,
      runnerHome: r.runner_home as string | null,
      runnerAway: r.runner_away as string | null,
      starts: r.starts as number | null,
      liveStatus: r.live_status as number | null,
      scoreHome: r.score_home as number | null,
      scoreAway: r.score_away as number | null,
    };
  }

  // Per-period results are only published for sports played in sets, so an event of unknown sport is one.
  const guessSets = (r: ResultDbRow) => r.sport_name === null || isSetSport(r.sport_name);

  return {
    watchedEvents() {
      const lines = watchedLines.all() as MarketLineRow[];
      const byEvent = new Map<number, MarketLineRow[]>();
      for (const l of lines) {
        const list = byEvent.get(l.event_id);
        if (list) list.push(l);
        else byEvent.set(l.event_id, [l]);
      }
      return (watched.all() as Record<string, number | string | null>[]).map((r) => ({
        ...eventFromRow(r),
        addedAt: r.added_at as number,
        settled: r.settled === 1,
        markets: (byEvent.get(r.event_id as number) ?? []).map(marketFromRow),
        ...(r.other_match === 1
          ? {
              otherMatch: otherMatchName({
                runnerHome: r.other_home as string | null,
                runnerAway: r.other_away as string | null,
                sportName: r.other_sport as string | null,
              }),
            }
          : {}),
      }));
    },

    otherMatchIds: () => otherMatchIds.all() as number[],

    eventView(eventId) {
      const r = eventRow.get(eventId) as Record<string, number | string | null> | undefined;
      return r ? eventFromRow(r) : null;
    },

    latestMarkets: (eventId) => (linesOf.all(eventId) as MarketLineRow[]).map(marketFromRow),

    knownSettlements(eventIds) {
      return new Set(eventIds.filter((id) => settlementExists.get(id) !== undefined));
    },

    specialsOf(eventId) {
      return (specialsOfEvent.all(eventId) as Record<string, number | string | null>[]).map((s) => {
        const specialId = s.special_id as number;
        const clvRows = this.closingLineValue({ specialId });
        const contestants = (contestantsOf.all(specialId) as Record<string, number | string | null>[]).map((c) => {
          const clv = clvRows.filter((r) => r.contestantId === c.contestant_id);
          return {
            contestantId: c.contestant_id as number,
            contestantName: (c.contestant_name as string | null) ?? '',
            handicap: c.handicap as number | null,
            odds: c.odds as number | null,
            todds: c.todds as number | null,
            trueOddsByModel: latestTrueOdds(clv, c.tick_at as number | null),
            maxWin: c.last_max_win as number | null,
            clv,
          };
        });
        return {
          eventId: s.event_id as number | null,
          specialId,
          specialName: (s.special_name as string | null) ?? '',
          betType: (s.bet_type as string | null) ?? '',
          category: (s.category as string | null) ?? '',
          units: (s.units as string | null) ?? '',
          period: (s.period as number | null) ?? 0,
          cutoff: (s.cutoff as string | null) ?? '',
          contestants,
        };
      });
    },

    maxWinPointsOf: (eventId) => (maxWinOfEvent.all(eventId) as MaxWinDbRow[]).map(maxWinFromRow),

    liveStateHistory(eventId) {
      return (liveStates.all(eventId) as Record<string, number | null>[]).map((r) => ({
        at: r.at as number,
        liveStatus: r.live_status ?? null,
        scoreHome: r.score_home ?? null,
        scoreAway: r.score_away ?? null,
      }));
    },

    specialHistory(specialId, contestantId, range = {}) {
      return (
        specialHistory.all(specialId, contestantId, range.from ?? FAR_PAST, range.to ?? -FAR_PAST) as Record<
          string,
          number
        >[]
      ).map((r) => ({
        at: r.at as number,
        handicap: r.handicap as number,
        odds: r.odds as number,
        todds: r.todds as number,
        maxWin: r.max_win as number,
      }));
    },

    maxWinHistory(specialId, contestantId) {
      return (maxWinHistory.all(specialId, contestantId) as MaxWinDbRow[]).map(maxWinFromRow);
    },

    querySettlements: query,

    settlement(eventId) {
      const r = settlementRow.get(eventId) as SettlementDbRow | undefined;
      return r ? toSettledEvent(r) : null;
    },

    results(eventId) {
      const rows = resultsOf.all(eventId) as ResultDbRow[];
      const inSets = rows.some((r) => r.sets_home !== null || r.period >= 6) || rows.every(guessSets);
      const names = storedNames();
      return rows.map((r) => resultView(r, inSets, names));
    },

    closingLineValue(q = {}) {
      const rows = clv.all({
        event_id: q.eventId ?? null,
        special_id: q.specialId ?? null,
        model: q.model ?? null,
      }) as Record<string, number | string | null>[];
      return rows.map((r) => {
        const openingOdds = r.opening_odds as number | null;
        const opening = r.opening as number;
        const closing = r.closing as number | null;
        return {
          eventId: r.event_id as number | null,
          specialId: r.special_id as number,
          specialName: r.special_name as string | null,
          contestantId: r.contestant_id as number,
          contestantName: r.contestant_name as string | null,
          model: r.model as DevigModel,
          openingOdds,
          openingTrueOdds: opening,
          openedAt: r.opened_at as number,
          closingOdds: closing === null ? null : (r.closing_odds as number | null),
          closingTrueOdds: closing,
          closedAt: r.closed_at as number | null,
          // What one could have bet at the open against the fair close; the fair price's own move is kept beside it.
          clv: closing && openingOdds ? openingOdds / closing - 1 : null,
          fairMove: closing ? opening / closing - 1 : null,
        };
      });
    },

    latestCoverage() {
      return (latestCoverage.all() as { at: number; sport_name: string; event_count: number }[]).map((r) => ({
        at: r.at,
        sportName: r.sport_name,
        count: r.event_count,
      }));
    },

    periods() {
      return periods.all() as { period: number; description: string }[];
    },

    storedSports: () => sports.all() as { sport_id: number; name: string }[],

    storedOutrights(q = {}) {
      const rows = outrights.all({ sport: q.sportId ?? null, min: q.minContestants ?? 0 }) as Record<
        string,
        string | number | null
      >[];
      return rows.map((r) => ({
        event_id: r.event_id as number,
        special_id: r.special_id as number,
        special_name: r.special_name as string,
        cutoff: (r.cutoff as string | null) ?? '',
        sport_id: (r.sport_id as number | null) ?? 0,
        sport_name: (r.sport_name as string | null) ?? '',
        league_id: (r.league_id as number | null) ?? 0,
        league_name: (r.league_name as string | null) ?? '',
        home: (r.home as string | null) ?? '',
        away: (r.away as string | null) ?? '',
        starts: (r.starts as string | null) ?? '',
        live_status: (r.live_status as number | null) ?? 0,
        contestants: outrightContestants.all(r.special_id) as OutrightMarket['contestants'],
      }));
    },

    *exportSettlements(f = {}) {
      let at = (f.since ?? FAR_PAST) - 1;
      let id = Number.MAX_SAFE_INTEGER;
      for (;;) {
        const chunk = exportSettlementsChunk.all({ at, id, sport: f.sportId ?? null }) as SettlementDbRow[];
        if (chunk.length === 0) return;
        const events = chunk.map(toSettledEvent);
        yield* events;
        const last = chunk[chunk.length - 1] as SettlementDbRow;
        at = last.settled_at;
        id = last.event_id;
      }
    },

    *exportResults(f = {}) {
      let id = -Number.MAX_SAFE_INTEGER;
      let period = -1;
      const names = storedNames();
      for (;;) {
        const chunk = exportResultsChunk.all({
          id,
          period,
          since: f.since ?? null,
          sport: f.sportId ?? null,
        }) as ResultDbRow[];
        if (chunk.length === 0) return;
        yield* chunk.map((r) => resultView(r, guessSets(r), names, true));
        const last = chunk[chunk.length - 1] as ResultDbRow;
        id = last.event_id;
        period = last.period;
      }
    },

    *exportMaxWin(f = {}) {
      let at = (f.since ?? FAR_PAST) - 1;
      let special = Number.MAX_SAFE_INTEGER;
      let contestant = Number.MAX_SAFE_INTEGER;
      for (;;) {
        const chunk = exportMaxWinChunk.all({ at, special, contestant, sport: f.sportId ?? null }) as (MaxWinDbRow & {
          sport_id: number | null;
        })[];
        if (chunk.length === 0) return;
        yield* chunk.map((r) => ({ ...maxWinFromRow(r), sportId: r.sport_id }));
        const last = chunk[chunk.length - 1] as MaxWinDbRow;
        at = last.at;
        special = last.special_id;
        contestant = last.contestant_id;
      }
    },
  };
}
