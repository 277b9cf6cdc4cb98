// The rule lab's shapes (docs/trading.md, "Scoring a drop rule"): the candidate drop rules a trader compares, and
// what replaying the recorded history through each gives (CLV against the close, beat-the-close rate, P/L at flat
// stakes, alerts a day, with 95% intervals clustered by match, and the paired difference with the current rule), on
// the earlier part of the history (where a rule is chosen) and the later part (where the choice is scored). Pure.
import type { DevigModel } from './api';
import type { DropAlertPhase } from './domain';
import type { ScoreInterval } from './scoreboard';

/** One candidate: the live drop rule's settings (Settings: drop alerts) plus the minimum fair-probability move. */
export interface LabRule {
  dropPct: number;
  dropWindowMinutes: number;
  /** The fair probability must rise at least this many percentage points (the live rule's default is 1). */
  minProbPts: number;
  phase: DropAlertPhase;
  /** Sports whose events' drops alert; empty: every sport. */
  sports: readonly number[];
  /** Markets (moneyline, spread, totals, team_total) whose lines' drops alert; empty: every market. */
  markets: readonly string[];
}

/** A rule's stable name: "5%/15m/1pt/both/all/all". */
export function labRuleKey(r: LabRule): string {
  const list = (xs: readonly (number | string)[]) => (xs.length ? [...xs].sort().join('+') : 'all');
  return `${r.dropPct}%/${r.dropWindowMinutes}m/${r.minProbPts}pt/${r.phase}/${list(r.sports)}/${list(r.markets)}`;
}

/** A rule in words: "Drop 5% in 15 min (+1 pt), pre-match and in play". */
export function labRuleWords(r: LabRule): string {
  const phase = r.phase === 'both' ? 'pre-match and in play' : r.phase === 'prematch' ? 'pre-match' : 'in play';
  const sports = r.sports.length ? `, sports ${r.sports.join(', ')}` : '';
  const markets = r.markets.length ? `, ${r.markets.join(', ')}` : '';
  return `Drop ${r.dropPct}% in ${r.dropWindowMinutes} min (+${r.minProbPts} pt), ${phase}${sports}${markets}`;
}

/** What a rule's short words mean, for the hover: the measure docs/trading.md ("Drop alerts") gives. */
export function labRuleExplained(r: LabRule): string {
  const pts = `${r.minProbPts} percentage point${r.minProbPts === 1 ? '' : 's'}`;
  return `An alert when a line's fair price falls ${r.dropPct}% or more within ${r.dropWindowMinutes} minutes and its fair probability rises at least ${pts}`;
}

/** A percentage figure as the lab prints it (the view, the sentence): "+1.23%", "—" when there is none. */
export const labPct = (v: number | null): string => (v === null ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(2)}%`);
export const labInterval = (i: ScoreInterval): string =>
  i.low === null || i.high === null ? '—' : `${labPct(i.low)} to ${labPct(i.high)}`;
/** A share (0..1) in percent, one decimal. */
export const labShare = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
/** Alerts a day: one decimal below a hundred ("3.5"), whole and grouped from there ("40,080"). */
export const labPerDay = (v: number): string => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1));

/** One rule's figures on one part of the history. */
export interface LabRuleScore {
  key: string;
  /** Alerts the replay raised (episodes, as the live rule writes them), placed or not. */
  alerts: number;
  /** Of them, alerts raised on one-minute bars (beyond the full-detail hours): counted, never scored. */
  byBars: number;
  /** Alerts a day over the part's days. */
  perDay: number;
  /** Matches with at least one scored alert. */
  matches: number;
  /** Placed pre-match alerts with a close of the same line: CLV (%) of the alert's price against the fair close. */
  clvAlerts: number;
  clv: ScoreInterval;
  /** Share of those alerts that beat the close (CLV > 0), 0..1. */
  beatRate: ScoreInterval;
  /** Placed alerts whose line settled (not void): P/L per 100 staked on the alert's side at its price. */
  settledAlerts: number;
  roi: ScoreInterval;
  /** Mean CLV minus the current rule's, paired by match; significant only when its interval excludes 0. */
  vsCurrent: { clv: ScoreInterval; significant: boolean } | null;
}

export interface LabPart {
  from: number;
  to: number;
  days: number;
  events: number;
  rules: LabRuleScore[];
}

export interface RuleLabResult {
  model: DevigModel;
  rules: LabRule[];
  /** How many rules were tried (every one is a chance to fit noise). */
  rulesTried: number;
  /** The key of the trader's current rule (always among the rules). */
  current: string;
  /** Matches kicking off before `splitAt` choose; the later ones score the choice. */
  splitAt: number;
  earlier: LabPart;
  later: LabPart;
  /** The rule with the best mean CLV on the earlier part (null: no rule had a scored alert there). */
  chosen: string | null;
  /** Whether the chosen rule's lead over the current one holds on the later part (its interval excludes 0, above). */
  holdsLater: boolean;
  sentence: string;
  computedMs: number;
}

export interface LabProgress {
  running: boolean;
  done: number;
  total: number;
}
