// The trading desk's rules, in one place (docs/trading.md says them in words): which side a line's value belongs to
// and how a side reads, how a bet settles (quarter lines, words we do not know, a line that moved under its id),
// what a close is and when it is stale, what a drop is, when a market is too partial to price, and money rounding.
// Views, alerts, notifications, CSV, the bet log and the CLI read these; nothing else decides them. Pure, no I/O.
import type { DevigModel, Prices } from './api';
import { DEVIG_MODELS, isUsablePrice } from './api';
import type { BetResult, BetTotals, HandResult, PriceSide } from './domain';
import { labelPeriod, type PeriodNames } from './periods';
import { devig, mptoCanPrice } from './devig';

// ---- markets and sides ----

export type MarketKind = 'moneyline' | 'spread' | 'totals' | 'team_total' | 'other';

/** The service's market word, normalised ("Team Totals", "team-total" -> team_total). */
export function marketKind(market: string): MarketKind {
  const m = market
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (m === 'moneyline') return 'moneyline';
  if (m === 'spread' || m === 'handicap') return 'spread';
  if (m === 'totals' || m === 'total') return 'totals';
  if (m === 'team_total' || m === 'team_totals') return 'team_total';
  return 'other';
}

const MARKET_NAME: Record<Exclude<MarketKind, 'other'>, string> = {
  moneyline: 'Moneyline',
  spread: 'Spread',
  totals: 'Total',
  team_total: 'Team total',
};

/** "Moneyline", "Spread", "Total", "Team total"; another market's word with its underscores read as spaces. */
export function marketName(market: string): string {
  const k = marketKind(market);
  if (k !== 'other') return MARKET_NAME[k];
  const raw = market.trim().replace(/_/g, ' ');
  return raw ? raw.charAt(0).toUpperCase() + raw.slice(1) : 'Market';
}

/** Whether a market's sides are over/under (totals, team totals) rather than home/draw/away. */
export const isOverUnder = (market: string): boolean => {
  const k = marketKind(market);
  return k === 'totals' || k === 'team_total';
};

/** The sides a market can have, in the order a screen lists them. */
export function marketSides(market: string): PriceSide[] {
  const k = marketKind(market);
  if (k === 'moneyline') return ['home', 'draw', 'away'];
  if (k === 'totals' || k === 'team_total') return ['over', 'under'];
  return ['home', 'away'];
}

/** A number as a line is written: no trailing zeros, at most two decimals (quarter lines keep theirs). */
export function lineNumber(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** A handicap with its sign: "+0.5", "-1.25", "0". */
export function signedLine(n: number): string {
  const v = Math.round(n * 100) / 100;
  return v > 0 ? `+${lineNumber(v)}` : lineNumber(v === 0 ? 0 : v);
}

/**
 * The handicap or total a side is bet at. `line` is the service's value: for a spread the HOME side's handicap (the
 * away side's is its negation: -1.5 is Home -1.5 / Away +1.5); for totals and team totals the total, for both sides;
 * for a moneyline none.
 */
export function sideLine(market: string, line: number | null, side: PriceSide): number | null {
  if (line === null || !Number.isFinite(line)) return null;
  const k = marketKind(market);
  if (k === 'moneyline') return null;
  if (k === 'spread' || k === 'other') return side === 'away' ? (line === 0 ? 0 : -line) : line;
  return line;
}

const SIDE_WORD: Record<PriceSide, string> = { home: 'Home', draw: 'Draw', away: 'Away', over: 'Over', under: 'Under' };

/** A side's bare word: Home, Draw, Away, Over, Under. */
export const sideName = (side: PriceSide): string => SIDE_WORD[side];

export interface SideWordsOptions {
  /** A team total's team (the market's `side`); unknown: the words say "Team total" without a team. */
  team?: 'home' | 'away' | null;
}

/**
 * One side of a line as a trader says it: "Home", "Draw" (moneyline), "Away +0.5", "Home -1.25" (spread), "Over 2.5"
 * (totals: never a sign), "Home team total Over 1.5".
 */
export function sideWords(market: string, line: number | null, side: PriceSide, o: SideWordsOptions = {}): string {
  const k = marketKind(market);
  const word = SIDE_WORD[side];
  const v = sideLine(market, line, side);
  if (k === 'moneyline') return word;
  if (k === 'totals') return v === null ? word : `${word} ${lineNumber(v)}`;
  if (k === 'team_total') {
    const team = o.team === 'home' ? 'Home team total' : o.team === 'away' ? 'Away team total' : 'Team total';
    return v === null ? `${team} ${word}` : `${team} ${word} ${lineNumber(v)}`;
  }
  if (k === 'spread') return v === null ? word : `${word} ${signedLine(v)}`;
  return v === null ? `${marketName(market)} ${word}` : `${marketName(market)} ${word} ${signedLine(v)}`;
}

/** A whole line, no side: "Moneyline", "Home -1.5 / Away +1.5", "Total 2.5", "Home team total 1.5". */
export function lineWords(market: string, line: number | null, o: SideWordsOptions = {}): string {
  const k = marketKind(market);
  if (k === 'moneyline' || line === null || !Number.isFinite(line))
    return k === 'team_total' ? teamTotalName(o.team) : marketName(market);
  if (k === 'spread') return `${sideWords(market, line, 'home')} / ${sideWords(market, line, 'away')}`;
  if (k === 'totals') return `Total ${lineNumber(line)}`;
  if (k === 'team_total') return `${teamTotalName(o.team)} ${lineNumber(line)}`;
  return `${marketName(market)} ${signedLine(line)}`;
}

const teamTotalName = (team: 'home' | 'away' | null | undefined) =>
  team === 'home' ? 'Home team total' : team === 'away' ? 'Away team total' : 'Team total';

// ---- results and settlement ----

export type { BetResult, HandResult } from './domain';
/** The results a trader can pick by hand (the Bets view's list); the app's own settlement may also say `void`. */
export const BET_RESULTS: readonly HandResult[] = ['win', 'half_win', 'push', 'half_loss', 'loss'];

const RESULT_WORD: Record<BetResult, string> = {
  win: 'won',
  half_win: 'half won',
  push: 'push',
  half_loss: 'half lost',
  loss: 'lost',
  void: 'void',
};
export const resultWords = (r: BetResult): string => RESULT_WORD[r];

/** The service's three words for a side (spec: win, loss or push). */
const KNOWN_WORDS: Record<string, BetResult> = { win: 'win', loss: 'loss', push: 'push' };

/** A line is a quarter (split) line when its value times four is odd: -0.25, 0.75, 2.25. */
export function isQuarterLine(line: number | null): boolean {
  if (line === null || !Number.isFinite(line)) return false;
  const q = Math.round(line * 4);
  return Math.abs(line * 4 - q) < 1e-9 && Math.abs(q % 2) === 1;
}

/** Which settlement column holds a side's word: over in outcome_home, under in outcome_away (docs/service/assumptions.md). */
export function outcomeColumn(side: PriceSide): 'outcome_home' | 'outcome_draw' | 'outcome_away' {
  if (side === 'over') return 'outcome_home';
  if (side === 'under') return 'outcome_away';
  return `outcome_${side}`;
}

export interface SettledLineInput {
  period: number;
  market: string;
  line: number | null;
  outcome_home: string;
  outcome_draw: string;
  outcome_away: string;
}

export interface FinalScore {
  home: number;
  away: number;
}

export type SideSettlement =
  { kind: 'settled'; result: BetResult; fromScore: boolean } | { kind: 'by_hand'; reason: string };

/** One half of a stake on a whole or half line: +1 win, 0 push, -1 loss, from the side's margin over the line. */
const halfOutcome = (margin: number): number => (margin > 1e-9 ? 1 : margin < -1e-9 ? -1 : 0);

/**
 * A full-match line settled from the final score. A quarter line is two half stakes on its neighbouring lines (line
 * -0.25 and +0.25 of the side's handicap or total). Null where the score cannot say (a moneyline, an unknown team).
 */
export function settleFromScore(
  market: string,
  line: number,
  side: PriceSide,
  score: FinalScore,
  team?: 'home' | 'away' | null,
): BetResult | null {
  const k = marketKind(market);
  const v = sideLine(market, line, side);
  if (v === null) return null;
  let margin: (at: number) => number;
  if (k === 'spread') {
    if (side !== 'home' && side !== 'away') return null;
    const diff = side === 'home' ? score.home - score.away : score.away - score.home;
    margin = (h) => diff + h;
  } else if (k === 'totals' || k === 'team_total') {
    if (side !== 'over' && side !== 'under') return null;
    let goals: number;
    if (k === 'totals') goals = score.home + score.away;
    else if (team === 'home' || team === 'away') goals = score[team];
    else return null;
    margin = (t) => (side === 'over' ? goals - t : t - goals);
  } else return null;
  const halves = isQuarterLine(v) ? [v - 0.25, v + 0.25] : [v, v];
  const sum = halfOutcome(margin(halves[0]!)) + halfOutcome(margin(halves[1]!));
  return sum === 2 ? 'win' : sum === 1 ? 'half_win' : sum === 0 ? 'push' : sum === -1 ? 'half_loss' : 'loss';
}

/** Whether a settlement's status is the ordinary end of a match (`ended`); anything else (abandoned, cancelled) is not. */
export const isEndedStatus = (status: string | null | undefined): boolean =>
  (status ?? 'ended').trim().toLowerCase() === 'ended';

/** Which results of the score agree with the service's word for a side: the score may only split a win or a loss in halves. */
const AGREES: Record<'win' | 'loss' | 'push', readonly BetResult[]> = {
  win: ['win', 'half_win'],
  loss: ['loss', 'half_loss'],
  push: ['push'],
};

/**
 * How one side of a settled line settles (docs/trading.md, "Settling bets"). The service's word is never
 * contradicted:
 * - on a match that did not simply end (`status` abandoned, cancelled, ...), a side the service pushes is **void**
 *   (stake back): bookmakers void what was not decided; a side it says won or lost was decided, and settles so;
 * - a full-match quarter line settles from the final score (the service's one word per side cannot say "half won"),
 *   and the score may only split the service's win or loss into whole and half: any other answer of the score is
 *   for the trader to settle by hand, with the reason;
 * - a quarter line of another period, or a word outside win/loss/push, is settled by hand, with the reason.
 */
export function settleSide(
  l: SettledLineInput,
  side: PriceSide,
  score: FinalScore | null,
  team?: 'home' | 'away' | null,
  status: string = 'ended',
): SideSettlement {
  const word = String(l[outcomeColumn(side)] ?? '');
  const known = KNOWN_WORDS[word.trim().toLowerCase()] as 'win' | 'loss' | 'push' | undefined;
  if (!known)
    return {
      kind: 'by_hand',
      reason: `the service's word for ${SIDE_WORD[side]} is "${word}", which the app does not know`,
    };
  if (known === 'push' && !isEndedStatus(status)) return { kind: 'settled', result: 'void', fromScore: false };
  if (isQuarterLine(l.line)) {
    if (l.period !== 0)
      return {
        kind: 'by_hand',
        reason: `a quarter line of a period other than the full match (${lineNumber(l.line!)}): the service's word cannot say half results`,
      };
    if (!score) return { kind: 'by_hand', reason: 'a quarter line, and the final score is not known' };
    const r = settleFromScore(l.market, l.line!, side, score, team);
    if (r === null)
      return {
        kind: 'by_hand',
        reason:
          marketKind(l.market) === 'team_total'
            ? 'a team-total quarter line whose team is not known'
            : `a quarter line of a ${marketName(l.market)} market`,
      };
    if (!AGREES[known].includes(r)) {
      return {
        kind: 'by_hand',
        reason: `the service says ${SIDE_WORD[side]} ${word.trim().toLowerCase()}, the score ${score.home}-${score.away} says ${resultWords(r)}`,
      };
    }
    return { kind: 'settled', result: r, fromScore: true };
  }
  return { kind: 'settled', result: known, fromScore: false };
}

export type BetSettlement = SideSettlement | { kind: 'mismatch'; reason: string };

/**
 * A bet against its settled line, joined by line id AND line value: a handicap that moved under the same id is a
 * mismatch (never another line's result).
 */
export function settleBet(
  bet: { market: string; line: number | null; side: PriceSide },
  settled: SettledLineInput,
  score: FinalScore | null,
  team?: 'home' | 'away' | null,
  status: string = 'ended',
): BetSettlement {
  if (!sameLine(bet.line, settled.line, bet.market)) {
    return {
      kind: 'mismatch',
      reason: `the settled line is ${describeLine(bet.market, settled.line)}, the bet's is ${describeLine(bet.market, bet.line)}`,
    };
  }
  return settleSide(settled, bet.side, score, team, status);
}

const describeLine = (market: string, line: number | null) =>
  line === null ? 'none' : marketKind(market) === 'spread' ? signedLine(line) : lineNumber(line);

/**
 * A line's key where its state is kept (a drop reference, a Top movers row, a threshold's crossings): its id AND its
 * value, so a handicap moved under the same id (-0.5 to -0.25) is another line, as the bet log joins them.
 */
export function lineKey(lineId: number, line: number | null): string {
  return line === null || !Number.isFinite(line) ? `${lineId}` : `${lineId}@${Math.round(line * 100) / 100}`;
}

/** Two line values are the same line (null only equals null); a moneyline has no line value, so any two are. */
export function sameLine(a: number | null, b: number | null, market?: string): boolean {
  if (market !== undefined && marketKind(market) === 'moneyline') return true;
  if (a === null || b === null) return a === b;
  return Math.abs(a - b) < 1e-9;
}

/**
 * One settled line in words: "Away +0.5: won", "Home -0.75: half won", "Over 2.5: won", "Moneyline Draw: won",
 * "Home team total Over 1.5: won", "Total 3: push", "Total 2.75: void" (a match not ended, every side pushed by the
 * service); a period other than the full match follows in brackets.
 */
export function settledLineWords(
  l: SettledLineInput,
  o: { score?: FinalScore | null; team?: 'home' | 'away' | null; period?: string; status?: string } = {},
): string {
  const tail = o.period ? ` (${o.period})` : '';
  const sides = marketSides(l.market);
  const settled = sides.map((side) => ({ side, s: settleSide(l, side, o.score ?? null, o.team, o.status) }));
  const words = (side: PriceSide) => {
    const w = sideWords(l.market, l.line, side, { team: o.team ?? null });
    return marketKind(l.market) === 'moneyline' ? `Moneyline ${w}` : w;
  };
  const byHand = settled.find((x) => x.s.kind === 'by_hand');
  if (byHand && byHand.s.kind === 'by_hand')
    return `${lineWords(l.market, l.line, { team: o.team ?? null })}${tail}: settle by hand (${byHand.s.reason})`;
  const results = settled.map((x) => ({ side: x.side, r: (x.s as { result: BetResult }).result }));
  if (results.every((x) => x.r === 'push'))
    return `${lineWords(l.market, l.line, { team: o.team ?? null })}${tail}: push`;
  if (results.every((x) => x.r === 'void'))
    return `${lineWords(l.market, l.line, { team: o.team ?? null })}${tail}: void`;
  const winners = results.filter((x) => x.r === 'win' || x.r === 'half_win');
  if (winners.length === 1) return `${words(winners[0]!.side)}${tail}: ${resultWords(winners[0]!.r)}`;
  // Anything else (two winners, a loss with a push): every side, so nothing is hidden.
  return `${lineWords(l.market, l.line, { team: o.team ?? null })}${tail}: ${results.map((x) => `${sideWords(l.market, l.line, x.side, { team: o.team ?? null })} ${resultWords(x.r)}`).join(', ')}`;
}

/** A settlement's status in words when it is not the ordinary `ended` (abandoned, cancelled, ...). */
export function settlementStatusNote(status: string): string | null {
  const s = status.trim().toLowerCase();
  if (s === 'ended') return null;
  return s ? s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ') : 'Status not given';
}

// ---- money ----

/** The one rounding rule: to the cent, halves away from zero (1.005 -> 1.01, -2.675 -> -2.68). */
export function roundMoney(n: number): number {
  if (!Number.isFinite(n)) return n;
  const sign = n < 0 ? -1 : 1;
  // The tiny nudge absorbs binary representation error (1.005 is 1.00499999999999989...).
  return (sign * Math.round(Math.abs(n) * 100 + 1e-7)) / 100;
}

/** P/L of a settled bet: a win pays stake x (price - 1), a half win half of that, a push or a void 0, a half loss half the stake. */
export function betPnl(result: BetResult, price: number, stake: number): number {
  switch (result) {
    case 'win':
      return roundMoney(stake * (price - 1));
    case 'half_win':
      return roundMoney((stake / 2) * (price - 1));
    case 'push':
    case 'void':
      return 0;
    case 'half_loss':
      return roundMoney(-stake / 2);
    case 'loss':
      return roundMoney(-stake);
  }
}

/** Stakes and P/L as the trader reads them: two decimals, thousands grouped, the unit they set ("125.50 EUR"). */
export function formatMoney(n: number, unit = '', o: { sign?: boolean } = {}): string {
  const v = roundMoney(n);
  const text = Math.abs(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const sign = v < 0 ? '-' : o.sign && v > 0 ? '+' : '';
  return `${sign}${text}${unit ? ` ${unit}` : ''}`;
}

// ---- fair prices, partial markets and CLV ----

const ORDER: readonly PriceSide[] = ['home', 'draw', 'away', 'over', 'under'];

/**
 * The one rule for an unpriced side, wherever a price is judged (the stream's parser, the close, fair prices, the
 * scoreboard, the odds formats): a usable decimal price is finite and above 1. A side quoted at or below 1.0 (a
 * decided side) is unpriced: it is a side the line has, without a price, never a side the line lacks.
 */
export const isPrice = isUsablePrice;

/** The priced sides of a line, in a fixed order. */
export function pricedSides(prices: Prices | null | undefined): PriceSide[] {
  if (!prices) return [];
  return ORDER.filter((s) => isPrice(prices[s]));
}

/** The sides a line lists without a price (1.0 or less, not a number): such a market is partial. */
export function unpricedSides(prices: Prices | null | undefined): PriceSide[] {
  if (!prices) return [];
  return ORDER.filter((s) => prices[s] !== undefined && prices[s] !== null && !isPrice(prices[s]));
}

/** Only the priced sides of `prices` (a side at or below 1.0 left out, as the stream's parser leaves it out). */
export function pricedOnly(prices: Prices): Prices {
  const out: Prices = {};
  for (const s of ORDER) if (isPrice(prices[s])) out[s] = prices[s];
  return out;
}

/**
 * Whether `prices` lacks a side the line has had (`seen`): a moneyline that lost its draw for a few seconds is not a
 * two-way market, and has no fair price until the side is back.
 */
export function isPartial(prices: Prices | null | undefined, seen: Iterable<PriceSide>): boolean {
  if (unpricedSides(prices).length) return true;
  const have = new Set(pricedSides(prices));
  for (const s of seen) if (!have.has(s)) return true;
  return false;
}

/**
 * Fair (no-vig) prices of every priced side under `model`, or null when the market has none: fewer than two priced
 * sides, over/under mixed with home/away, a side the line has had now missing (`seen`), a side listed without a price
 * (at or below 1.0: a three-way close {2.5, 1.0, 2.9} is not a two-way line), or a model that cannot price it (MPTO
 * gives an extreme longshot a probability at or below zero).
 */
export function fairPrices(
  prices: Prices | null | undefined,
  model: DevigModel,
  seen?: Iterable<PriceSide>,
): Partial<Record<PriceSide, number>> | null {
  const sides = pricedSides(prices);
  if (isPartial(prices, seen ?? [])) return null;
  const ou = sides.filter((s) => s === 'over' || s === 'under');
  const hda = sides.filter((s) => s !== 'over' && s !== 'under');
  const group = ou.length >= 2 && hda.length === 0 ? ou : hda.length >= 2 && ou.length === 0 ? hda : null;
  if (!group) return null;
  const odds = group.map((s) => prices![s]!);
  if (model === 'MPTO' && !mptoCanPrice(odds)) return null;
  const fair = devig(odds, model).fairOdds;
  const out: Partial<Record<PriceSide, number>> = {};
  group.forEach((s, i) => (out[s] = fair[i]!));
  return out;
}

/** CLV in percent: how much better the price taken is than the fair closing price (+ = beat the close). */
export function clvPct(price: number, fairClose: number): number {
  return (price / fairClose - 1) * 100;
}

/** CLV of a price on a side against a closing market under each model; a model that cannot price the close is null. */
export function clvByModel(price: number, side: PriceSide, closing: Prices): Record<DevigModel, number | null> | null {
  const out = {} as Record<DevigModel, number | null>;
  let any = false;
  for (const m of DEVIG_MODELS) {
    const fair = fairPrices(closing, m)?.[side];
    out[m] = fair === undefined ? null : clvPct(price, fair);
    if (fair !== undefined) any = true;
  }
  return any ? out : null;
}

// ---- pushes in the expected value ----

/**
 * The share of a side's stake a push can give back: all of it on a whole line (Home 0, Home -1, Over 3), half on a
 * quarter line (its half on the whole line next to it: Home -0.25 is half on 0), none on a half line or a moneyline.
 */
export function pushPart(market: string, line: number | null, side: PriceSide): 0 | 0.5 | 1 {
  if (marketKind(market) === 'moneyline') return 0;
  const v = sideLine(market, line, side);
  if (v === null) return 0;
  if (Math.abs(v - Math.round(v)) < 1e-9) return 1;
  return isQuarterLine(v) ? 0.5 : 0;
}

/**
 * The share of a bet's stake that a push is expected to give back, and where it comes from:
 * - `none`: the line cannot push (a half line, a moneyline): the share is 0;
 * - `draw`: a spread whose pushing part is on line 0 (draw no bet, and the -0.25 / +0.25 lines next to it) pushes
 *   exactly when the match draws: the share is that part times the fair draw probability of the same match's
 *   closing three-way moneyline of the same period (`fairDraw`, under the model of the CLV);
 * - `unknown`: the line can push but no close of the match gives the share (Home -1, Over 3, a quarter line next to
 *   them, or line 0 without a three-way moneyline close): the share is null, and stake x CLV would only be an upper
 *   bound of the expected value, never the figure.
 */
export type PushShare = { source: 'none' | 'draw'; share: number } | { source: 'unknown'; share: null };

export function pushShare(
  bet: { market: string; line: number | null; side: PriceSide },
  fairDraw: number | null,
): PushShare {
  const part = pushPart(bet.market, bet.line, bet.side);
  if (part === 0) return { source: 'none', share: 0 };
  if (pushesOnDraw(bet) && fairDraw !== null && isPrice(fairDraw)) return { source: 'draw', share: part / fairDraw };
  return { source: 'unknown', share: null };
}

/** Whether the pushing part of a bet is on spread 0 (draw no bet, -0.25, +0.25): it pushes exactly when the match draws. */
export function pushesOnDraw(bet: { market: string; line: number | null; side: PriceSide }): boolean {
  const part = pushPart(bet.market, bet.line, bet.side);
  if (part === 0 || marketKind(bet.market) !== 'spread') return false;
  const v = sideLine(bet.market, bet.line, bet.side)!;
  // The whole line the pushing part is on: the line itself, or a quarter line's whole neighbour (0 for -0.25 and +0.25).
  return part === 1 ? Math.abs(v) < 1e-9 : Math.abs(Math.abs(v) - 0.25) < 1e-9;
}

/**
 * A bet's expected value in money: stake x (1 - share refunded) x CLV. Only the part of the stake that does not push
 * earns the edge: draw no bet at 2.10 against a fair close of 2.00 with a 27% draw is +3.65 per 100, not +5.00. Null
 * when the push share is not known (see pushShare).
 */
export function expectedValue(stake: number, clv: number, push: PushShare): number | null {
  return push.share === null ? null : (stake * (1 - push.share) * clv) / 100;
}

// ---- the close ----

/**
 * A close whose last price was confirmed this long before kick-off or more is stale: the app was not following the
 * line when the market closed, and the last ten minutes are where a close moves most.
 */
export const STALE_CLOSE_MS = 10 * 60_000;

export type CloseReason = 'started' | 'kickoff' | 'gone' | 'offline';

/** Whether a close is stale: its last price confirmed long before the close, or the line vanished from a snapshot. */
export function isStaleClose(c: { closedAt: number | null; lastAt: number; closeReason: CloseReason | null }): boolean {
  if (c.closedAt === null) return false;
  return c.closeReason === 'gone' || c.closedAt - c.lastAt >= STALE_CLOSE_MS;
}

// ---- drops ----

export interface DropRule {
  /** The fair price falling at least this many percent alerts. */
  dropPct: number;
  /** ... and the fair probability rising at least this many percentage points (a favourite's tick is not a drop). */
  minProbPts: number;
}

/** Relative fall of a fair price, in percent (positive = shortened). */
export const fairFallPct = (from: number, to: number): number => ((from - to) / from) * 100;

/** Rise of the fair probability, in percentage points. */
export const probRisePts = (from: number, to: number): number => (1 / to - 1 / from) * 100;

/** Whether a fair price moving from `from` to `to` is a drop under the rule: shortened by the rule, never a drift. */
export function isDrop(from: number, to: number, rule: DropRule): boolean {
  return (
    rule.dropPct > 0 && fairFallPct(from, to) >= rule.dropPct - 1e-9 && probRisePts(from, to) >= rule.minProbPts - 1e-9
  );
}

export const DEFAULT_DROP_MIN_PROB_PTS = 1;

// ---- words with period labels, and the bet log's totals ----

/** A settled line in words with its period named the way every screen names it. */
export function settledLineText(
  l: SettledLineInput,
  ctx: {
    sport?: string | boolean;
    names?: PeriodNames;
    score?: FinalScore | null;
    team?: 'home' | 'away' | null;
    status?: string;
  } = {},
): string {
  return settledLineWords(l, {
    score: ctx.score ?? null,
    team: ctx.team ?? null,
    status: ctx.status ?? 'ended',
    ...(l.period === 0 ? {} : { period: labelPeriod(ctx.sport ?? false, l.period, ctx.names) }),
  });
}

export interface BetTotalsInput {
  stake: number;
  pnl: number | null;
  clvByModel: Record<DevigModel, number | null> | null;
}

/** The Bets view's totals: stake, settled stake, P/L and ROI (P/L over settled stake), average CLV under `model`. */
export function betTotals(bets: ReadonlyArray<BetTotalsInput>, model: DevigModel): BetTotals {
  let stake = 0;
  let pnl = 0;
  let settledStake = 0;
  let clvSum = 0;
  let clvCount = 0;
  for (const b of bets) {
    stake += b.stake;
    if (b.pnl !== null) {
      pnl += b.pnl;
      settledStake += b.stake;
    }
    const clv = b.clvByModel?.[model];
    if (clv !== null && clv !== undefined) {
      clvSum += clv;
      clvCount++;
    }
  }
  return {
    count: bets.length,
    stake: roundMoney(stake),
    averageClv: clvCount ? clvSum / clvCount : null,
    pnl: roundMoney(pnl),
    settledStake: roundMoney(settledStake),
    roi: settledStake > 0 ? (roundMoney(pnl) / roundMoney(settledStake)) * 100 : null,
  };
}
