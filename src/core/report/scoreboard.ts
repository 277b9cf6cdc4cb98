// The model scoreboard (docs/trading.md, "Scoring the models"): every settled main-market line with a stored close,
// de-vigged under the five models and scored against how it settled. One streaming pass, line by line, in the order
// of their matches; nothing per line is kept, only sums: per group (all, each sport, each market) and model, the sums
// for the mean log loss and Brier score and for their intervals, and per model the reliability bins. Pure: the store
// reads the rows (src/core/store/queries/scoreSums.ts) and src/core/report/run.ts feeds them here in chunks.
//
// The intervals are analytic, computed over matches (a cluster-robust variance: the lines of one match share its
// result, so they are not independent draws), with Student's t on matches − 1 degrees of freedom. No bootstrap: that
// would keep every line's loss and resample it a thousand times, a hundred million steps for 100,000 lines; with the
// tens of matches a comparison needs, the mean's sampling distribution is normal to the four decimals shown.
import { DEVIG_MODELS, type DevigModel } from '../../shared/api';
import type { PriceSide } from '../../shared/domain';
import type {
  ModelComparison,
  ModelReliability,
  ModelScore,
  ModelScoreboard,
  ReliabilityBin,
  ScoreExclusions,
  ScoreGroup,
  ScoreInterval,
  SettledClose,
} from '../../shared/scoreboard';
import { countOf } from '../../shared/formats';
import { formatScore } from '../../shared/scoreboard';
import {
  isPrice,
  isQuarterLine,
  marketKind,
  marketName,
  sameLine,
  settleSide,
  type BetResult,
  type MarketKind,
  type SideSettlement,
} from '../../shared/trading';
import { fairProbabilities, MAX_SIDES, MODEL_COUNT } from './devigKernel';

export type { SettledClose } from '../../shared/scoreboard';

// ---- a line's outcome ----

/** Why a line is not scored: every side pushed, a void, an outcome the app cannot read, no priced side won. */
export type Unscored = 'push' | 'void' | 'unreadable' | 'noWinner';

/**
 * A line's decided weight (1, or 0.5 for a quarter line one half of which pushed), or why it is not scored.
 */
export type LineVerdict = number | Unscored;

const WIN_WEIGHT: Record<BetResult, number> = { win: 1, half_win: 0.5, push: 0, half_loss: 0, loss: 0, void: 0 };
const PUSH_WEIGHT: Record<BetResult, number> = { win: 0, half_win: 0.5, push: 1, half_loss: 0.5, loss: 0, void: 0 };

/**
 * How a side settles on a whole or half line depends on the service's word and the match's status alone
 * (docs/trading.md, "Settling bets"): the trading module's answer for each pair met, asked once. Quarter lines ask it
 * every time (their sides settle from the final score).
 */
const byWord = new Map<string, SideSettlement>();
function settleWord(word: string, status: string): SideSettlement {
  const key = `${status}\u0000${word}`;
  let s = byWord.get(key);
  if (!s) {
    s = settleSide(
      { period: 0, market: 'moneyline', line: null, outcome_home: word, outcome_draw: word, outcome_away: word },
      'home',
      null,
      null,
      status,
    );
    if (byWord.size < 100) byWord.set(key, s);
  }
  return s;
}

const SIDE_WORD: Record<PriceSide, 'outcomeHome' | 'outcomeDraw' | 'outcomeAway'> = {
  home: 'outcomeHome',
  draw: 'outcomeDraw',
  away: 'outcomeAway',
  over: 'outcomeHome',
  under: 'outcomeAway',
};

/**
 * How a line's first `n` priced sides settled, as won shares: a quarter line is two halves of weight 0.5 each (its
 * sides settle from the final score, docs/trading.md), a pushed half drops out, and the line weighs what is left.
 * Writes each side's share of the decided weight into `observed` (1 for the side that won).
 */
export function lineVerdict(
  row: Readonly<SettledClose>,
  sides: readonly PriceSide[],
  n: number,
  observed: Float64Array,
): LineVerdict {
  const quarter = isQuarterLine(row.line);
  let won = 0;
  let pushes = 0;
  for (let i = 0; i < n; i++) {
    const side = sides[i]!;
    const s = quarter
      ? settleSide(
          {
            period: row.period,
            market: row.market,
            line: row.line,
            outcome_home: row.outcomeHome,
            outcome_draw: row.outcomeDraw,
            outcome_away: row.outcomeAway,
          },
          side,
          row.scoreHome !== null && row.scoreAway !== null ? { home: row.scoreHome, away: row.scoreAway } : null,
          row.team === 'home' || row.team === 'away' ? row.team : null,
          row.status,
        )
      : settleWord(row[SIDE_WORD[side]], row.status);
    if (s.kind === 'by_hand') return quarter ? 'unreadable' : 'void';
    // A side the service voided (pushed on a match that did not end): the line was not decided.
    if (s.result === 'void') return 'void';
    observed[i] = WIN_WEIGHT[s.result];
    won += WIN_WEIGHT[s.result];
    pushes += PUSH_WEIGHT[s.result];
  }
  if (won === 0) return pushes === n ? 'push' : 'noWinner';
  // Two sides winning the same stake is no result a line can have: the words are not the service's ordinary ones.
  if (won > 1 + 1e-9) return 'void';
  for (let i = 0; i < n; i++) observed[i] = observed[i]! / won;
  return won;
}

/**
 * The priced sides of a close as fairPrices takes them (home/draw/away or over/under, never a mix, at least two),
 * written into `sides` and `odds`; returns how many, or 0 when the close has no fair price.
 */
function closeSides(row: Readonly<SettledClose>, odds: number[], sides: PriceSide[]): number {
  // A side listed without a price (1.0: decided) makes the close partial, as fairPrices reads it: no fair price.
  if (
    listedUnpriced(row.closeHome) ||
    listedUnpriced(row.closeDraw) ||
    listedUnpriced(row.closeAway) ||
    listedUnpriced(row.closeOver) ||
    listedUnpriced(row.closeUnder)
  )
    return 0;
  let n = 0;
  if (isPrice(row.closeHome)) n = put(sides, odds, n, 'home', row.closeHome);
  if (isPrice(row.closeDraw)) n = put(sides, odds, n, 'draw', row.closeDraw);
  if (isPrice(row.closeAway)) n = put(sides, odds, n, 'away', row.closeAway);
  const overUnder = isPrice(row.closeOver) || isPrice(row.closeUnder);
  if (n > 0) return n >= 2 && !overUnder ? n : 0;
  if (isPrice(row.closeOver)) n = put(sides, odds, n, 'over', row.closeOver);
  if (isPrice(row.closeUnder)) n = put(sides, odds, n, 'under', row.closeUnder);
  return n === 2 ? n : 0;
}

const listedUnpriced = (p: number | null): boolean => p !== null && !isPrice(p);

function put(sides: PriceSide[], odds: number[], n: number, side: PriceSide, price: number): number {
  sides[n] = side;
  odds[n] = price;
  return n + 1;
}

// ---- statistics ----

/** Student's t, 97.5th percentile, for 1..30 degrees of freedom; beyond, a Cornish-Fisher step from the normal. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
export function t975(df: number): number {
  if (df < 1) return NaN;
  if (df <= 30) return T975[Math.round(df) - 1]!;
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

/** Wilson's 95% interval of a proportion from `n` (effective) trials. */
export function wilson(p: number, n: number): { low: number; high: number } {
  const z = 1.959964;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * A mean's (or a paired difference's) 95% interval over `matches` clusters, from Σ over matches of the squared
 * influence of each match on it ((A − mean·B) / ΣB for a mean of sums A over weights B): the cluster-robust variance
 * with the small-sample factor g / (g − 1), and Student's t on g − 1 degrees of freedom. The rule lab
 * (src/core/lab) scores its alerts with it too.
 */
export function clusteredInterval(mean: number, influenceSq: number, matches: number): ScoreInterval {
  if (matches < 2) return { mean, low: null, high: null };
  const half = t975(matches - 1) * Math.sqrt((matches / (matches - 1)) * influenceSq);
  return { mean, low: mean - half, high: mean + half };
}

// ---- the sums ----

const METRICS = 2; // log loss, Brier
const CELLS = MODEL_COUNT * METRICS;
const cell = (model: number, metric: number) => model * METRICS + metric;
const LOG_LOSS = 0;
const BRIER = 1;
/** A fair probability is never 0, but a side priced 1,000 against a heavy overround comes close. */
const P_FLOOR = 1e-15;
const BINS = 10;

/**
 * One group's sums. Per model and metric: Σw·loss (the mean), and per match the sums A = Σw·loss and B = Σw of its
 * lines, gathered as ΣB², ΣA·B and ΣA_a·A_b between every two models (the cluster-robust variance of a mean and of
 * the paired difference of two models' means). A match comes in whole (its A and B, from a MatchSums slot), so the
 * sums over lines are sums over matches' sums: the same figures whether the match was scored just now or stored.
 */
class GroupSums {
  lines = 0;
  weight = 0;
  matches = 0;
  readonly sum = new Float64Array(CELLS);
  // Over matches: ΣB², ΣA·B, and ΣA_x·A_y for every two cells of the same metric (x ≤ y).
  bb = 0;
  readonly ab = new Float64Array(CELLS);
  readonly aa = new Float64Array(CELLS * CELLS);

  /** One match's slot of a MatchSums: its lines, B, then A per cell. */
  addMatch(m: Float64Array, at: number): void {
    const b = m[at + 1]!;
    this.lines += m[at]!;
    this.weight += b;
    this.matches++;
    this.bb += b * b;
    for (let x = 0; x < CELLS; x++) {
      const ax = m[at + 2 + x]!;
      this.sum[x]! += ax;
      this.ab[x]! += ax * b;
      for (let y = x; y < CELLS; y += METRICS) this.aa[x * CELLS + y]! += ax * m[at + 2 + y]!;
    }
  }

  mean(x: number): number | null {
    return this.weight > 0 ? this.sum[x]! / this.weight : null;
  }

  /** Cell x's mean, or cell x minus cell y's (a paired difference), with its 95% interval over matches. */
  interval(x: number, y?: number): ScoreInterval {
    const mx = this.mean(x);
    if (mx === null) return { mean: null, low: null, high: null };
    const m = y === undefined ? mx : mx - this.mean(y)!;
    if (this.matches < 2) return { mean: m, low: null, high: null };
    const aa = (p: number, q: number) => this.aa[Math.min(p, q) * CELLS + Math.max(p, q)]!;
    // Σ over matches of (A_x − A_y − m·B)²: the squares expanded into the sums kept.
    const sq = y === undefined ? aa(x, x) : aa(x, x) + aa(y, y) - 2 * aa(x, y);
    const cross = y === undefined ? this.ab[x]! : this.ab[x]! - this.ab[y]!;
    const ss = Math.max(0, sq - 2 * m * cross + m * m * this.bb);
    return clusteredInterval(m, ss / (this.weight * this.weight), this.matches);
  }
}

// ---- one match's sums ----
//
// What a match adds to the scoreboard, as one Float64Array (the store keeps it per match:
// src/core/store/queries/scoreSums.ts, so a scoring run reads a row per match instead of every line): its exclusions,
// its half pushes, per slot (all lines, then each market kind) the lines, B = Σw and A = Σw·loss per cell, and the
// reliability sums per model and bin.

const MARKET_ORDER: MarketKind[] = ['moneyline', 'spread', 'totals', 'team_total'];
const EXCLUSIONS = [
  'push',
  'void',
  'unreadable',
  'lineMoved',
  'unpriced',
  'noWinner',
] as const satisfies readonly (keyof ScoreExclusions)[];
const HALF_PUSHES = EXCLUSIONS.length;
const SLOTS_AT = HALF_PUSHES + 1;
const SLOT = 2 + CELLS;
const REL = 5; // per model and bin: [sides, Σw, Σw², Σw·p, Σw·won]
const REL_AT = SLOTS_AT + (1 + MARKET_ORDER.length) * SLOT;
/** The length of one match's sums. */
export const MATCH_SUMS_LENGTH = REL_AT + MODEL_COUNT * BINS * REL;
const slotOf = (kind: MarketKind) => SLOTS_AT + (1 + MARKET_ORDER.indexOf(kind)) * SLOT;
const EXCLUSION_AT: Record<Unscored | 'lineMoved' | 'unpriced', number> = {
  push: 0,
  void: 1,
  unreadable: 2,
  lineMoved: 3,
  unpriced: 4,
  noWinner: 5,
};

// Kept, a match's sums are most of them 0 (the market kinds it has no line of, the reliability bins its prices missed):
// the bytes kept are a bitmap of the entries that are not 0, then those entries. Unpacked, they are the same numbers.
const BITMAP_BYTES = Math.ceil(MATCH_SUMS_LENGTH / 64) * 8;

/** A match's sums as the store keeps them. */
export function packSums(m: Float64Array): Uint8Array {
  let n = 0;
  for (let i = 0; i < m.length; i++) if (m[i] !== 0) n++;
  const out = new Uint8Array(BITMAP_BYTES + 8 * n);
  const values = new Float64Array(out.buffer, BITMAP_BYTES, n);
  let k = 0;
  for (let i = 0; i < m.length; i++) {
    if (m[i] === 0) continue;
    out[i >> 3]! |= 1 << (i & 7);
    values[k++] = m[i]!;
  }
  return out;
}

/** Kept bytes back to a match's sums. (A change to their shape comes with a migration that marks every match stale.) */
export function unpackSums(bytes: Uint8Array): Float64Array {
  const m = new Float64Array(MATCH_SUMS_LENGTH);
  let n = 0;
  for (let i = 0; i < MATCH_SUMS_LENGTH; i++) if (bytes[i >> 3]! & (1 << (i & 7))) n++;
  if (bytes.byteLength !== BITMAP_BYTES + 8 * n)
    throw new Error(
      `A match's kept scoreboard sums have ${bytes.byteLength} bytes, not ${BITMAP_BYTES + 8 * n}: the file was written by another version of the app.`,
    );
  // A copy: a blob's bytes need not sit on an 8-byte boundary.
  const values = new Float64Array(
    bytes.buffer.slice(bytes.byteOffset + BITMAP_BYTES, bytes.byteOffset + bytes.byteLength),
  );
  let k = 0;
  for (let i = 0; i < MATCH_SUMS_LENGTH; i++) if (bytes[i >> 3]! & (1 << (i & 7))) m[i] = values[k++]!;
  return m;
}

export interface Scorer {
  /** Scores one settled line with its close. Lines must come grouped by match (ordered by event id). */
  add(row: Readonly<SettledClose>): void;
  /** A whole match's sums (matchSums, or as stored), in event id order with the lines given to add. */
  addMatch(sportId: number, sums: Float64Array): void;
  /** The scoreboard; `sportName` labels sport ids (unknown ones read "Sport 29"). */
  finish(o: {
    filter: ModelScoreboard['filter'];
    sportName?: (id: number) => string | null;
    awaitingSettlement?: number;
    computedMs?: number;
  }): ModelScoreboard;
}

/** Scores one line into a match's sums. The scratch buffers are the caller's, reused line after line. */
function scoreLine(row: Readonly<SettledClose>, kind: MarketKind, m: Float64Array, s: Scratch): void {
  // (A moneyline has no line value to move: sameLine's rule, with the market's kind known already.)
  if (kind !== 'moneyline' && !sameLine(row.closeLine, row.line)) return void m[EXCLUSION_AT.lineMoved]!++;
  const n = closeSides(row, s.odds, s.sides);
  if (n < 2) return void m[EXCLUSION_AT.unpriced]!++;
  const verdict = lineVerdict(row, s.sides, n, s.observed);
  if (verdict === 'push' || verdict === 'void' || verdict === 'unreadable') return void m[EXCLUSION_AT[verdict]]!++;
  if (!fairProbabilities(s.odds, n, s.probs)) return void m[EXCLUSION_AT.unpriced]!++;
  if (verdict === 'noWinner') return void m[EXCLUSION_AT.noWinner]!++;
  const w = verdict;
  if (w < 1) m[HALF_PUSHES]!++;
  const all = SLOTS_AT;
  const market = slotOf(kind);
  m[all]!++;
  m[all + 1]! += w;
  m[market]!++;
  m[market + 1]! += w;
  for (let k = 0; k < MODEL_COUNT; k++) {
    let logLoss = 0;
    let brier = 0;
    for (let i = 0; i < n; i++) {
      const p = s.probs[k * MAX_SIDES + i]!;
      const o = s.observed[i]!;
      if (o > 0) logLoss -= o * Math.log(Math.max(p, P_FLOOR));
      brier += (p - o) * (p - o);
      const bin = Math.min(BINS - 1, Math.floor(p * BINS));
      const at = REL_AT + (k * BINS + bin) * REL;
      m[at]!++;
      m[at + 1]! += w;
      m[at + 2]! += w * w;
      m[at + 3]! += w * p;
      m[at + 4]! += w * o;
    }
    for (const [c, loss] of [
      [cell(k, LOG_LOSS), logLoss],
      [cell(k, BRIER), brier],
    ] as const) {
      m[all + 2 + c]! += w * loss;
      m[market + 2 + c]! += w * loss;
    }
  }
}

interface Scratch {
  odds: number[];
  sides: PriceSide[];
  observed: Float64Array;
  probs: Float64Array;
}
const scratch = (): Scratch => ({
  odds: [0, 0, 0, 0, 0],
  sides: ['home', 'draw', 'away', 'over', 'under'],
  observed: new Float64Array(MAX_SIDES),
  probs: new Float64Array(MODEL_COUNT * MAX_SIDES),
});

const kinds = new Map<string, MarketKind>();
function kindOf(market: string): MarketKind {
  let kind = kinds.get(market);
  if (kind === undefined) {
    kind = marketKind(market);
    if (kinds.size < 100) kinds.set(market, kind);
  }
  return kind;
}

/**
 * One match's sums from its settled lines with their closes (every line given must be of the same match), or null
 * when none of them is of a market the scoreboard scores.
 */
export function matchSums(rows: Iterable<Readonly<SettledClose>>): Float64Array | null {
  const m = new Float64Array(MATCH_SUMS_LENGTH);
  const s = scratch();
  let any = false;
  for (const row of rows) {
    const kind = kindOf(row.market);
    if (kind === 'other') continue;
    any = true;
    scoreLine(row, kind, m, s);
  }
  return any ? m : null;
}

export function createScorer(): Scorer {
  const all = new GroupSums();
  const bySport = new Map<number, GroupSums>();
  const byMarket = new Map<MarketKind, GroupSums>();
  const excluded: ScoreExclusions = { push: 0, void: 0, unreadable: 0, lineMoved: 0, unpriced: 0, noWinner: 0 };
  let halfPushes = 0;
  const rel = new Float64Array(MODEL_COUNT * BINS * REL);

  // The match being scored line by line, and scratch reused for every line.
  const current = new Float64Array(MATCH_SUMS_LENGTH);
  let currentEvent: number | null = null;
  let currentSport = 0;
  const s = scratch();

  const fold = (sportId: number, m: Float64Array) => {
    EXCLUSIONS.forEach((k, i) => (excluded[k] += m[i]!));
    halfPushes += m[HALF_PUSHES]!;
    if (m[SLOTS_AT]! > 0) {
      all.addMatch(m, SLOTS_AT);
      let sport = bySport.get(sportId);
      if (!sport) bySport.set(sportId, (sport = new GroupSums()));
      sport.addMatch(m, SLOTS_AT);
    }
    for (const kind of MARKET_ORDER) {
      const at = slotOf(kind);
      if (m[at]! === 0) continue;
      let market = byMarket.get(kind);
      if (!market) byMarket.set(kind, (market = new GroupSums()));
      market.addMatch(m, at);
    }
    for (let i = 0; i < rel.length; i++) rel[i]! += m[REL_AT + i]!;
  };
  const endMatch = () => {
    if (currentEvent !== null) fold(currentSport, current);
    current.fill(0);
    currentEvent = null;
  };

  return {
    add(row) {
      const kind = kindOf(row.market);
      if (kind === 'other') return;
      if (row.eventId !== currentEvent) {
        endMatch();
        currentEvent = row.eventId;
      }
      currentSport = row.sportId;
      scoreLine(row, kind, current, s);
    },

    addMatch(sportId, sums) {
      endMatch();
      fold(sportId, sums);
    },

    finish(o) {
      endMatch();
      const sportLabel = (id: number) => o.sportName?.(id) ?? `Sport ${id}`;
      const groups = {
        all: group('all', 'All lines', all),
        bySport: [...bySport]
          .map(([id, g]) => group(String(id), sportLabel(id), g))
          .sort((x, y) => y.lines - x.lines || x.label.localeCompare(y.label)),
        byMarket: MARKET_ORDER.filter((k) => byMarket.has(k)).map((k) => group(k, marketName(k), byMarket.get(k)!)),
      };
      const reliability: ModelReliability[] = DEVIG_MODELS.map((model, m) => {
        const bins: ReliabilityBin[] = [];
        for (let b = 0; b < BINS; b++) {
          const at = (m * BINS + b) * REL;
          const [count, sw, sw2, swp, swo] = [rel[at]!, rel[at + 1]!, rel[at + 2]!, rel[at + 3]!, rel[at + 4]!];
          if (count === 0) continue;
          const observedShare = swo / sw;
          const ci = wilson(observedShare, (sw * sw) / sw2);
          bins.push({
            from: b / BINS,
            to: (b + 1) / BINS,
            count,
            weight: sw,
            meanPredicted: swp / sw,
            observed: observedShare,
            ...ci,
          });
        }
        return { model, bins };
      });
      const comparison = compare(all);
      return {
        filter: o.filter,
        ...groups,
        reliability,
        comparison,
        halfPushes,
        excluded: { ...excluded },
        awaitingSettlement: o.awaitingSettlement ?? 0,
        sentence: sentence(groups.all, comparison),
        intervalMethod:
          "95% intervals over matches: the lines of one match share its result, so the spread of per-match sums sets the interval (a cluster-robust variance, Student's t on matches − 1 degrees of freedom). The lead is significant when the paired, line-by-line difference between the leader and the runner-up has an interval that excludes 0.",
        computedMs: o.computedMs ?? 0,
      };
    },
  };
}

function group(key: string, label: string, g: GroupSums): ScoreGroup {
  const models: ModelScore[] = DEVIG_MODELS.map((model, m) => ({
    model,
    logLoss: g.interval(cell(m, LOG_LOSS)),
    brier: g.interval(cell(m, BRIER)),
  }));
  return {
    key,
    label,
    lines: g.lines,
    matches: g.matches,
    weight: g.weight,
    models,
    leader: g.lines ? ranked(g, LOG_LOSS)[0]! : null,
  };
}

/** Models from the lowest mean loss to the highest (DEVIG_MODELS order on a tie). */
function ranked(g: GroupSums, metric: number): DevigModel[] {
  return DEVIG_MODELS.map((model, m) => ({ model, v: g.mean(cell(m, metric)) ?? Infinity, m }))
    .sort((a, b) => a.v - b.v || a.m - b.m)
    .map((x) => x.model);
}

/** Two models whose mean losses agree to this are the same model on these lines (SHIN and MPTO on two-way lines). */
const SAME = 1e-9;

function compare(g: GroupSums): ModelComparison | null {
  if (g.matches < 2) return null;
  const order = ranked(g, LOG_LOSS);
  const index = (model: DevigModel) => DEVIG_MODELS.indexOf(model);
  const best = order[0]!;
  const bestMean = g.mean(cell(index(best), LOG_LOSS))!;
  const tiedWith = order.slice(1).filter((m) => Math.abs(g.mean(cell(index(m), LOG_LOSS))! - bestMean) < SAME);
  const runnerUp = order[1 + tiedWith.length];
  if (!runnerUp) return null;
  const difference = g.interval(cell(index(runnerUp), LOG_LOSS), cell(index(best), LOG_LOSS));
  const brierFirst = ranked(g, BRIER)[0]!;
  return {
    metric: 'logLoss',
    best,
    tiedWith,
    runnerUp,
    difference,
    significant: difference.low !== null && difference.low > 0,
    brierAgrees: brierFirst === best || tiedWith.includes(brierFirst),
  };
}

function sentence(all: ScoreGroup, c: ModelComparison | null): string {
  if (all.lines === 0)
    return 'No settled line with a stored close yet: closes are taken for watched matches at kick-off, and a line is scored once its match settles.';
  const behind = `${countOf(all.lines, 'line')} from ${countOf(all.matches, 'match', 'matches')}`;
  if (!c) return `Too few settled lines to compare the models: ${behind}.`;
  const score = (m: DevigModel) => formatScore(all.models.find((x) => x.model === m)!.logLoss.mean);
  const leaders = [c.best, ...c.tiedWith];
  const who =
    leaders.length === 1
      ? `${c.best} calls`
      : `${leaders.slice(0, -1).join(', ')} and ${leaders.at(-1)} (the same prices on these lines) call`;
  const d = c.difference;
  const range = `95% interval ${formatDifference(d.low)} to ${formatDifference(d.high)}`;
  const lead = c.significant
    ? `The lead is significant: ${c.runnerUp}'s log loss is higher by ${formatDifference(d.mean)} a line (${range}).`
    : `The lead is not significant: the difference, ${formatDifference(d.mean)} a line (${range}), could be 0; more settled lines will tell them apart.`;
  const brier = c.brierAgrees ? 'The Brier score ranks it first too.' : `The Brier score ranks ${ranked0(all)} first.`;
  return `${who} this book's closes best: log loss ${score(c.best)} against ${score(c.runnerUp)} for ${c.runnerUp}, the runner-up, over ${behind}. ${lead} ${brier}`;
}

/** A difference of two scores: four decimals, or two significant digits when it is smaller than that shows. */
export function formatDifference(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '—';
  return Math.abs(v) >= 0.001 || v === 0 ? v.toFixed(4) : v.toPrecision(2);
}

/** The model with the lowest mean Brier score in a finished group. */
function ranked0(g: ScoreGroup): DevigModel {
  return [...g.models].sort((a, b) => (a.brier.mean ?? Infinity) - (b.brier.mean ?? Infinity))[0]!.model;
}
