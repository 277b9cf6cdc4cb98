// Domain types the local store hands to the rest of the app (monitor, IPC, renderer, CLI export). Times are Unix
// milliseconds (UTC) unless a field says otherwise; the store's own row types stay private to src/core/store.
import type { DevigModel, Outcome, Prices } from './api';

/** The latest known state of one market line of an event. */
export interface MarketView {
  lineId: number;
  period: number;
  market: string;
  side: 'home' | 'away' | null;
  line: number | null;
  /** null: the market is offline (the stream said so, or a later snapshot no longer carried it). */
  prices: Prices | null;
  maxWin: number | null;
  /** The service's own updated_at text, as sent. */
  updatedAt: string | null;
  /** When we last recorded this line. */
  seenAt: number;
}

export interface EventView {
  eventId: number;
  sportId: number | null;
  sportName: string | null;
  leagueId: number | null;
  leagueName: string | null;
  runnerHome: string | null;
  runnerAway: string | null;
  starts: number | null;
  liveStatus: number | null;
  scoreHome: number | null;
  scoreAway: number | null;
}

export interface WatchedEventView extends EventView {
  addedAt: number;
  /** A settlement for this event is stored: it has left the book. */
  settled: boolean;
  markets: MarketView[];
  /**
   * Set when the service now uses this id for another match (../shared/eventIdentity.ts): that match's name, for the
   * row's flag. Kept for good by the store; nothing of that match is stored under this row, and its stream is stopped.
   */
  otherMatch?: string;
}

/**
 * One point of a market line's history, for charts: a recorded tick, or (older than the raw window) the open or
 * close of a one-minute bar, placed at the bar's first or last millisecond. The ticks where max_win changed are
 * kept whole, so the max_win steps are exact at any age.
 */
export interface LineHistoryPoint {
  at: number;
  line: number | null;
  prices: Prices | null;
  maxWin: number | null;
  /** Set on bar points: the bar's range and how many ticks it folds. */
  bar?: { edge: 'open' | 'close'; high: Prices | null; low: Prices | null; ticks: number };
}

/** A line history point as exported (flat rows per line). */
export interface LineHistoryExportRow extends LineHistoryPoint {
  eventId: number;
  lineId: number;
}

/** One recorded tick of a special contestant, for charts. */
export interface SpecialHistoryPoint {
  at: number;
  handicap: number;
  odds: number;
  todds: number;
  maxWin: number;
}

/** A max_win change point of a special contestant; kept for good. */
export interface MaxWinPoint {
  eventId: number | null;
  specialId: number;
  specialName: string | null;
  contestantId: number;
  contestantName: string | null;
  at: number;
  maxWin: number;
  /** null on the first point we ever stored for the contestant (the baseline, not a change). */
  previousMaxWin: number | null;
  odds: number;
  todds: number;
}

export interface LiveStatePoint {
  at: number;
  liveStatus: number | null;
  scoreHome: number | null;
  scoreAway: number | null;
}

export type OutcomeSide = 'home' | 'draw' | 'away';

export interface SettlementOutcomeFilter {
  side: OutcomeSide;
  result: Outcome;
  /**
   * 'moneyline': the full-match moneyline line (the common question "did the home side win").
   * 'any': at least one settled line of the event, optionally of one market, has that result for that side.
   */
  scope: 'moneyline' | 'any';
  market?: string;
}

/** Keyset position of the settlements list: newest first, ties broken by event id. */
export interface SettlementCursor {
  settledAt: number;
  eventId: number;
}

export interface SettlementQuery {
  sportId?: number;
  leagueId?: number;
  /** Case-insensitive text searched in both runner names. */
  team?: string;
  /** settled_at >= from (ms). */
  from?: number;
  /** settled_at < to (ms). */
  to?: number;
  outcome?: SettlementOutcomeFilter;
  /** Page size, 1..500, default 50. */
  limit?: number;
  /** Continue after this row (from the previous page's `next`). */
  after?: SettlementCursor;
  /** Skip counting (cheaper) when the caller already has the total of this filter. */
  withoutTotal?: boolean;
}

/** A moneyline's settlement words per side, as the service sent them (win, loss, push, or a word the app does not know). */
export interface MoneylineOutcome {
  home: string;
  draw: string;
  away: string;
}

export interface SettlementRow {
  eventId: number;
  sportId: number;
  leagueId: number;
  leagueName: string;
  runnerHome: string;
  runnerAway: string;
  starts: number;
  settledAt: number;
  scoreHome: number;
  scoreAway: number;
  status: string;
  lineCount: number;
  /** The full-match moneyline result, when that line was settled. */
  moneyline: MoneylineOutcome | null;
}

export interface SettlementPage {
  rows: SettlementRow[];
  /** Rows matching the filter in all pages; null when the query asked `withoutTotal`. */
  total: number | null;
  /** Pass as `after` for the next page; null on the last page. */
  next: SettlementCursor | null;
}

export interface PeriodResultView {
  eventId: number;
  period: number;
  periodLabel: string;
  status: number;
  scoreHome: number | null;
  scoreAway: number | null;
  setsHome: number | null;
  setsAway: number | null;
  settlementId: number;
  cancellationReason: string | null;
  timestamp: number | null;
  sportId: number | null;
}

/**
 * One special contestant's opening and closing records under one de-vig model. `clv` (a share: 0.136 = +13.6%) is
 * openingOdds / closingTrueOdds - 1: the price one could have bet at the open against the fair close under this
 * model, positive when it beat the close. `fairMove` is openingTrueOdds / closingTrueOdds - 1, the fair price's own
 * move from open to close (nothing a trader could have bet).
 */
export interface ClvRow {
  eventId: number | null;
  specialId: number;
  specialName: string | null;
  contestantId: number;
  contestantName: string | null;
  model: DevigModel;
  /** The opening record's offered odds (`odds`); null when not known (recorded before the app kept them). */
  openingOdds: number | null;
  openingTrueOdds: number;
  openedAt: number;
  /** The closing record's offered odds; null while open or when not known. */
  closingOdds: number | null;
  closingTrueOdds: number | null;
  closedAt: number | null;
  /** openingOdds / closingTrueOdds - 1; null until closed or when the opening's offered odds are not known. */
  clv: number | null;
  /** openingTrueOdds / closingTrueOdds - 1; null until closed. */
  fairMove: number | null;
}

export interface SpecialContestantView {
  contestantId: number;
  contestantName: string;
  handicap: number | null;
  odds: number | null;
  /** The latest tick's true odds as the service gave them (under the model asked for when it was fetched). */
  todds: number | null;
  /**
   * The latest tick's true odds under each model, when that tick is the opening or closing record (the only ticks
   * carrying true_odds_by_model); null otherwise. The True column shows the trader's model from here where it can.
   */
  trueOddsByModel: Partial<Record<DevigModel, number>> | null;
  /** Maximum stake accepted (the service's max_win), as of the latest tick. */
  maxWin: number | null;
  /** Opening and closing records under every model: CLV of the opening offered odds, and the fair move. */
  clv: ClvRow[];
}

export interface SpecialView {
  eventId: number | null;
  specialId: number;
  specialName: string;
  betType: string;
  category: string;
  units: string;
  period: number;
  cutoff: string;
  contestants: SpecialContestantView[];
}

export interface ClvQuery {
  eventId?: number;
  specialId?: number;
  model?: DevigModel;
}

/** Which settlements alert and notify: the watched matches (default), every settlement, or chosen sports and leagues. */
export type SettlementAlertScope = 'watched' | 'all' | 'chosen';
export const SETTLEMENT_ALERT_SCOPES: readonly SettlementAlertScope[] = ['watched', 'all', 'chosen'];

/** When drop alerts fire: before kick-off, in play (the stream says the match is live), or both (default). */
export type DropAlertPhase = 'both' | 'prematch' | 'inplay';
export const DROP_ALERT_PHASES: readonly DropAlertPhase[] = ['both', 'prematch', 'inplay'];

export interface NewAlert {
  at?: number;
  /** Rule that fired, e.g. 'max_win_change', 'settled', 'odds_move'. */
  kind: string;
  eventId?: number | null;
  specialId?: number | null;
  contestantId?: number | null;
  message: string;
  data?: unknown;
}

export interface AlertRecord {
  id: number;
  at: number;
  kind: string;
  eventId: number | null;
  specialId: number | null;
  contestantId: number | null;
  message: string;
  data: unknown;
  /**
   * Set on a push that updates an alert already fired (a drop episode that grew: same id, new words and data): the
   * page replaces the row in its place, and nothing rings or counts as new again.
   */
  updatedAt?: number;
}

export interface CoverageSample {
  at: number;
  sportName: string;
  count: number;
}

/** Filters of the export iterators; `since` is ms, compared to settled_at, the result timestamp or the point time. */
export interface ExportFilter {
  since?: number;
  sportId?: number;
}

/** A max_win change point as exported (flat, CSV-friendly). */
/** A market line's max_win change point (the first of a line is its baseline, with no previous value). */
export interface LineMaxWinChange {
  eventId: number;
  lineId: number;
  /** From the line's latest state; null when the line itself was never stored. */
  period: number | null;
  market: string | null;
  /** The line value at the change (handicap or total). */
  line: number | null;
  at: number;
  maxWin: number | null;
  previousMaxWin: number | null;
  sportId: number | null;
}

export interface MaxWinExportRow extends MaxWinPoint {
  sportId: number | null;
}

export interface MaintenanceReport {
  oddsTicksDeleted: number;
  specialTicksDeleted: number;
  coverageSamplesDeleted: number;
  /** Line-hour bar blocks older than the retention window. */
  lineBarBlocksDeleted: number;
}

/** What one compaction step did (one transaction). */
export interface CompactProgress {
  /** Nothing older than the raw window is left raw: the next step can wait. */
  done: boolean;
  /** Raw ticks folded into bars by this step. */
  ticksCompacted: number;
  /** Raw ticks older than the retention window: deleted, only their max_win change points kept. */
  ticksDropped: number;
  lines: number;
  changePoints: number;
  /** How long the step's transaction ran. */
  ms: number;
  /** Ticks older than this (ms) are being compacted. */
  compactedBefore: number;
  /** The oldest raw tick left, ms; null when there is none. */
  oldestRawAt: number | null;
}

export type StorageKind =
  'rawTicks' | 'bars' | 'maxWinPoints' | 'specials' | 'settlements' | 'alerts' | 'other' | 'free';

/** The history file and what each kind of history takes in it. */
export interface StoreUsage {
  fileBytes: number;
  /** The write-ahead log beside the file (folded back into it at checkpoints). */
  walBytes: number;
  /** Bytes per kind; they add up to fileBytes. `free` is space SQLite reuses before the file grows. */
  kinds: Array<{ kind: StorageKind; bytes: number }>;
  /** Measured page by page (SQLite's dbstat), or estimated from row counts when dbstat is not compiled in. */
  exact: boolean;
  rawTickHours: number;
  retentionDays: number;
  /** The oldest raw (full-detail) odds tick, ms; null when none. */
  oldestRawTickAt: number | null;
}

// ---- price alerts, closing lines, top movers and the bet log (issue 14) ----

/**
 * A bet's result: a quarter line can win or lose half its stake and push the other half; `void` is a side the
 * service pushed on a match that did not end (abandoned, cancelled): the stake comes back (docs/trading.md).
 */
export type BetResult = 'win' | 'half_win' | 'push' | 'half_loss' | 'loss' | 'void';
/** The results a trader picks by hand for a bet the app cannot settle (a void's money is a push's). */
export type HandResult = Exclude<BetResult, 'void'>;

/** A side of a main market line's prices: home/draw/away on moneyline and spread, over/under on totals. */
export type PriceSide = 'home' | 'draw' | 'away' | 'over' | 'under';

/** A "price crosses X" rule on one side of one line. */
export interface PriceThreshold {
  lineId: number;
  side: PriceSide;
  price: number;
}

/** What a trader set for one event; anything left out follows the defaults in Settings. */
export interface PriceAlertOverrides {
  dropPct?: number;
  dropWindowMinutes?: number;
  thresholds: PriceThreshold[];
}

/** A main-market line's opening and closing price as the stream showed them (watched events only). */
export interface LineCloseView {
  eventId: number;
  lineId: number;
  period: number;
  market: string;
  line: number | null;
  openedAt: number;
  opening: Prices;
  /**
   * The close: the last price offered before kick-off (the stream saying live, or the scheduled start passing,
   * whichever came first); null while the line is still open. A suspension before kick-off does not close a line.
   */
  closing: Prices | null;
  /** Kick-off, or when the line vanished from a fresh snapshot. */
  closedAt: number | null;
  /** When the closing price was last confirmed (the app followed the line up to then). */
  lastAt: number;
  /** started: the stream said live; kickoff: the scheduled start passed; gone: missing from a fresh snapshot; offline: recorded by an older version at a suspension. */
  closeReason: 'offline' | 'started' | 'kickoff' | 'gone' | null;
  /** The close was not followed up to kick-off (see docs/trading.md), or the line vanished: kept, but flagged. */
  stale: boolean;
}

/** One row of Top movers: a side of a watched line, its fair-price move over 5, 15 and 60 minutes (percent). */
export interface MoverRow {
  eventId: number;
  label: string;
  lineId: number;
  market: string;
  line: number | null;
  side: PriceSide;
  /** The side as a trader says it: "Away +0.5", "Over 2.5". */
  sideWords: string;
  period: number;
  price: number;
  fair: number;
  /** The relative change of the fair price in percent (− = shortened), the drop rule's measure. */
  move5: number | null;
  move15: number | null;
  move60: number | null;
  maxWin: number | null;
  /** max_win's move over the last 60 minutes (percent): a drop with a rising limit is the signal. */
  maxWinMove60: number | null;
}

export interface NewBet {
  eventId: number;
  lineId: number;
  side: PriceSide;
  price: number;
  stake: number;
}

export interface BetView extends NewBet {
  id: number;
  placedAt: number;
  label: string;
  market: string;
  period: number;
  line: number | null;
  /** The bet's side as a trader says it: "Away +0.5", "Over 2.5", "Home team total Over 1.5", "Draw". */
  sideWords: string;
  /** The line's closing price of this side, once the line has closed (and the bet was placed before it). */
  closingPrice: number | null;
  /**
   * CLV (percent) of the bet's price against the closing no-vig price, under every model (null for a model that
   * cannot price the close); null until closed.
   */
  clvByModel: Record<DevigModel, number | null> | null;
  /** The close is kept but not the real one (not followed to kick-off, or the line vanished). */
  closeStale: boolean;
  /** Why the bet has no close, or what to know about it: "the line moved to -1 under the same id", ... */
  closeNote: string | null;
  result: BetResult | null;
  /** Who settled it: the service's word, the final score (quarter lines), or the trader by hand. */
  resultBy: 'service' | 'score' | 'hand' | null;
  /** Set while the app cannot settle the bet and the trader must: the reason. */
  settleByHand: string | null;
  /** Profit or loss in stake units (currency) once settled. */
  pnl: number | null;
  /**
   * The match was settled again with another result (a re-settlement): the bet's result and the score under the
   * result it replaced, the latest such change. Null when never re-settled, or when the trader settled it by hand.
   */
  resettled?: BetResettlement | null;
  /** The trader's note ('' or left out when none). */
  note?: string;
  /** When the trader last edited the bet's price, stake or note (null or left out: as recorded). */
  editedAt?: number | null;
}

/** What the trader may change on a recorded bet (what is left out stays). */
export interface BetEdit {
  price?: number;
  stake?: number;
  note?: string;
}

/** The bet as one change left it (bet_revisions): 1 is the bet as recorded, then every edit, removal and restore. */
export interface BetRevision {
  revision: number;
  at: number;
  change: 'recorded' | 'edited' | 'removed' | 'restored';
  price: number;
  stake: number;
  note: string;
}

export interface BetResettlement {
  /** The bet's result under the replaced settlement (null: that settlement could not settle it). */
  fromResult: BetResult | null;
  fromScore: { home: number; away: number } | null;
  toScore: { home: number; away: number } | null;
  /** When the new result arrived (ms). */
  at: number;
}

export interface BetQuery {
  /** open: not settled yet (settle-by-hand bets included); settled: a result, by the service, the score or by hand. */
  status?: 'open' | 'settled';
  eventId?: number;
  market?: string;
  from?: number;
  to?: number;
}

export interface BetTotals {
  count: number;
  stake: number;
  /** Average CLV (percent) under the chosen model over bets whose close is known; null when none is. */
  averageClv: number | null;
  pnl: number;
  settledStake: number;
  /** P/L over settled stake (percent); null when nothing is settled. */
  roi: number | null;
}
