// The model scoreboard's shapes (docs/trading.md, "Scoring the models"): which of the five de-vig models this book's
// closing prices call best, scored against how the lines settled. The core computes it (src/core/report), the CLI
// prints it and the Models view shows it; the figures are written here once so all of them read the same.
import type { DevigModel } from './api';

/** A mean with its 95% interval; the interval is null with fewer than two matches behind it, the mean without lines. */
export interface ScoreInterval {
  mean: number | null;
  low: number | null;
  high: number | null;
}

export interface ModelScore {
  model: DevigModel;
  /** Mean of −ln(fair closing probability of the side that won), per decided line. Lower is better. */
  logLoss: ScoreInterval;
  /** Mean over decided lines of Σ over the line's sides of (fair probability − outcome)². Lower is better. */
  brier: ScoreInterval;
}

/** One group of lines (all of them, a sport, a market) with every model's scores. */
export interface ScoreGroup {
  /** 'all', a sport id, or a market kind. */
  key: string;
  label: string;
  /** Lines scored (a quarter line decided by one half counts as one line, weighing a half). */
  lines: number;
  /** Matches the lines come from: the interval counts matches, not lines (lines of one match share its result). */
  matches: number;
  /** Σ of the lines' weights: 1 a whole decided line, 0.5 a quarter line decided by one half. */
  weight: number;
  /** In DEVIG_MODELS order. */
  models: ModelScore[];
  /** The model with the lowest log loss; null without lines. */
  leader: DevigModel | null;
}

/** One bin of predicted probability in a model's reliability table. */
export interface ReliabilityBin {
  from: number;
  to: number;
  /** Sides (of decided lines) whose fair probability fell in the bin. */
  count: number;
  /** Their weight (halves count half). */
  weight: number;
  meanPredicted: number;
  /** How often those sides won. */
  observed: number;
  /** The 95% interval of `observed` (Wilson's). A calibrated model's mean prediction lies inside it. */
  low: number;
  high: number;
}

export interface ModelReliability {
  model: DevigModel;
  /** Only the bins that hold sides, lowest first. */
  bins: ReliabilityBin[];
}

/** The leader against the runner-up, line by line (paired): how much lower the leader's loss is. */
export interface ModelComparison {
  metric: 'logLoss';
  best: DevigModel;
  /** Models that scored exactly as the leader on every line (on two-way lines Shin's method prices as MPTO does). */
  tiedWith: DevigModel[];
  /** The next model that scored differently. */
  runnerUp: DevigModel;
  /** Runner-up's loss minus the leader's, per line: positive = the leader is better. */
  difference: ScoreInterval;
  /** The interval of the difference excludes 0. */
  significant: boolean;
  /** Whether the Brier score ranks the same model first. */
  brierAgrees: boolean;
}

/** Lines left out of the scores, and why. Every line with a stored close and a settlement is in exactly one place. */
export interface ScoreExclusions {
  /** Every side pushed (a whole line landing on its number). */
  push: number;
  /** The match was abandoned or cancelled, or the service's word was void or one the app does not know. */
  void: number;
  /** A quarter line whose outcome the app cannot read (another period than the full match, a team not known). */
  unreadable: number;
  /** The close is of another handicap or total than the settled line (it moved under the same id). */
  lineMoved: number;
  /** The close cannot be priced by every model (fewer than two sides; MPTO's n/a for an extreme longshot). */
  unpriced: number;
  /** No priced side won (a two-way close of a match that drew). */
  noWinner: number;
}

export interface ModelScoreboard {
  /** As asked: lines of matches kicking off at or after `since` (ms), of sport `sportId`. */
  filter: { since: number | null; sportId: number | null };
  /** All lines scored, with every model's scores: the headline table. */
  all: ScoreGroup;
  bySport: ScoreGroup[];
  byMarket: ScoreGroup[];
  reliability: ModelReliability[];
  /** Null with fewer than two matches (nothing to compare). */
  comparison: ModelComparison | null;
  /** Quarter lines of which one half pushed: scored on the other half, at half weight. */
  halfPushes: number;
  excluded: ScoreExclusions;
  /** Lines closed before kick-off whose match has not settled yet (not scored). */
  awaitingSettlement: number;
  /** Which model leads and whether the lead is significant, in one plain sentence. */
  sentence: string;
  /** How the intervals are made, in words. */
  intervalMethod: string;
  computedMs: number;
}

/** What a scoring run has done so far, for the view's progress. */
export interface ScoreProgress {
  running: boolean;
  done: number;
  total: number;
}

/** A score as every screen and the sentence show it: four decimals; a figure that cannot be had is a dash. */
export const formatScore = (v: number | null): string => (v !== null && Number.isFinite(v) ? v.toFixed(4) : '—');

/**
 * One settled line with its close: what the store reads (src/core/store/queries/scoreSums.ts, with the line's id) and
 * the scorer (src/core/report/scoreboard.ts) scores.
 */
export interface SettledClose {
  eventId: number;
  sportId: number;
  period: number;
  market: string;
  /** The settled line's handicap or total. */
  line: number | null;
  /** The close's handicap or total (a line can move under its id). */
  closeLine: number | null;
  closeHome: number | null;
  closeDraw: number | null;
  closeAway: number | null;
  closeOver: number | null;
  closeUnder: number | null;
  outcomeHome: string;
  outcomeDraw: string;
  outcomeAway: string;
  /** The settlement's status: 'ended', or abandoned, cancelled, ... */
  status: string;
  scoreHome: number | null;
  scoreAway: number | null;
  /** A team total's team (the market's side as the stream showed it). */
  team: string | null;
}
