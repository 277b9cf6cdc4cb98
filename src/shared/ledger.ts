// The trader's ledger in figures (the Bets view's Report tab; docs/trading.md, "The ledger report"): cumulative P/L
// against cumulative expected value (stake x (1 - push share) x CLV), the CLV distribution, and P/L, ROI, CLV and beat-the-close rate by
// sport, league, market, side, odds band and de-vig model; its two CSVs. Pure: the core feeds it the bet log
// (src/core/handlers/bets.ts, `bets:report`), the page and the tests read what it returns. Settlement, P/L, CLV and
// rounding are the trading module's (betPnl, clvByModel, betTotals, roundMoney, pushShare, expectedValue); the one rule
// added here is which CLVs count: the real close of the bet's own line, and nothing else.
import type { DevigModel, Prices } from './api';
import { DEVIG_MODELS, formatServiceTime } from './api';
import { csvRow } from './csv';
import type { BetView, PriceSide } from './domain';
import { oddsCell, formatOdds, type OddsFormat } from './formats';
import {
  betTotals,
  expectedValue,
  fairPrices,
  marketKind,
  marketName,
  pushShare,
  roundMoney,
  sameLine,
  sideName,
  type PushShare,
} from './trading';

/** One bet as the report reads it: the bet log's view of it, its match's sport and league, and its line's close. */
export interface LedgerBet
  extends
    Pick<
      BetView,
      'id' | 'placedAt' | 'price' | 'stake' | 'side' | 'market' | 'line' | 'pnl' | 'clvByModel' | 'closeStale'
    >,
    Partial<Pick<BetView, 'resultBy' | 'result'>> {
  sportId: number | null;
  /** The sport's name, or null when the app never learnt it. */
  sport: string | null;
  leagueId: number | null;
  league: string | null;
  /** When the bet's line closed (kick-off), null while it is open. */
  closedAt: number | null;
  /** The line value the line closed at (a handicap can move under the same id). */
  closeLine: number | null;
  /**
   * The same match's closing three-way moneyline of the bet's period (a real close: not stale), where the bet's line
   * can push on a draw (spread 0 and the quarter lines next to it); else null. Its fair draw is the push share.
   */
  drawClose: Prices | null;
}

/** Where a counted bet's push share comes from (trading.ts, pushShare): no push possible, the fair draw, not known. */
export const PUSH_SOURCES = ['none', 'draw', 'unknown'] as const;
export type PushSource = (typeof PUSH_SOURCES)[number];

/** The push share of a bet under `model`: its line's, from the fair draw of its match's closing moneyline. */
export function pushShareOf(b: LedgerBet, model: DevigModel): PushShare {
  const fairDraw = b.drawClose ? (fairPrices(b.drawClose, model)?.draw ?? null) : null;
  return pushShare(b, fairDraw);
}

/** A bet's expected value under `model` given its counted CLV: stake x (1 - push share) x CLV; null when the share is not known. */
export function evOf(b: LedgerBet, clv: number, model: DevigModel): number | null {
  return expectedValue(b.stake, clv, pushShareOf(b, model));
}

/**
 * Whether a bet's CLV counts, and if not why. Only `counted` CLVs go into the averages, the beat-the-close rate, the
 * expected value and the histogram; every bet, whatever its state, counts in the P/L, stake and ROI.
 */
export const CLV_STATES = [
  'counted',
  'stale',
  'lineMoved',
  'afterClose',
  'notClosed',
  'noCloseRecorded',
  'noClosePrice',
  'unpriced',
  'void',
] as const;
export type ClvState = (typeof CLV_STATES)[number];

/** The states in words, for the screen and the CSV ("3 bets: stale close"). */
export const CLV_STATE_WORDS: Record<ClvState, string> = {
  counted: 'CLV counted',
  stale: 'stale close (not followed to kick-off, or the line left the book)',
  lineMoved: 'the line moved under its id before the close',
  afterClose: 'placed after the close',
  notClosed: 'the line has not closed yet',
  noCloseRecorded: 'settled with no close recorded (the app was not following the line at kick-off)',
  noClosePrice: 'no closing price for the side',
  unpriced: 'the model cannot price the close',
  void: 'void (the service voided it on a match that did not end): never at stake',
};

/** A bet's CLV state under `model` (docs/trading.md, "The close and CLV"). */
export function clvState(b: LedgerBet, model: DevigModel): ClvState {
  // A void stake came back whole: it neither beat nor lost to the close, and expected nothing (as the rule lab scores
  // an alert on a voided side).
  if (b.result === 'void') return 'void';
  if (b.clvByModel) {
    if (b.closeStale) return 'stale';
    return b.clvByModel[model] === null ? 'unpriced' : 'counted';
  }
  // Settled from the service's result, the match is over and its line closed: with no close kept, none was recorded
  // (not "not closed yet"). One settled by hand may be of a match still to play.
  if (b.closedAt === null) return b.resultBy === 'service' || b.resultBy === 'score' ? 'noCloseRecorded' : 'notClosed';
  if (b.placedAt > b.closedAt) return 'afterClose';
  if (!sameLine(b.closeLine, b.line, b.market)) return 'lineMoved';
  return 'noClosePrice';
}

/** The CLV (percent) that counts for a bet under `model`, or null (see clvState). */
export function countedClv(b: LedgerBet, model: DevigModel): number | null {
  return clvState(b, model) === 'counted' ? b.clvByModel![model]! : null;
}

/** Where a push share came from, in words (the chart's note and the CSV). */
export const PUSH_SOURCE_WORDS: Record<PushSource, string> = {
  none: 'a line that cannot push (stake x CLV)',
  draw: "push share from the match's closing three-way moneyline (its fair draw)",
  unknown: 'a line that can push with no close to give the push share: left out of the expected value',
};

// ---- odds bands ----

/** Bands of the decimal price taken, [from, to); the last has no upper end. */
export const ODDS_BANDS: ReadonlyArray<{ from: number; to: number | null }> = [
  { from: 1, to: 1.5 },
  { from: 1.5, to: 2 },
  { from: 2, to: 2.5 },
  { from: 2.5, to: 3.5 },
  { from: 3.5, to: 5 },
  { from: 5, to: 10 },
  { from: 10, to: null },
];

export const oddsBandOf = (price: number): number => {
  const i = ODDS_BANDS.findIndex((b) => b.to === null || price < b.to);
  return i < 0 ? ODDS_BANDS.length - 1 : i;
};

/** A band in the trader's odds format, in words that read the same in every format: "shorter than 1.500", "2.000 to 2.500", "10.000 or longer". */
export function oddsBandLabel(band: { from: number; to: number | null }, format: OddsFormat): string {
  if (band.from <= 1 && band.to !== null) return `shorter than ${formatOdds(band.to, format)}`;
  if (band.to === null) return `${formatOdds(band.from, format)} or longer`;
  return `${formatOdds(band.from, format)} to ${formatOdds(band.to, format)}`;
}

// ---- groups ----

export const LEDGER_DIMENSIONS = ['sport', 'league', 'market', 'side', 'oddsBand', 'model'] as const;
export type LedgerDimension = (typeof LEDGER_DIMENSIONS)[number];
export const LEDGER_DIMENSION_NAMES: Record<LedgerDimension, string> = {
  sport: 'Sport',
  league: 'League',
  market: 'Market',
  side: 'Side',
  oddsBand: 'Odds band',
  model: 'Model',
};

/** One group's figures. Money is rounded the one way (roundMoney); percentages are not rounded. */
export interface LedgerGroup {
  key: string;
  label: string;
  bets: number;
  /** Bets with a result (by the service, the score or by hand). */
  settled: number;
  stake: number;
  settledStake: number;
  pnl: number;
  /** P/L over settled stake (percent); null with nothing settled. */
  roi: number | null;
  /** The model the CLV figures are under: the trader's, or the row's own in the model breakdown. */
  model: DevigModel;
  /** Bets whose CLV counts. */
  clvBets: number;
  /** Mean CLV (percent) of those bets; null without any. */
  averageClv: number | null;
  /** Bets whose CLV is above zero. */
  beatClose: number;
  /** beatClose over clvBets (percent); null without any. */
  beatRate: number | null;
  /**
   * Expected value: the sum of stake x (1 - push share) x CLV over the bets whose CLV counts and whose push share is
   * known, in money.
   */
  ev: number;
  /** Bets whose CLV counts but whose line can push with no close to give the share: left out of `ev` (never stake x CLV). */
  evUnknown: number;
  /** The odds band's decimal bounds (odds-band rows only). */
  band?: { from: number; to: number | null };
}

export interface LedgerBreakdown {
  dimension: LedgerDimension;
  groups: LedgerGroup[];
}

/**
 * Cumulative P/L and cumulative expected value over the settled bets, in the order they were placed (one point a
 * bet). A settled bet whose CLV does not count adds its P/L and nothing to the expected value.
 */
export interface LedgerSeries {
  betId: number[];
  placedAt: number[];
  pnl: number[];
  /** The bet's counted CLV (percent), or null. */
  clv: Array<number | null>;
  /** The bet's stake x (1 - push share) x CLV, or null (no counted CLV, or a push share not known). */
  ev: Array<number | null>;
  /** Where the bet's push share came from and what it is (null: no counted CLV): the CSV names it per bet. */
  push: Array<PushShare | null>;
  cumPnl: number[];
  cumEv: number[];
}

/** The counted CLVs in bins `width` points wide (edges at multiples of it); beyond ±HISTOGRAM_LIMIT in the tails. */
export interface ClvHistogram {
  width: number;
  bins: Array<{ from: number; to: number; count: number }>;
  /** CLVs below -HISTOGRAM_LIMIT and above +HISTOGRAM_LIMIT, not in any bin. */
  below: number;
  above: number;
}

export interface LedgerReport {
  /** The trader's de-vig model: every CLV figure but the model breakdown's is under it. */
  model: DevigModel;
  /** Bets placed in [from, to) (epoch ms), as asked; null for no bound. */
  from: number | null;
  to: number | null;
  total: LedgerGroup;
  /** How many bets are in each CLV state under `model`: only `counted` ones carry a CLV. */
  clvStates: Record<ClvState, number>;
  /** Of the counted bets, where each one's push share came from under `model` (the chart names it). */
  pushSources: Record<PushSource, number>;
  breakdowns: LedgerBreakdown[];
  series: LedgerSeries;
  histogram: ClvHistogram;
  /** How long the core took, bets read included (ms). */
  computedMs: number;
}

class Sums {
  bets = 0;
  settled = 0;
  stake = 0;
  settledStake = 0;
  pnl = 0;
  clvBets = 0;
  clvSum = 0;
  beat = 0;
  ev = 0;
  evUnknown = 0;
  constructor(readonly label: string) {}

  add(b: LedgerBet, clv: number | null, ev: number | null): void {
    this.bets++;
    this.stake += b.stake;
    if (b.pnl !== null) {
      this.settled++;
      this.settledStake += b.stake;
      this.pnl += b.pnl;
    }
    if (clv !== null) {
      this.clvBets++;
      this.clvSum += clv;
      if (clv > 0) this.beat++;
      if (ev === null) this.evUnknown++;
      else this.ev += ev;
    }
  }

  group(key: string, model: DevigModel): LedgerGroup {
    const pnl = roundMoney(this.pnl);
    const settledStake = roundMoney(this.settledStake);
    return {
      key,
      label: this.label,
      bets: this.bets,
      settled: this.settled,
      stake: roundMoney(this.stake),
      settledStake,
      pnl,
      roi: settledStake > 0 ? (pnl / settledStake) * 100 : null,
      model,
      clvBets: this.clvBets,
      averageClv: this.clvBets ? this.clvSum / this.clvBets : null,
      beatClose: this.beat,
      beatRate: this.clvBets ? (this.beat / this.clvBets) * 100 : null,
      ev: roundMoney(this.ev),
      evUnknown: this.evUnknown,
    };
  }
}

export const HISTOGRAM_LIMIT = 50;
const BIN_WIDTHS = [0.5, 1, 2, 5, 10];
const MAX_BINS = 40;

/** The counted CLVs in bins of the narrowest width (0.5, 1, 2, 5 or 10 points) that spans them in at most 40 bins. */
export function clvHistogram(clvs: readonly number[]): ClvHistogram {
  const inside = clvs.filter((c) => c >= -HISTOGRAM_LIMIT && c <= HISTOGRAM_LIMIT);
  const below = clvs.filter((c) => c < -HISTOGRAM_LIMIT).length;
  const above = clvs.filter((c) => c > HISTOGRAM_LIMIT).length;
  if (inside.length === 0) return { width: 1, bins: [], below, above };
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of inside) {
    lo = Math.min(lo, c);
    hi = Math.max(hi, c);
  }
  const width =
    BIN_WIDTHS.find((w) => Math.floor(hi / w) - Math.floor(lo / w) + 1 <= MAX_BINS) ??
    BIN_WIDTHS[BIN_WIDTHS.length - 1]!;
  const first = Math.floor(lo / width);
  const counts = new Array<number>(Math.floor(hi / width) - first + 1).fill(0);
  for (const c of inside) counts[Math.floor(c / width) - first]!++;
  return {
    width,
    bins: counts.map((count, i) => ({ from: (first + i) * width, to: (first + i + 1) * width, count })),
    below,
    above,
  };
}

const SIDE_ORDER: readonly PriceSide[] = ['home', 'draw', 'away', 'over', 'under'];
const MARKET_ORDER = ['moneyline', 'spread', 'totals', 'team_total', 'other'];
const byBets = (a: LedgerGroup, b: LedgerGroup) => b.bets - a.bets || a.label.localeCompare(b.label);

/**
 * The report over `bets` (any order) under the trader's `model`. The total's stake, P/L and ROI are the Bets view's
 * totals for the same bets (betTotals); its CLV counts only real closes of the bet's own line.
 */
export function ledgerReport(
  bets: readonly LedgerBet[],
  model: DevigModel,
  o: { from?: number | null; to?: number | null; computedMs?: number } = {},
): LedgerReport {
  const clvStates = Object.fromEntries(CLV_STATES.map((s) => [s, 0])) as Record<ClvState, number>;
  const pushSources = Object.fromEntries(PUSH_SOURCES.map((s) => [s, 0])) as Record<PushSource, number>;
  const all = new Sums('All bets');
  const dims: Record<Exclude<LedgerDimension, 'model'>, Map<string, Sums>> = {
    sport: new Map(),
    league: new Map(),
    market: new Map(),
    side: new Map(),
    oddsBand: new Map(),
  };
  const models = new Map(DEVIG_MODELS.map((m) => [m as string, new Sums(m)]));
  const into = (dim: keyof typeof dims, key: string, label: string) => {
    let s = dims[dim].get(key);
    if (!s) dims[dim].set(key, (s = new Sums(label)));
    return s;
  };
  const counted: number[] = [];
  const settled: Array<{ b: LedgerBet; clv: number | null; ev: number | null; push: PushShare | null }> = [];
  for (const b of bets) {
    const state = clvState(b, model);
    clvStates[state]++;
    const clv = state === 'counted' ? b.clvByModel![model]! : null;
    let ev: number | null = null;
    let push: PushShare | null = null;
    if (clv !== null) {
      counted.push(clv);
      push = pushShareOf(b, model);
      pushSources[push.source]++;
      ev = expectedValue(b.stake, clv, push);
    }
    all.add(b, clv, ev);
    into(
      'sport',
      b.sportId === null ? 'unknown' : String(b.sportId),
      b.sport ?? (b.sportId === null ? 'Unknown sport' : `Sport ${b.sportId}`),
    ).add(b, clv, ev);
    const leagueKey = b.leagueId !== null ? String(b.leagueId) : b.league ? `name:${b.league}` : 'unknown';
    into('league', leagueKey, b.league ?? (b.leagueId === null ? 'Unknown league' : `League ${b.leagueId}`)).add(
      b,
      clv,
      ev,
    );
    const kind = marketKind(b.market);
    into('market', kind === 'other' ? `other:${b.market}` : kind, marketName(b.market)).add(b, clv, ev);
    into('side', b.side, sideName(b.side)).add(b, clv, ev);
    const band = oddsBandOf(b.price);
    into('oddsBand', String(band), oddsBandLabel(ODDS_BANDS[band]!, 'decimal')).add(b, clv, ev);
    for (const m of DEVIG_MODELS) {
      const c = countedClv(b, m);
      models.get(m)!.add(b, c, c === null ? null : evOf(b, c, m));
    }
    if (b.pnl !== null) settled.push({ b, clv, ev, push });
  }

  const groups = (dim: keyof typeof dims) => [...dims[dim]].map(([k, s]) => s.group(k, model));
  const marketRank = (g: LedgerGroup) => MARKET_ORDER.indexOf(g.key.startsWith('other:') ? 'other' : g.key);
  const breakdowns: LedgerBreakdown[] = [
    { dimension: 'sport', groups: groups('sport').sort(byBets) },
    { dimension: 'league', groups: groups('league').sort(byBets) },
    {
      dimension: 'market',
      groups: groups('market').sort((a, b) => marketRank(a) - marketRank(b) || a.label.localeCompare(b.label)),
    },
    {
      dimension: 'side',
      groups: groups('side').sort(
        (a, b) => SIDE_ORDER.indexOf(a.key as PriceSide) - SIDE_ORDER.indexOf(b.key as PriceSide),
      ),
    },
    {
      dimension: 'oddsBand',
      groups: groups('oddsBand')
        .sort((a, b) => Number(a.key) - Number(b.key))
        .map((g) => ({ ...g, band: { ...ODDS_BANDS[Number(g.key)]! } })),
    },
    { dimension: 'model', groups: DEVIG_MODELS.map((m) => models.get(m)!.group(m, m)) },
  ];

  settled.sort((x, y) => x.b.placedAt - y.b.placedAt || x.b.id - y.b.id);
  const series: LedgerSeries = { betId: [], placedAt: [], pnl: [], clv: [], ev: [], push: [], cumPnl: [], cumEv: [] };
  let cumPnl = 0;
  let cumEv = 0;
  for (const { b, clv, ev, push } of settled) {
    cumPnl += b.pnl!;
    cumEv += ev ?? 0;
    series.betId.push(b.id);
    series.placedAt.push(b.placedAt);
    series.pnl.push(b.pnl!);
    series.clv.push(clv);
    series.ev.push(ev === null ? null : roundMoney(ev));
    series.push.push(push);
    series.cumPnl.push(roundMoney(cumPnl));
    series.cumEv.push(roundMoney(cumEv));
  }

  // The total's stake, P/L and ROI are the Bets view's own (one rounding, one rule).
  const t = betTotals(bets, model);
  const total = { ...all.group('all', model), stake: t.stake, settledStake: t.settledStake, pnl: t.pnl, roi: t.roi };
  return {
    model,
    from: o.from ?? null,
    to: o.to ?? null,
    total,
    clvStates,
    pushSources,
    breakdowns,
    series,
    histogram: clvHistogram(counted),
    computedMs: o.computedMs ?? 0,
  };
}

// ---- CSV ----

export const LEDGER_CSV_HEADER = [
  'dimension',
  'group',
  'bets',
  'settled',
  'stake',
  'settled_stake',
  'pnl',
  'roi_pct',
  'clv_model',
  'clv_bets',
  'avg_clv_pct',
  'beat_close',
  'beat_close_pct',
  'ev',
  'odds_from',
  'odds_to',
  'odds_format',
  'odds_from_in_format',
  'odds_to_in_format',
] as const;

/**
 * The table of breakdowns as CSV: the total, every group of every dimension, then one row per CLV state saying how
 * many bets carry no counted CLV and why (dimension `clv_not_counted`). Odds bands keep decimal bounds and add them
 * in the trader's format. Dates of the range are not in the file's rows: the file is named for them.
 */
export function ledgerCsv(r: LedgerReport, format: OddsFormat): string {
  const row = (dimension: string, g: LedgerGroup, label = g.label) =>
    csvRow([
      dimension,
      label,
      g.bets,
      g.settled,
      g.stake,
      g.settledStake,
      g.pnl,
      pct(g.roi),
      g.model,
      g.clvBets,
      pct(g.averageClv),
      g.beatClose,
      pct(g.beatRate),
      g.ev,
      g.band?.from,
      g.band?.to,
      g.band ? format : null,
      g.band ? oddsCell(g.band.from, format) : null,
      g.band?.to ? oddsCell(g.band.to, format) : null,
    ]);
  let out = csvRow(LEDGER_CSV_HEADER) + row('all', r.total);
  for (const d of r.breakdowns)
    for (const g of d.groups)
      out += row(d.dimension, g, d.dimension === 'oddsBand' && g.band ? oddsBandLabel(g.band, format) : g.label);
  for (const s of CLV_STATES)
    if (s !== 'counted' && r.clvStates[s] > 0) out += csvRow(['clv_not_counted', CLV_STATE_WORDS[s], r.clvStates[s]]);
  // Bets on lines that can push: where their push share came from (a line that cannot push needs no row).
  for (const s of PUSH_SOURCES)
    if (s !== 'none' && r.pushSources[s] > 0) out += csvRow(['ev_push_share', PUSH_SOURCE_WORDS[s], r.pushSources[s]]);
  return out;
}

export const LEDGER_SERIES_CSV_HEADER = [
  'bet_id',
  'placed_at_utc',
  'pnl',
  'cum_pnl',
  'clv_model',
  'clv_pct',
  'ev',
  'cum_ev',
  'ev_push_source',
  'ev_push_share',
] as const;

/**
 * The chart's series as CSV: one row per settled bet, in the order placed, with the running sums, and where each
 * counted bet's push share came from (`none`: a line that cannot push; `draw`: the match's closing moneyline's fair
 * draw; `unknown`: not known, so the bet has no expected value) with the share.
 */
export function ledgerSeriesCsv(r: LedgerReport): string {
  const s = r.series;
  let out = csvRow(LEDGER_SERIES_CSV_HEADER);
  for (let i = 0; i < s.betId.length; i++)
    out += csvRow([
      s.betId[i],
      formatServiceTime(s.placedAt[i]!),
      s.pnl[i],
      s.cumPnl[i],
      r.model,
      pct(s.clv[i] ?? null),
      s.ev[i],
      s.cumEv[i],
      s.push[i]?.source ?? null,
      pct(s.push[i]?.share ?? null),
    ]);
  return out;
}

/** Percentages in files: four decimals, as the bets CSV's CLVs. */
const pct = (x: number | null): number | null => (x === null ? null : Math.round(x * 10_000) / 10_000);
