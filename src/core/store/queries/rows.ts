// Private row shapes of the store's tables and their mapping to domain types (the queries' row readers). Nothing
// outside src/core/store imports this module.
import type { Outcome, Prices, SettlementLine } from '../../../shared/api';
import type { EventView, MarketView, MaxWinPoint, MoneylineOutcome, SettlementRow } from '../../../shared/domain';
import type { SettledLineInput } from '../../../shared/trading';

/** A time window of a history read (epoch ms, both ends included); open ends read from the first or to the last. */
export interface HistoryRange {
  from?: number;
  to?: number;
}

/** Before any instant a history holds: the open end of a range or an export's first keyset. */
export const FAR_PAST = -8.64e15;

/** Exports walk in chunks: better-sqlite3 allows no other statement on the connection while one iterates. */
export const EXPORT_CHUNK = 500;

/** An event's header as the event reads select it (sport name from the event, else the service's list). */
export interface EventDbRow {
  event_id: number;
  sport_id: number | null;
  sport_name: string | null;
  league_id: number | null;
  league_name: string | null;
  runner_home: string | null;
  runner_away: string | null;
  starts: number | null;
  live_status: number | null;
  score_home: number | null;
  score_away: number | null;
}

export function eventFromRow(r: EventDbRow): EventView {
  return {
    eventId: r.event_id,
    sportId: r.sport_id,
    sportName: r.sport_name,
    leagueId: r.league_id,
    leagueName: r.league_name,
    runnerHome: r.runner_home,
    runnerAway: r.runner_away,
    starts: r.starts,
    liveStatus: r.live_status,
    scoreHome: r.score_home,
    scoreAway: r.score_away,
  };
}

export interface PriceColumns {
  price_home: number | null;
  price_draw: number | null;
  price_away: number | null;
  price_over: number | null;
  price_under: number | null;
}

export interface MarketLineRow extends PriceColumns {
  event_id: number;
  line_id: number;
  period: number;
  market: string;
  side: string | null;
  line: number | null;
  max_win: number | null;
  offline: number;
  updated_at: string | null;
  seen_at: number;
}

export interface SettlementDbRow {
  event_id: number;
  sport_id: number;
  league_id: number;
  league_name: string;
  runner_home: string;
  runner_away: string;
  starts: number;
  score_home: number;
  score_away: number;
  status: string;
  settled_at: number;
  line_count: number;
  ml_home: string | null;
  ml_draw: string | null;
  ml_away: string | null;
}

export interface SettlementLineRow extends SettledLineInput {
  event_id: number;
  line_id: number;
}

/** The special and contestant a row is of (a max_win point, a true-odds record), as the reads join them. */
export interface ContestantColumns {
  event_id: number | null;
  special_id: number;
  special_name: string | null;
  contestant_id: number;
  contestant_name: string | null;
}

export const contestantFromRow = (r: ContestantColumns) => ({
  eventId: r.event_id,
  specialId: r.special_id,
  specialName: r.special_name,
  contestantId: r.contestant_id,
  contestantName: r.contestant_name,
});

export interface MaxWinDbRow extends ContestantColumns {
  at: number;
  max_win: number;
  previous_max_win: number | null;
  odds: number | null;
  todds: number | null;
}

/** Null prices (every column null) mean the market was offline at that tick. */
export function pricesFromRow(r: PriceColumns): Prices | null {
  const p: Prices = {};
  if (r.price_home !== null) p.home = r.price_home;
  if (r.price_draw !== null) p.draw = r.price_draw;
  if (r.price_away !== null) p.away = r.price_away;
  if (r.price_over !== null) p.over = r.price_over;
  if (r.price_under !== null) p.under = r.price_under;
  return Object.keys(p).length > 0 ? p : null;
}

export function marketFromRow(r: MarketLineRow): MarketView {
  return {
    lineId: r.line_id,
    period: r.period,
    market: r.market,
    side: r.side === 'home' || r.side === 'away' ? r.side : null,
    line: r.line,
    prices: r.offline ? null : pricesFromRow(r),
    maxWin: r.max_win,
    updatedAt: r.updated_at,
    seenAt: r.seen_at,
  };
}

function moneyline(r: SettlementDbRow): MoneylineOutcome | null {
  if (r.ml_home === null || r.ml_draw === null || r.ml_away === null) return null;
  return { home: r.ml_home, draw: r.ml_draw, away: r.ml_away };
}

export function settlementFromRow(r: SettlementDbRow): SettlementRow {
  return {
    eventId: r.event_id,
    sportId: r.sport_id,
    leagueId: r.league_id,
    leagueName: r.league_name,
    runnerHome: r.runner_home,
    runnerAway: r.runner_away,
    starts: r.starts,
    settledAt: r.settled_at,
    scoreHome: r.score_home,
    scoreAway: r.score_away,
    status: r.status,
    lineCount: r.line_count,
    moneyline: moneyline(r),
  };
}

export function settlementLineFromRow(r: SettlementLineRow): SettlementLine {
  return {
    line_id: r.line_id,
    period: r.period,
    market: r.market,
    line: r.line,
    outcome_home: r.outcome_home as Outcome,
    outcome_draw: r.outcome_draw as Outcome,
    outcome_away: r.outcome_away as Outcome,
  };
}

export function maxWinFromRow(r: MaxWinDbRow): MaxWinPoint {
  return {
    ...contestantFromRow(r),
    at: r.at,
    maxWin: r.max_win,
    previousMaxWin: r.previous_max_win,
    odds: r.odds ?? 0,
    todds: r.todds ?? 0,
  };
}

/**
 * A market line's max_win change point, written by ingest as ticks arrive and again by compaction as it folds them
 * (the same key, so harmlessly). Two ticks of a line in one millisecond: the later one is the state after it.
 */
export const UPSERT_LINE_MAX_WIN_POINT = `
    INSERT INTO line_max_win_points (event_id, line_id, at, max_win, previous_max_win, line, price_home, price_draw,
                                     price_away, price_over, price_under)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(event_id, line_id, at) DO UPDATE SET
      max_win = excluded.max_win, line = excluded.line, price_home = excluded.price_home,
      price_draw = excluded.price_draw, price_away = excluded.price_away, price_over = excluded.price_over,
      price_under = excluded.price_under`;
