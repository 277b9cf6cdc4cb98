// The simulated book: events and their lifecycle (pre-match -> live -> ended -> settled, or removed), main-market
// odds as random walks around fair prices, specials and league futures with max_win ladders and their history,
// settlements and per-period results, and the per-event stream log. Deterministic: all randomness comes from the
// seed, all time from `advanceTo`; nothing here reads the real clock.
import type {
  DevigModel,
  EventOdds,
  Fixture,
  Market,
  PeriodResult,
  Prices,
  SettledEvent,
  SettlementLine,
  SpecialFixture,
  SpecialOpening,
  OutrightMarket,
  Outcome,
  MarketKind,
} from '../shared/api';
import { DEVIG_MODELS, LIVE_STATUS, formatServiceTime } from '../shared/api';
import { tennisGamePeriod } from '../shared/periods';
import { devig } from '../shared/devig';
import { Prng } from './prng';
import {
  DECIDED,
  fromNormalSides,
  fromSides,
  lineChances,
  resultChances,
  noDraw,
  orderLadder,
  poissonFrom,
  setsToPlay,
  type Rung,
  type ScoreDists,
} from './ladders';
import {
  CITY_ENDS,
  CITY_PARTS,
  CLUB_SUFFIX,
  FIRST_NAMES,
  INDIVIDUAL_SPORTS,
  LAST_NAMES,
  MAX_WIN_LADDER,
  SPECIAL_TEMPLATES,
  SPORTS,
  type SpecialTemplate,
  type SportDef,
} from './catalog';

/** The world moves in whole steps of this many simulated ms, so any split of the same advance gives the same world. */
export const STEP_MS = 5_000;
/** Settlements are published in batches at multiples of this: several events share one settled_at second. */
const SETTLE_BATCH_MS = 10 * 60_000;
const STREAM_BUFFER = 400;
const SETTLED_CAP = 5_000;
/** Busy-day settlements that never sat in the book get ids from here, far from the book's and the futures' ids. */
const BULK_EVENT_BASE = 20_000_001;
const SPECIAL_TICK_CAP = 200;
const FUTURES_EVENT_BASE = 9_000_000;

export interface WorldOptions {
  seed: number;
  startMs: number;
  /** Events kept in the book; new ones are created as others leave. */
  events: number;
  /** The world starts running this long before `startMs`, so it opens with games under way and settlements. */
  historyMs: number;
  /**
   * How many times faster matches run than real ones (1 = real durations): kick-off lead times, match lengths,
   * settlement batches and price ticks all shrink by it. The clock itself is untouched, so nothing is ever dated in
   * the future; demo mode compresses matches this way on the wall clock. Must divide the settlement batch (10 min)
   * into whole steps.
   */
  pace?: number;
  /** Settlements kept (oldest dropped first); default 5,000. */
  settledCap?: number;
  /** The busy day: a flood of settlements beside the book, and results published late. Off by default. */
  busy?: BusyWorldOptions;
  /**
   * The first event id (default 1,600,001). Demo mode derives it from the wall clock (demo.ts), so a restarted demo
   * never gives an id a trader's profile remembers to another match.
   */
  firstEventId?: number;
  /**
   * Every match already under way when the world opens (kick-off before `startMs`) is offered in play, so what a
   * first screen picks as live is priced (demo mode). Off by default: 15% of matches are not offered live.
   */
  openingMatchesLive?: boolean;
}

export interface BusyWorldOptions {
  /** Simulated ms between a settlement and its /api/results rows. */
  resultsDelayMs: number;
}

/** A set-sport match's per-period results, kept compact and built on request (a busy day settles thousands). */
interface ResultsRecord {
  eventId: number;
  sets: SetRecord[];
  /** On the period 0 row of a void match (abandoned, cancelled). */
  cancellationReason: string | null;
  timestamp: string;
  /** The settlement_id of the first row; the rows take consecutive ids. */
  firstSettlementId: number;
  publishAtMs: number;
}

export interface StreamMessage {
  id: number;
  event: 'odds' | 'score' | 'end';
  /** One line of JSON, serialised once so every subscriber and every replay sends the same bytes. */
  data: string;
}

export interface MaxWinChange {
  event_id: number;
  special_id: number;
  contestant_id: number;
  from: number;
  to: number;
  at: string;
}

interface League {
  id: number;
  name: string;
  sport: SportDef;
  teams: string[];
}

type PriceKey = keyof Prices;

/**
 * A market the world leaves alone for a while: its own motion skips it until `untilMs`, then it is released.
 * `jump`: re-offered at a price moved away from where it was (a pre-match suspension); `side`: one side, left out of
 * the prices meanwhile, comes back at `price` beside the others as they stand; `keep`: simply moves on again;
 * `prices`: re-offered at exactly these (a test's script).
 */
interface Hold {
  untilMs: number;
  release:
    | { kind: 'jump' }
    | { kind: 'side'; side: PriceKey; price: number }
    | { kind: 'keep' }
    | { kind: 'prices'; prices: Prices };
}

/** The trading situations the world plays now and then on its own (see CONTROL.md, "Scenarios"). */
export type ScenarioKind = 'suspension' | 'draw_gap' | 'decided_price' | 'abandoned' | 'cancelled';

/** One planned occurrence, as tests read it through `sim.truth.scenarios()`. */
export interface Scenario {
  kind: ScenarioKind;
  event_id: number;
  /** The line it plays on; null for the whole match (abandoned, cancelled). */
  line_id: number | null;
  /** Simulated ms when it begins (the line goes offline, the side goes missing, the match stops). */
  at: number;
  /** Simulated ms when it is over (the line re-offered, the side back, the decided price left); null: no end of its own. */
  until: number | null;
  /** planned: still ahead; played: it happened; skipped: it could not happen (the line was busy, the start moved). */
  state: 'planned' | 'played' | 'skipped';
}

/** Settlement words a test puts on one line in place of the world's (words the client may not know). */
export interface OutcomeWords {
  home?: string;
  draw?: string;
  away?: string;
}

/**
 * How the book reads a match, for every line but the moneyline (./ladders.ts): its strength (the home side's share),
 * a lean towards one side and a tempo (more or fewer goals, points, sets than usual), each a mean-reverting walk
 * around a base that a re-offer after a suspension moves.
 */
interface PriceModel {
  strength: number;
  lean: number;
  leanBase: number;
  tempo: number;
  tempoBase: number;
}

interface MarketState {
  lineId: number;
  kind: MarketKind;
  side: 'home' | 'away' | null;
  line: number | null;
  keys: PriceKey[];
  /** Log-weights of the outcomes; fair probabilities are their softmax. */
  weights: number[];
  base: number[];
  margin: number;
  prices: Prices | null;
  maxWin: number;
  updatedAtMs: number;
  /** Extra lines (quarter lines) move on the event's scenario dice, so the main five keep their seeded course. */
  extra: boolean;
  hold: Hold | null;
  /**
   * A test's script set this line's prices (setMarket): the ladder's re-pricing leaves it alone until the line's own
   * dice move it (as a scripted price always lasted), so a scripted steam is not undone at the next tick.
   */
  scripted?: boolean;
}

interface ScoreStep {
  atMs: number;
  home: number;
  away: number;
}

interface SetRecord {
  homeWon: boolean;
  /** Tennis only: game winners in order, true = home. */
  games: boolean[];
}

type Phase = 'pre' | 'live' | 'ended' | 'settled' | 'removed';

interface SimEvent {
  id: number;
  sport: SportDef;
  league: League;
  home: string;
  away: string;
  startsMs: number;
  offeredLive: boolean;
  phase: Phase;
  removeAtMs: number | null;
  endMs: number;
  settleMs: number;
  timeline: ScoreStep[];
  timelineIdx: number;
  sets: SetRecord[];
  score: { home: number; away: number } | null;
  markets: MarketState[];
  nextTickMs: number;
  suspendedUntilMs: number;
  rng: Prng;
  /**
   * The scenario dice (best of 7, quarter lines, suspensions, abandonment...): seeded from the world's seed and the
   * event id, apart from `rng`, so an event without a scenario plays exactly as before scenarios existed.
   */
  xrng: Prng;
  /** Sets needed to play at most (set sports): the sport's own, or 7 for some table tennis matches. */
  bestOf: number;
  scenarios: Scenario[];
  /** A void match (abandoned, cancelled): its settlement status; every line settles push. Null: it ended. */
  voidStatus: string | null;
  /** Settlement words scripted by a test, by line_id. */
  words: Map<number, OutcomeWords>;
  model: PriceModel;
  log: { nextId: number; buffer: StreamMessage[] };
}

interface Contestant {
  id: number;
  name: string;
  handicap: number;
  weight: number;
}

interface SpecialTick {
  atMs: number;
  maxWin: number;
  odds: number[];
  /** Only on the opening and the closing tick. */
  trueOdds: Record<DevigModel, number[]> | null;
}

interface SpecialState {
  specialId: number;
  /** The owning event, or the league's futures pseudo-event for tournament futures. */
  ownerId: number;
  futures: boolean;
  sport: SportDef;
  league: League;
  template: SpecialTemplate;
  contestants: Contestant[];
  margin: number;
  ladderIdx: number;
  openedMs: number;
  cutoffMs: number;
  nextRepriceMs: number;
  closed: boolean;
  ticks: SpecialTick[];
  rng: Prng;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
/** A chance (the margin in it) as a book quotes it: two decimals, from 1.01 to 501. */
const quote = (chance: number) => Math.min(501, Math.max(1.01, round(1 / chance, 2)));
const oddsOf = (p: number, margin: number) => quote(p * (1 + margin));
const trueOddsOf = (o: number) => Math.max(1.001, round(o, 3));

/**
 * A special's prices: two runners carry the margin in proportion (oddsOf); a field carries it as books put it on
 * outrights, an equal share of the overround on every runner (Buchdahl's margin proportional to odds), so a long shot
 * is priced far shorter than its chance (the favourite-longshot bias) and every de-vig model, MPTO too, finds each
 * runner a fair price. A runner's chance is floored at 0.1% first: no book lays a 1,000-to-one shot at its fair price.
 */
function specialOdds(probs: readonly number[], margin: number): number[] {
  if (probs.length <= 2) return probs.map((p) => oddsOf(p, margin));
  const floored = probs.map((p) => Math.max(p, 0.001));
  const s = floored.reduce((a, b) => a + b, 0);
  return floored.map((p) => quote(p / s + margin / probs.length));
}

function softmax(ws: readonly number[]): number[] {
  const max = Math.max(...ws);
  const es = ws.map((w) => Math.exp(w - max));
  const s = es.reduce((a, b) => a + b, 0);
  return es.map((e) => e / s);
}

/** The fields every event record starts with, in the service's order (settlements and snapshots share them). */
function eventHead(ev: SimEvent) {
  return {
    event_id: ev.id,
    sport_id: ev.sport.id,
    league_id: ev.league.id,
    league_name: ev.league.name,
    runner_home: ev.home,
    runner_away: ev.away,
    starts: formatServiceTime(ev.startsMs),
  };
}

function outcome(diff: number): Outcome {
  return diff > 0 ? 'win' : diff < 0 ? 'loss' : 'push';
}

export class World {
  private readonly seed: number;
  private readonly rng: Prng;
  private readonly target: number;
  private readonly pace: number;
  private readonly settleBatchMs: number;
  private nowMs: number;
  private nextEventId: number;
  private readonly openingMatchesLive: boolean;
  private readonly openMs: number;
  private nextSpecialId = 50_001;
  private nextContestantId = 700_001;
  private nextSettlementId = 1;
  private readonly leagues: League[] = [];
  private readonly book = new Map<number, SimEvent>();
  /** Events that left the book: only what a late stream connection needs to say goodbye. */
  private readonly gone = new Map<number, { reason: 'settled' | 'removed'; endId: number }>();
  private readonly settled: SettledEvent[] = [];
  private readonly settledSec: number[] = [];
  private readonly resultsById = new Map<number, ResultsRecord>();
  private readonly settledCap: number;
  private readonly busy: BusyWorldOptions | null;
  /** The busy day's own dice, so the book's course is the same with it on or off. */
  private readonly bulkRng: Prng;
  private nextBulkId = BULK_EVENT_BASE;
  private readonly specials = new Map<number, SpecialState>();
  private readonly maxWinLog: MaxWinChange[] = [];
  /** The scenarios planned so far, by event (insertion order: oldest event first). */
  private readonly planned = new Map<number, Scenario[]>();
  private listener: (eventId: number, message: StreamMessage) => void = () => {};

  constructor(options: WorldOptions) {
    this.pace = options.pace ?? 1;
    this.settleBatchMs = SETTLE_BATCH_MS / this.pace;
    if (!(this.pace >= 1) || this.settleBatchMs % STEP_MS !== 0)
      throw new Error(`pace ${this.pace} must split the settlement batch into whole ${STEP_MS} ms steps`);
    this.seed = options.seed;
    this.rng = new Prng(options.seed);
    this.bulkRng = new Prng((options.seed ^ 0xb05d) >>> 0);
    this.settledCap = options.settledCap ?? SETTLED_CAP;
    this.busy = options.busy ?? null;
    this.nextEventId = options.firstEventId ?? 1_600_001;
    this.openingMatchesLive = options.openingMatchesLive ?? false;
    this.openMs = options.startMs;
    this.target = Math.max(1, options.events);
    this.nowMs = Math.floor((options.startMs - options.historyMs) / STEP_MS) * STEP_MS;
    this.createLeagues();
    // Seed the book as if the service had been running: some events already under way, the rest spread out.
    for (let i = 0; i < this.target; i++)
      this.createEvent(this.nowMs + (this.rng.range(-90, 8 * 60) * 60_000) / this.pace);
    this.processStep();
    this.advanceTo(options.startMs);
  }

  onMessage(listener: (eventId: number, message: StreamMessage) => void): void {
    this.listener = listener;
  }

  now(): number {
    return this.nowMs;
  }

  /** Runs every whole step up to `targetMs`; the clock never runs backwards. */
  advanceTo(targetMs: number): void {
    while (this.nowMs + STEP_MS <= targetMs) {
      this.nowMs += STEP_MS;
      this.processStep();
    }
  }

  // ---- creation ----

  private createLeagues(): void {
    for (const sport of SPORTS) {
      sport.leagues.forEach((name, i) => {
        const league: League = { id: sport.id * 100 + i + 1, name, sport, teams: [] };
        const names = new Set<string>();
        while (names.size < 12) names.add(this.competitorName(sport));
        league.teams = [...names];
        this.leagues.push(league);
        this.createFutures(league);
      });
    }
  }

  private competitorName(sport: SportDef): string {
    if (INDIVIDUAL_SPORTS.has(sport.id)) return `${this.rng.pick(FIRST_NAMES)} ${this.rng.pick(LAST_NAMES)}`;
    const city = `${this.rng.pick(CITY_PARTS)}${this.rng.pick(CITY_ENDS)}`;
    return `${city} ${this.rng.pick(CLUB_SUFFIX[sport.id] ?? ['Club'])}`;
  }

  private createEvent(startsMs: number): void {
    const league = this.rng.pick(this.leagues);
    const sport = league.sport;
    const home = this.rng.pick(league.teams);
    let away = this.rng.pick(league.teams);
    while (away === home) away = this.rng.pick(league.teams);
    const id = this.nextEventId;
    this.nextEventId += this.rng.int(1, 7);
    const rng = this.rng.fork(id);
    const xrng = this.scenarioRng(id);
    startsMs = Math.floor(startsMs / 60_000) * 60_000;
    const strength = rng.range(0.25, 0.75);
    const ev: SimEvent = {
      id,
      sport,
      league,
      home,
      away,
      startsMs,
      // The draw is always made, so the world's dice run the same with or without openingMatchesLive.
      offeredLive: rng.chance(0.85) || (this.openingMatchesLive && startsMs < this.openMs),
      phase: 'pre',
      removeAtMs: rng.chance(0.03) ? startsMs - (rng.range(5, 60) * 60_000) / this.pace : null,
      endMs: 0,
      settleMs: 0,
      timeline: [],
      timelineIdx: 0,
      sets: [],
      score: null,
      markets: [],
      nextTickMs: this.nowMs + rng.range(5, 30) * 1000,
      suspendedUntilMs: 0,
      rng,
      xrng,
      bestOf: this.bestOfFor(sport, xrng),
      scenarios: [],
      voidStatus: null,
      words: new Map(),
      model: { strength: 0.5, lean: 0, leanBase: 0, tempo: 0, tempoBase: 0 },
      log: { nextId: 1, buffer: [] },
    };
    this.playMatch(ev, strength);
    ev.markets = this.createMarkets(ev, strength);
    this.planScenarios(ev);
    this.book.set(id, ev);
    for (const template of SPECIAL_TEMPLATES[sport.id] ?? []) {
      if (rng.chance(0.8)) this.createSpecial(template, league, ev.id, false, ev.startsMs, rng);
    }
  }

  /** Decides the whole match up front, so the live phase only replays it in time. */
  private playMatch(ev: SimEvent, strength: number): void {
    const { sport, rng } = ev;
    // A longer best-of plays longer (the ratio is 1 for every match that plays its sport's own best-of).
    const lengthRatio = sport.kind === 'sets' ? ev.bestOf / sport.bestOf : 1;
    const durationMs = (sport.durationMin * lengthRatio * 60_000 * rng.range(0.9, 1.2)) / this.pace;
    ev.endMs = ev.startsMs + Math.round(durationMs / STEP_MS) * STEP_MS;
    const at = (fraction: number) =>
      ev.startsMs + Math.max(STEP_MS, Math.round((durationMs * fraction) / STEP_MS) * STEP_MS);
    if (sport.kind === 'sets') {
      const need = Math.ceil(ev.bestOf / 2);
      const pSet = 0.5 + (strength - 0.5) * 0.8;
      let h = 0;
      let a = 0;
      while (h < need && a < need) {
        const set: SetRecord =
          sport.id === 4 ? this.tennisSet(rng, 0.5 + (strength - 0.5) * 0.3) : { homeWon: rng.chance(pSet), games: [] };
        ev.sets.push(set);
        if (set.homeWon) h++;
        else a++;
      }
      const n = ev.sets.length;
      let sh = 0;
      let sa = 0;
      ev.sets.forEach((s, i) => {
        if (s.homeWon) sh++;
        else sa++;
        ev.timeline.push({ atMs: i === n - 1 ? ev.endMs - STEP_MS : at((i + 1) / (n + 0.3)), home: sh, away: sa });
      });
      return;
    }
    const updates = sport.id === 2 ? 24 : sport.id === 3 ? 9 : 0;
    let h = 0;
    let a = 0;
    if (sport.id === 1) {
      const goals: Array<{ f: number; home: boolean }> = [];
      for (let i = rng.poisson(2.6 * strength + 0.15); i > 0; i--) goals.push({ f: rng.next(), home: true });
      for (let i = rng.poisson(2.6 * (1 - strength)); i > 0; i--) goals.push({ f: rng.next(), home: false });
      goals.sort((x, y) => x.f - y.f);
      for (const g of goals) {
        if (g.home) h++;
        else a++;
        ev.timeline.push({ atMs: at(Math.min(0.97, g.f)), home: h, away: a });
      }
      return;
    }
    // Basketball and baseball score in blocks (quarters' runs, innings): a handful of score updates per match.
    const meanH = (sport.meanScore * (0.8 + 0.4 * strength)) / updates;
    const meanA = (sport.meanScore * (1.2 - 0.4 * strength)) / updates;
    for (let i = 1; i <= updates; i++) {
      const dh = sport.id === 2 ? Math.max(0, Math.round(meanH + rng.normal() * 2.5)) : rng.poisson(meanH);
      const da = sport.id === 2 ? Math.max(0, Math.round(meanA + rng.normal() * 2.5)) : rng.poisson(meanA);
      // No draws in these sports: the last block is overtime / extra innings until someone leads.
      const tie = i === updates && h + dh === a + da;
      h += dh + (tie && rng.chance(strength) ? 1 : 0);
      a += da + (tie && h === a + da ? 1 : 0);
      if (dh || da || tie) ev.timeline.push({ atMs: at(i / (updates + 0.2)), home: h, away: a });
    }
  }

  private tennisSet(rng: Prng, pGame: number): SetRecord {
    const games: boolean[] = [];
    let h = 0;
    let a = 0;
    for (;;) {
      const homeWins = rng.chance(pGame);
      games.push(homeWins);
      if (homeWins) h++;
      else a++;
      const tiebreak = h + a === 13;
      if (tiebreak || (h >= 6 && h - a >= 2) || (a >= 6 && a - h >= 2)) return { homeWon: h > a, games };
    }
  }

  private createMarkets(ev: SimEvent, strength: number): MarketState[] {
    const { sport, rng } = ev;
    const margin = rng.range(0.02, 0.05);
    const maxWin = this.mainMaxWin(ev);
    const mk = (
      k: number,
      kind: MarketKind,
      side: 'home' | 'away' | null,
      line: number | null,
      keys: PriceKey[],
      probs: number[],
    ): MarketState => {
      const base = probs.map((p) => Math.log(p));
      return {
        lineId: ev.id * 10 + k,
        kind,
        side,
        line,
        keys,
        weights: [...base],
        base,
        margin,
        prices: null,
        maxWin,
        updatedAtMs: this.nowMs,
        extra: false,
        hold: null,
      };
    };
    const half = () => (rng.chance(0.6) ? 0 : 0.5);
    const twoWay = () => {
      const p = 0.5 + rng.range(-0.06, 0.06);
      return [p, 1 - p];
    };
    const pHome = sport.kind === 'sets' ? strength : 0.5 + (strength - 0.5) * 1.1;
    const ml = sport.draw
      ? mk(0, 'moneyline', null, null, ['home', 'draw', 'away'], [pHome * 0.75, 0.25, (1 - pHome) * 0.75])
      : mk(0, 'moneyline', null, null, ['home', 'away'], [pHome, 1 - pHome]);
    const unit = sport.kind === 'sets' ? 1 : sport.meanScore < 10 ? 1 : Math.max(1, Math.round(sport.meanScore / 25));
    const spreadRaw =
      -Math.round(((strength - 0.5) * sport.meanScore) / unit) * unit - (sport.kind === 'sets' ? 0 : half());
    const spreadLine = spreadRaw + 0; // + 0 turns -0 into 0: JSON would otherwise carry "-0"
    // Sets sports: a best of 7 plays more sets than its sport's usual best-of (the ratio is 1 for every other match).
    const total = sport.meanScore * 2 * (sport.kind === 'sets' ? ev.bestOf / sport.bestOf : 1);
    // The main line near the middle of the book's own distribution (./ladders.ts): within a tenth of the total for
    // goals and runs, within a third of a standard deviation for points (a tenth of 220 points is 1.3 of them, which
    // priced a main line at 1.20/5.28).
    const totalSpan = sport.meanScore < 10 ? total : 3 * Math.sqrt(1.4 * total);
    const drawnTotal = Math.round(total + rng.range(-0.1, 0.1) * totalSpan) + half();
    // A set sport's lines stay where the sets can fall on both sides (best of 3: 2.5 sets; a side's sets: 0.5 or 1.5).
    const need = Math.ceil(ev.bestOf / 2);
    const totalsLine = sport.kind === 'sets' ? Math.min(ev.bestOf - 0.5, Math.max(need + 0.5, drawnTotal)) : drawnTotal;
    const teamLine = (share: number) => {
      const drawn = Math.max(0.5, Math.round(sport.meanScore * share)) + half();
      return sport.kind === 'sets' ? Math.min(need - 0.5, drawn) : drawn;
    };
    const markets = [
      ml,
      mk(1, 'spread', null, spreadLine, ['home', 'away'], twoWay()),
      mk(2, 'totals', null, totalsLine, ['over', 'under'], twoWay()),
      mk(3, 'team_total', 'home', teamLine(0.8 + 0.4 * strength), ['over', 'under'], twoWay()),
      mk(4, 'team_total', 'away', teamLine(1.2 - 0.4 * strength), ['over', 'under'], twoWay()),
    ];
    if (sport.draw) {
      // Quarter lines (a stake split between two neighbouring lines), beside the main spread and totals: an Asian
      // handicap around the expected goal difference (-0.25, -0.75, +0.25, -1.25...) and a total around the expected
      // goals (2.25, 2.75, 3.25). Drawn on the scenario dice, so the main five lines keep their seeded course.
      const x = ev.xrng;
      /** The x.25 or x.75 value just above the x.0/x.5 value at or below v. */
      const quarterAbove = (v: number) => Math.floor(v * 2) / 2 + 0.25;
      const xTwoWay = () => {
        const p = 0.5 + x.range(-0.06, 0.06);
        return [p, 1 - p];
      };
      const goalDiff = 2.6 * (2 * strength - 1) + 0.15 + x.range(-0.25, 0.25);
      const goals = 2.75 + x.range(-0.4, 0.4);
      const extras = [
        mk(5, 'spread', null, -quarterAbove(goalDiff), ['home', 'away'], xTwoWay()),
        mk(6, 'totals', null, quarterAbove(goals), ['over', 'under'], xTwoWay()),
      ];
      for (const m of extras) m.extra = true;
      markets.push(...extras);
    }
    ev.model = { strength, lean: 0, leanBase: 0, tempo: 0, tempoBase: 0 };
    ev.markets = markets;
    this.repriceLadders(ev, () => true);
    return markets;
  }

  private createFutures(league: League): void {
    const template: SpecialTemplate = {
      name: `${league.name} Winner`,
      betType: 'MULTI_WAY_HEAD_TO_HEAD',
      category: 'futures',
      units: 'Titles',
      contestants: { kind: 'fixed', names: league.teams },
    };
    const cutoff = this.nowMs + 60 * 24 * 3600_000;
    this.createSpecial(template, league, FUTURES_EVENT_BASE + league.id, true, cutoff, this.rng.fork(league.id));
  }

  private createSpecial(
    template: SpecialTemplate,
    league: League,
    ownerId: number,
    futures: boolean,
    cutoffMs: number,
    parent: Prng,
  ): void {
    const rng = parent.fork(this.nextSpecialId);
    const c = template.contestants;
    let named: Array<{ name: string; handicap: number }>;
    if (c.kind === 'players') {
      const names = new Set<string>();
      while (names.size < c.count) names.add(`${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`);
      named = [...names].map((name) => ({ name, handicap: 0 }));
    } else if (c.kind === 'fixed') {
      named = c.names.map((name) => ({ name, handicap: 0 }));
    } else if (c.kind === 'over_under') {
      named = [
        { name: 'Over', handicap: c.line },
        { name: 'Under', handicap: c.line },
      ];
    } else {
      named = [
        { name: 'Home', handicap: -c.line },
        { name: 'Away', handicap: c.line },
      ];
    }
    const spread = named.length > 2 ? 0.9 : 0.2;
    const special: SpecialState = {
      specialId: this.nextSpecialId++,
      ownerId,
      futures,
      sport: league.sport,
      league,
      template,
      contestants: named.map((n) => ({ id: this.nextContestantId++, ...n, weight: rng.normal() * spread })),
      // An outright book's overround grows with its field (1.2-2% a runner: 14-24% for twelve), as real books' do.
      margin: named.length > 2 ? named.length * rng.range(0.012, 0.02) : rng.range(0.02, 0.05),
      ladderIdx: 0,
      openedMs: this.nowMs,
      cutoffMs,
      nextRepriceMs: 0,
      closed: false,
      ticks: [],
      rng,
    };
    this.specials.set(special.specialId, special);
    this.repriceSpecial(special, true);
  }

  // ---- the step ----

  private processStep(): void {
    const now = this.nowMs;
    for (const ev of [...this.book.values()]) this.stepEvent(ev, now);
    for (const sp of this.specials.values()) this.stepSpecial(sp, now);
    if (now % this.settleBatchMs === 0) this.settleBatch(now);
    if (this.busy) this.settleBulk(now);
    // Keep the book full: a replacement starts between 30 minutes and 8 hours from now.
    let live = 0;
    for (const ev of this.book.values()) if (ev.phase === 'pre' || ev.phase === 'live') live++;
    for (let i = live; i < this.target; i++) this.createEvent(now + (this.rng.range(30, 8 * 60) * 60_000) / this.pace);
  }

  private stepEvent(ev: SimEvent, now: number): void {
    if (ev.phase === 'pre' && ev.removeAtMs !== null && now >= ev.removeAtMs) {
      this.leaveBook(ev, 'removed');
      return;
    }
    const voided = this.dueScenario(ev, ev.phase === 'pre' ? 'cancelled' : 'abandoned', now);
    if (voided && (ev.phase === 'pre' || ev.phase === 'live')) {
      voided.state = 'played';
      this.endMatch(ev, now, voided.kind);
      return;
    }
    if (ev.phase === 'pre' && now >= ev.startsMs) this.startMatch(ev, now);
    if (ev.phase === 'live') {
      let scored = false;
      for (let step = ev.timeline[ev.timelineIdx]; step && step.atMs <= now; step = ev.timeline[++ev.timelineIdx]) {
        ev.score = { home: step.home, away: step.away };
        scored = true;
      }
      if (scored) {
        this.emitScore(ev, now);
        if (ev.offeredLive) {
          // 20-90 s of a real match, shorter as matches run faster (the demo): never longer than a few score gaps.
          ev.suspendedUntilMs = now + (ev.rng.range(20, 90) * 1000) / this.pace;
          this.takeOffline(ev, now);
        }
      }
      if (now >= ev.endMs) {
        this.endMatch(ev, now, null);
        return;
      }
    }
    if (ev.phase === 'pre' || ev.phase === 'live') this.playScenarios(ev, now);
    if (
      (ev.phase === 'pre' || (ev.phase === 'live' && ev.offeredLive)) &&
      now >= ev.nextTickMs &&
      now >= ev.suspendedUntilMs
    ) {
      this.tickOdds(ev, now);
      const mean = ev.phase === 'live' ? 12 : 30;
      ev.nextTickMs =
        now +
        Math.max(STEP_MS, Math.round((-Math.log(1 - ev.rng.next()) * mean * 1000) / this.pace / STEP_MS) * STEP_MS);
    }
  }

  private startMatch(ev: SimEvent, now: number): void {
    ev.phase = 'live';
    ev.score = { home: 0, away: 0 };
    this.emitScore(ev, now);
    if (!ev.offeredLive) this.takeOffline(ev, now);
  }

  /**
   * The match is over: it ended (voidStatus null), or it was abandoned or cancelled (every line settles push). The
   * settlement waits for the next batch after a short review.
   */
  private endMatch(ev: SimEvent, now: number, voidStatus: string | null, settleMs?: number): void {
    ev.phase = 'ended';
    ev.voidStatus = voidStatus;
    if (settleMs !== undefined) ev.settleMs = settleMs;
    else {
      const reviewMs = (voidStatus === null ? ev.rng.range(2, 12) : ev.xrng.range(2, 8)) * 60_000;
      ev.settleMs = Math.ceil((now + reviewMs / this.pace) / this.settleBatchMs) * this.settleBatchMs;
    }
    this.emitScore(ev, now);
    this.takeOffline(ev, now);
    // What had not happened yet never will.
    for (const sc of ev.scenarios) if (sc.state === 'planned') sc.state = 'skipped';
  }

  private mainMaxWin(ev: SimEvent): number {
    const hours = (ev.startsMs - this.nowMs) / 3600_000;
    const idx = hours > 6 ? 1 : hours > 3 ? 3 : hours > 1 ? 5 : hours > 0.25 ? 7 : 9;
    return MAX_WIN_LADDER[ev.phase === 'live' ? 4 : idx] ?? 1000;
  }

  private tickOdds(ev: SimEvent, now: number): void {
    const { rng } = ev;
    const changed = new Set<MarketState>();
    const count = rng.int(1, 3);
    const maxWin = this.mainMaxWin(ev);
    // The dice are drawn as they always were (so schedules, scores and settlements keep their seeded course): the
    // moneyline walks on its weights, a line that moves steps the event's price model instead.
    for (const m of ev.markets) {
      // Held markets stand still; extra lines move below on their own dice.
      if (m.extra || m.hold) continue;
      // An offline moneyline comes back at once; other lines come back with the ladder below, so their dice never
      // depend on whether the model left them offline (a nudged world keeps its course: load generation).
      const moved = (m.kind === 'moneyline' && m.prices === null) || (changed.size < count && rng.chance(0.5));
      const maxWinMoved = m.maxWin !== maxWin;
      if (!moved && !maxWinMoved) continue;
      if (moved) this.walk(ev, m, rng);
      m.maxWin = maxWin;
      m.updatedAtMs = now;
      changed.add(m);
    }
    const x = ev.xrng;
    for (const m of ev.markets) {
      if (!m.extra || m.hold) continue;
      const moved = x.chance(0.3);
      if (!moved && m.maxWin === maxWin) continue;
      if (moved) this.walk(ev, m, x);
      m.maxWin = maxWin;
      m.updatedAtMs = now;
      changed.add(m);
    }
    // Every line is priced again from the model (it moved, or the match did): the ladders move together.
    for (const m of this.repriceLadders(ev, () => true)) {
      m.maxWin = maxWin;
      m.updatedAtMs = now;
      changed.add(m);
    }
    if (changed.size)
      this.emitOdds(
        ev,
        ev.markets.filter((m) => changed.has(m)),
        now,
      );
  }

  /**
   * One random-walk step of the event's price model, drawn on a market's dice: the moneyline and a spread move the
   * lean, a total the tempo, a team's total both. Every line, the moneyline too, is then priced from the model (one
   * score distribution: repriceLadders).
   */
  private walk(ev: SimEvent, m: MarketState, dice: Prng): void {
    m.scripted = false;
    const noise = m.weights.map(() => dice.normal());
    m.weights = m.weights.map((w, i) => w + (noise[i] ?? 0) * 0.04 - 0.15 * (w - (m.base[i] ?? w)));
    const d = ((noise[0] ?? 0) - (noise[noise.length - 1] ?? 0)) * 0.03;
    const mo = ev.model;
    if (m.kind === 'spread' || m.kind === 'moneyline') mo.lean += d;
    else if (m.kind === 'totals') mo.tempo += d;
    else {
      mo.tempo += d / 2;
      mo.lean += m.side === 'away' ? -d / 2 : d / 2;
    }
    mo.lean -= 0.15 * (mo.lean - mo.leanBase);
    mo.tempo -= 0.15 * (mo.tempo - mo.tempoBase);
  }

  /** The final score as the book now reads it: the score so far, and what the rest of the match should bring. */
  private scoreDists(ev: SimEvent): ScoreDists {
    const { sport, model } = ev;
    const h = ev.score?.home ?? 0;
    const a = ev.score?.away ?? 0;
    const s = Math.min(0.95, Math.max(0.05, model.strength));
    if (sport.kind === 'sets') {
      const pSet = 0.5 + (s - 0.5) * 0.8;
      // A higher tempo reads the match as closer (more sets), a lean as one side's.
      const logit = Math.log(pSet / (1 - pSet)) * Math.exp(-model.tempo) + model.lean;
      return setsToPlay(h, a, Math.ceil(ev.bestOf / 2), 1 / (1 + Math.exp(-logit)));
    }
    const span = Math.max(STEP_MS, ev.endMs - ev.startsMs);
    const left =
      ev.phase === 'pre' ? 1 : ev.phase === 'live' ? Math.min(1, Math.max(0, (ev.endMs - this.nowMs) / span)) : 0;
    // The walk's tempo and lean move a mean in proportion to its spread (a tenth of a goal's mean, but not a tenth of
    // 110 points, which is two standard deviations): scaled by 1.5/sqrt(mean) where scores run high.
    const k = Math.min(1, 1.5 / Math.sqrt(sport.meanScore));
    // Each side's expected score over a whole match, as playMatch plays it (soccer's goals lean harder on strength).
    const fullH = sport.id === 1 ? 2.6 * s + 0.15 : sport.meanScore * (0.8 + 0.4 * s);
    const fullA = sport.id === 1 ? 2.6 * (1 - s) : sport.meanScore * (1.2 - 0.4 * s);
    const meanH = fullH * Math.exp(k * (model.tempo + model.lean)) * left;
    const meanA = fullA * Math.exp(k * (model.tempo - model.lean)) * left;
    // Goals and runs come one by one (Poisson); basketball points by the hundred (a normal, as wide as the sim's).
    const d =
      sport.meanScore < 10
        ? fromSides(poissonFrom(h, meanH), poissonFrom(a, meanA))
        : fromNormalSides({ home: h, away: a }, { home: meanH, away: meanA }, { home: 1.4 * meanH, away: 1.4 * meanA });
    return sport.draw ? d : noDraw(d, s);
  }

  /**
   * Prices every line from the event's price model: the moneyline, the spreads, the totals and the team totals all
   * from one distribution of the final score (./ladders.ts), with only the margin on top, so a draw no bet is shorter
   * than the win and Home -0.5 is the win. Each ladder (the spread lines, the totals lines, a team's total) is kept in
   * order and a line as good as decided is not offered (prices null). A line keeps its value under its id (a bet
   * taken on it settles on that value), so in play a line the score has run past is priced long, not moved. Lines a
   * scenario holds stand still (the moneyline under any hold: a decided price stays decided); an offline one comes
   * back only if `bringBack` says so. Returns the lines whose prices changed.
   */
  private repriceLadders(ev: SimEvent, bringBack: (m: MarketState) => boolean): MarketState[] {
    const lines = ev.markets.filter(
      (m) =>
        !m.scripted &&
        !(m.hold && (m.kind === 'moneyline' || m.hold.release.kind !== 'keep')) &&
        (m.prices !== null || bringBack(m)),
    );
    if (!lines.length) return [];
    const dists = this.scoreDists(ev);
    const changed: MarketState[] = [];
    const ml = lines.find((m) => m.kind === 'moneyline');
    if (ml) {
      const c = resultChances(dists.diff);
      const prices: Prices = {};
      for (const k of ml.keys) prices[k] = oddsOf(k === 'home' ? c.home : k === 'away' ? c.away : c.draw, ml.margin);
      if (!samePrices(prices, ml.prices)) {
        ml.prices = prices;
        changed.push(ml);
      }
    }
    const rungOf = (m: MarketState): Rung | null => {
      const spread = m.kind === 'spread';
      const dist = spread
        ? dists.diff
        : m.kind === 'totals'
          ? dists.total
          : m.side === 'away'
            ? dists.away
            : dists.home;
      const line = m.line ?? 0;
      const at = spread ? -line : line;
      const chances = lineChances(dist, at);
      if (!chances || chances.up < DECIDED || chances.down < DECIDED) return null;
      return { at, up: oddsOf(chances.up, m.margin), down: oddsOf(chances.down, m.margin) };
    };
    const groups = new Map<string, MarketState[]>();
    for (const m of lines) {
      if (m.kind === 'moneyline') continue;
      const key = `${m.kind}:${m.side ?? ''}`;
      groups.set(key, [...(groups.get(key) ?? []), m]);
    }
    for (const group of groups.values()) {
      const rungs = orderLadder(group.map(rungOf));
      group.forEach((m, i) => {
        const r = rungs[i];
        const prices: Prices | null = !r
          ? null
          : m.kind === 'spread'
            ? { home: r.up, away: r.down }
            : { over: r.up, under: r.down };
        if (samePrices(prices, m.prices)) return;
        m.prices = prices;
        changed.push(m);
      });
    }
    return changed;
  }

  /**
   * Load generation (benchmarks), outside the seeded world's own motion: moves one priced market of the event by one
   * random-walk step, drawn from the caller's generator so the world's own dice are never consumed, and emits it as an
   * odds message. A line moves its whole ladder (the model moved), so a message may carry several markets. Retries a
   * few times when the rounded prices did not move. Returns the number of markets sent (each a visible price change),
   * 0 when the event is not in the book or has nothing priced: a load of N moves a second counts markets, not messages.
   */
  nudgeOdds(eventId: number, rng: Prng): number {
    const ev = this.book.get(eventId);
    if (!ev) return 0;
    // A market a scenario holds (suspended, a side missing, a decided price) stands still, as it does for the world.
    const priced = ev.markets.filter((m) => m.prices !== null && !m.hold);
    if (!priced.length) return 0;
    const m = rng.pick(priced);
    const before = JSON.stringify(m.prices);
    let sent = 0;
    for (let attempt = 0; attempt < 4; attempt++) {
      this.walk(ev, m, rng);
      // The message carries every line that changed, this one first.
      const others = this.repriceLadders(ev, (x) => x === m).filter((x) => x !== m);
      if (JSON.stringify(m.prices) !== before) {
        for (const x of [m, ...others]) x.updatedAtMs = this.nowMs;
        this.emitOdds(ev, [m, ...others], this.nowMs);
        return sent + 1 + others.length;
      }
      if (others.length) {
        for (const x of others) x.updatedAtMs = this.nowMs;
        this.emitOdds(ev, others, this.nowMs);
        sent += others.length;
      }
    }
    return sent;
  }

  /**
   * Tests: sets one market's prices (null takes it offline) and, when given, its max_win, and emits it as an odds
   * message at the current simulated time. The world's own motion moves on from its weights at the next step, so a
   * script runs between advances. False when the event or line is not in the book.
   */
  setMarket(eventId: number, lineId: number, prices: Prices | null, maxWin?: number): boolean {
    const ev = this.book.get(eventId);
    const m = ev?.markets.find((x) => x.lineId === lineId);
    if (!ev || !m) return false;
    m.prices = prices === null ? null : { ...prices };
    m.hold = null; // a script's word is the last: whatever the world held the market for is over
    m.scripted = true;
    if (maxWin !== undefined) m.maxWin = maxWin;
    m.updatedAtMs = this.nowMs;
    this.emitOdds(ev, [m], this.nowMs);
    return true;
  }

  // ---- scenarios: trading situations the world plays now and then (CONTROL.md, "Scenarios") ----

  /** The event's scenario dice: from the seed and the event id only, never drawn from the world's or the event's own. */
  private scenarioRng(eventId: number): Prng {
    return new Prng((Math.imul(this.seed ^ 0x5ce7a410, 2654435761) ^ Math.imul(eventId, 0x9e3779b1)) >>> 0);
  }

  /** Two table tennis matches in five are played best of 7 (sets 6 and 7 then settle as periods 6 and 7). */
  private bestOfFor(sport: SportDef, x: Prng): number {
    return sport.id === 6 && x.chance(0.4) ? 7 : sport.bestOf;
  }

  /**
   * Decides, on the scenario dice, which situations this event will meet: a pre-match suspension (1 in 10), a draw
   * price that goes missing for a while (1 in 6.7 soccer matches), a void match (1 in 50: three in four abandoned
   * during play, the rest cancelled before the start) and a decided price of 1.0 near the end (1 in 12.5 live
   * matches, when the eventual winner leads by then). Only what still lies ahead is planned.
   */
  private planScenarios(ev: SimEvent): void {
    const x = ev.xrng;
    const now = this.nowMs;
    const minute = 60_000 / this.pace;
    const align = (ms: number) => Math.round(ms / STEP_MS) * STEP_MS;
    /** Pre-match scenarios are over before the start (or before a planned removal). */
    const preEnd = Math.min(ev.removeAtMs ?? Infinity, ev.startsMs - 5 * minute);
    const add = (kind: ScenarioKind, k: number | null, at: number, until: number | null) =>
      ev.scenarios.push({
        kind,
        event_id: ev.id,
        line_id: k === null ? null : ev.id * 10 + k,
        at,
        until,
        state: 'planned',
      });

    if (x.chance(0.1)) {
      const at = align(ev.startsMs - x.range(30, 60) * minute);
      const until = Math.min(align(at + x.range(8, 20) * minute), align(preEnd));
      const k = x.chance(0.6) ? 0 : x.int(1, 2);
      if (at > now && until > at) add('suspension', k, at, until);
    }
    if (ev.sport.draw && x.chance(0.15)) {
      const at = align(ev.startsMs - x.range(15, 150) * minute);
      const until = align(at + x.range(2, 10) * minute);
      if (at > now && until <= preEnd) add('draw_gap', 0, at, until);
    }
    if (ev.removeAtMs === null && x.chance(0.02)) {
      if (x.chance(0.75)) {
        const at = align(ev.startsMs + x.range(0.15, 0.85) * (ev.endMs - ev.startsMs));
        if (at > now) add('abandoned', null, at, null);
      } else {
        const at = align(ev.startsMs - x.range(5, 30) * minute);
        if (at > now) add('cancelled', null, at, null);
      }
    }
    if (
      ev.offeredLive &&
      !ev.scenarios.some((sc) => sc.kind === 'abandoned' || sc.kind === 'cancelled') &&
      x.chance(0.08)
    ) {
      const at = align(ev.endMs - x.range(1, 5) * minute);
      const final = ev.timeline[ev.timeline.length - 1];
      let then = { home: 0, away: 0 };
      for (const step of ev.timeline) if (step.atMs <= at) then = step;
      const lead = (sc: { home: number; away: number }) => Math.sign(sc.home - sc.away);
      if (final && lead(final) !== 0 && lead(then) === lead(final) && at > ev.startsMs && at > now)
        add('decided_price', 0, at, ev.endMs);
    }
    if (ev.scenarios.length) {
      this.planned.set(ev.id, ev.scenarios);
      if (this.planned.size > 2 * this.settledCap) this.planned.delete(this.planned.keys().next().value as number);
    }
  }

  private dueScenario(ev: SimEvent, kind: ScenarioKind, now: number): Scenario | null {
    for (const sc of ev.scenarios) if (sc.kind === kind && sc.state === 'planned' && now >= sc.at) return sc;
    return null;
  }

  /** Releases held markets whose time is up, then starts the line scenarios that fell due. */
  private playScenarios(ev: SimEvent, now: number): void {
    const released: MarketState[] = [];
    for (const m of ev.markets) {
      const hold = m.hold;
      if (!hold || now < hold.untilMs) continue;
      m.hold = null;
      const r = hold.release;
      if (r.kind === 'keep') continue;
      if (r.kind === 'jump') {
        this.jump(ev, m, ev.xrng);
        // The model moved: every line is priced again, this one back on offer with them.
        for (const x of this.repriceLadders(ev, (y) => y === m)) {
          if (x === m) continue;
          x.updatedAtMs = now;
          released.push(x);
        }
      } else if (r.kind === 'prices') m.prices = { ...r.prices };
      else if (m.prices) m.prices = this.withSide(m, m.prices, r.side, r.price);
      else continue;
      m.updatedAtMs = now;
      // It shows as released for this step: the world's motion takes it up again from the next one.
      m.hold = { untilMs: now + STEP_MS, release: { kind: 'keep' } };
      released.push(m);
    }
    if (released.length) this.emitOdds(ev, [...new Set(released)], now);
    if (!ev.scenarios.length) return;
    const line = (sc: Scenario) => ev.markets.find((m) => m.lineId === sc.line_id);

    const suspension = this.dueScenario(ev, 'suspension', now);
    if (suspension) {
      const m = line(suspension);
      if (ev.phase !== 'pre' || !m || m.hold || m.prices === null) suspension.state = 'skipped';
      else {
        suspension.state = 'played';
        this.holdMarket(ev, m, null, { untilMs: suspension.until ?? now, release: { kind: 'jump' } }, now);
      }
    }
    const gap = this.dueScenario(ev, 'draw_gap', now);
    if (gap) {
      const m = line(gap);
      const draw = m?.prices?.draw;
      if (ev.phase !== 'pre' || !m || m.hold || !m.prices || draw === undefined) gap.state = 'skipped';
      else {
        gap.state = 'played';
        this.holdMarket(
          ev,
          m,
          this.withoutSide(m.prices, 'draw'),
          { untilMs: gap.until ?? now, release: { kind: 'side', side: 'draw', price: draw } },
          now,
        );
      }
    }
    const decided = this.dueScenario(ev, 'decided_price', now);
    if (decided && !(ev.phase === 'live' && now < ev.suspendedUntilMs)) {
      const m = line(decided);
      const lead = Math.sign((ev.score?.home ?? 0) - (ev.score?.away ?? 0));
      if (ev.phase !== 'live' || !ev.offeredLive || !m || m.hold || lead === 0) decided.state = 'skipped';
      else {
        decided.state = 'played';
        this.holdMarket(
          ev,
          m,
          this.decidedPrices(m, lead > 0 ? 'home' : 'away', ev.xrng),
          { untilMs: ev.endMs, release: { kind: 'keep' } },
          now,
        );
      }
    }
  }

  /** Sets a market's prices (null: offline), holds it from the world's motion, and sends it as an odds message. */
  private holdMarket(ev: SimEvent, m: MarketState, prices: Prices | null, hold: Hold, now: number): void {
    m.prices = prices;
    m.hold = hold;
    m.updatedAtMs = now;
    this.emitOdds(ev, [m], now);
  }

  /** A re-offer after a suspension: the price moved while the line was down (news, a team sheet). */
  private jump(ev: SimEvent, m: MarketState, x: Prng): void {
    const d = (x.chance(0.5) ? 1 : -1) * x.range(0.12, 0.3);
    // The book's reading of the match moved (a side, or the goals), and every line with it, the moneyline too.
    const mo = ev.model;
    if (m.kind === 'totals') {
      mo.tempoBase += d;
      mo.tempo += d;
    } else {
      mo.leanBase += d;
      mo.lean += d;
    }
  }

  /** The winner's side at exactly 1.0 (the line is as good as decided), the others long. */
  private decidedPrices(m: MarketState, winner: PriceKey, x: Prng): Prices {
    const out: Prices = {};
    for (const k of m.keys)
      out[k] =
        k === winner ? 1.0 : k === 'draw' ? Math.round(x.range(5, 11) * 2) / 2 : Math.round(x.range(9, 30) * 2) / 2;
    return out;
  }

  private withoutSide(prices: Prices, side: PriceKey): Prices {
    const out: Prices = { ...prices };
    delete out[side];
    return out;
  }

  /** The prices as they stand with `side` back at `price`, in the market's own key order. */
  private withSide(m: MarketState, prices: Prices, side: PriceKey, price: number): Prices {
    const out: Prices = {};
    for (const k of m.keys) {
      const p = k === side ? price : prices[k];
      if (p !== undefined) out[k] = p;
    }
    return out;
  }

  // ---- scripts (tests): each acts at the current simulated time, between advances ----

  /**
   * Kick-off now: the match goes live at once (a `score` message with live_status 1, score 0-0), its whole schedule
   * (score steps, end, planned abandonment or decided price) moves forward with it, `starts` becomes now, its
   * specials close at the next step and pre-match scenarios still ahead are skipped. False unless it is pre-match.
   */
  kickOff(eventId: number): boolean {
    const ev = this.book.get(eventId);
    if (!ev || ev.phase !== 'pre') return false;
    const now = this.nowMs;
    const delta = now - ev.startsMs;
    ev.startsMs = now;
    ev.endMs += delta;
    for (const step of ev.timeline) step.atMs += delta;
    ev.removeAtMs = null;
    for (const sc of ev.scenarios) {
      if (sc.state !== 'planned') continue;
      if (sc.kind === 'abandoned' || sc.kind === 'decided_price') {
        sc.at += delta;
        if (sc.until !== null) sc.until += delta;
      } else sc.state = 'skipped';
    }
    for (const sp of this.specials.values())
      if (sp.ownerId === ev.id && !sp.closed) sp.cutoffMs = Math.min(sp.cutoffMs, now);
    this.startMatch(ev, now);
    return true;
  }

  /**
   * Takes one line offline now (`prices: null`) and holds it there for `seconds` (rounded up to whole 5 s steps);
   * then it is re-offered at `reoffer`, or at a price the world moves away from the old one. Pre-match or live
   * (a score takes every line offline and ends the hold). False when the event is not pre-match or live, or has no
   * such line.
   */
  suspendMarket(eventId: number, lineId: number, seconds: number, reoffer?: Prices): boolean {
    const ev = this.book.get(eventId);
    const m = ev?.markets.find((x) => x.lineId === lineId);
    if (!ev || !m || (ev.phase !== 'pre' && ev.phase !== 'live') || !(seconds > 0)) return false;
    const release: Hold['release'] = reoffer ? { kind: 'prices', prices: { ...reoffer } } : { kind: 'jump' };
    this.holdMarket(
      ev,
      m,
      null,
      { untilMs: this.nowMs + Math.ceil((seconds * 1000) / STEP_MS) * STEP_MS, release },
      this.nowMs,
    );
    return true;
  }

  /**
   * One side leaves a priced line now (an odds message whose prices lack it) while the other sides stand still;
   * after `seconds` (whole 5 s steps) it comes back at its old price. False when the line is not priced on that side.
   */
  dropSide(eventId: number, lineId: number, side: PriceKey, seconds: number): boolean {
    const ev = this.book.get(eventId);
    const m = ev?.markets.find((x) => x.lineId === lineId);
    const price = m?.prices?.[side];
    if (!ev || !m || !m.prices || price === undefined || (ev.phase !== 'pre' && ev.phase !== 'live') || !(seconds > 0))
      return false;
    const hold: Hold = {
      untilMs: this.nowMs + Math.ceil((seconds * 1000) / STEP_MS) * STEP_MS,
      release: { kind: 'side', side, price },
    };
    this.holdMarket(ev, m, this.withoutSide(m.prices, side), hold, this.nowMs);
    return true;
  }

  /**
   * The match stops now and will settle void: settlement `status` is `status`, every line push (all three words).
   * It settles in the next settlement batch (at most 10 simulated minutes / pace away). A match that already
   * ended but is not settled yet just takes the status. False when the event is not in the book.
   */
  abandonMatch(eventId: number, status: string): boolean {
    const ev = this.book.get(eventId);
    if (!ev) return false;
    if (ev.phase === 'ended') {
      ev.voidStatus = status;
      return true;
    }
    if (ev.phase !== 'pre' && ev.phase !== 'live') return false;
    this.endMatch(ev, this.nowMs, status, (Math.floor(this.nowMs / this.settleBatchMs) + 1) * this.settleBatchMs);
    return true;
  }

  /**
   * The event's settlement will carry these words on line `lineId` instead of the world's (say `void` or
   * `half-win`, which the service's vocabulary of win/loss/push does not have). False when the event is not in the
   * book or has no such line.
   */
  setOutcomeWords(eventId: number, lineId: number, words: OutcomeWords): boolean {
    const ev = this.book.get(eventId);
    if (!ev || !ev.markets.some((m) => m.lineId === lineId)) return false;
    ev.words.set(lineId, { ...words });
    return true;
  }

  /** Every scenario planned so far (still ahead, played or skipped), by when it begins. */
  scenarios(): Scenario[] {
    const out: Scenario[] = [];
    for (const list of this.planned.values()) for (const sc of list) out.push({ ...sc });
    return out.sort((a, b) => a.at - b.at || a.event_id - b.event_id);
  }

  private takeOffline(ev: SimEvent, now: number): void {
    // Everything goes offline (a score, the start of a match not offered live, the end): nothing stays held.
    for (const m of ev.markets) {
      m.hold = null;
      m.scripted = false;
    }
    const changed = ev.markets.filter((m) => m.prices !== null);
    for (const m of changed) {
      m.prices = null;
      m.updatedAtMs = now;
    }
    if (changed.length) this.emitOdds(ev, changed, now);
  }

  private stepSpecial(sp: SpecialState, now: number): void {
    if (sp.closed) return;
    if (now >= sp.cutoffMs) {
      sp.closed = true;
      const closing = sp.ticks[sp.ticks.length - 1];
      if (closing && sp.ticks.length > 1) closing.trueOdds = this.trueOdds(closing.odds);
      return;
    }
    if (now >= sp.nextRepriceMs) this.repriceSpecial(sp, false);
  }

  /** One max_win change: the special re-prices all its contestants at once, so every tick group is a whole market. */
  private repriceSpecial(sp: SpecialState, opening: boolean): void {
    const now = this.nowMs;
    const { rng } = sp;
    const steps = MAX_WIN_LADDER.length - 1;
    if (sp.futures) {
      sp.ladderIdx = opening ? 3 : Math.min(steps, Math.max(0, sp.ladderIdx + (rng.chance(0.5) ? 1 : -1)));
      sp.nextRepriceMs = now + rng.range(30, 120) * 60_000;
    } else {
      // Climb the ladder as the start nears: the index follows the share of the pre-match window already gone.
      const span = Math.max(1, sp.cutoffMs - sp.openedMs);
      const target = Math.min(steps - 1, Math.floor(((now - sp.openedMs) / span) * steps));
      if (!opening && target <= sp.ladderIdx) {
        sp.nextRepriceMs = now + STEP_MS * 12;
        return;
      }
      sp.ladderIdx = opening ? 0 : target;
      sp.nextRepriceMs = now + STEP_MS * 12;
    }
    const maxWin = MAX_WIN_LADDER[sp.ladderIdx] ?? 1000;
    if (!opening) for (const c of sp.contestants) c.weight += rng.normal() * 0.08;
    const odds = specialOdds(softmax(sp.contestants.map((c) => c.weight)), sp.margin);
    const prev = sp.ticks[sp.ticks.length - 1];
    const at = formatServiceTime(now);
    if (prev) {
      sp.contestants.forEach((c) =>
        this.maxWinLog.push({
          event_id: sp.ownerId,
          special_id: sp.specialId,
          contestant_id: c.id,
          from: prev.maxWin,
          to: maxWin,
          at,
        }),
      );
      if (this.maxWinLog.length > 20_000) this.maxWinLog.splice(0, this.maxWinLog.length - 10_000);
    }
    sp.ticks.push({ atMs: now, maxWin, odds, trueOdds: opening ? this.trueOdds(odds) : null });
    // Bounded history that never forgets the opening record.
    if (sp.ticks.length > SPECIAL_TICK_CAP) sp.ticks.splice(1, 1);
  }

  private trueOdds(odds: number[]): Record<DevigModel, number[]> {
    const out = {} as Record<DevigModel, number[]>;
    for (const m of DEVIG_MODELS) out[m] = devig(odds, m).fairOdds.map(trueOddsOf);
    return out;
  }

  // ---- settlement ----

  private settleBatch(now: number): void {
    const due = [...this.book.values()].filter((ev) => ev.phase === 'ended' && ev.settleMs <= now);
    due.sort((a, b) => a.id - b.id);
    for (const ev of due) {
      this.publishSettlement(ev, now);
      this.leaveBook(ev, 'settled');
    }
    this.trimSettled();
  }

  private publishSettlement(ev: SimEvent, now: number): void {
    this.settled.push(this.settlementOf(ev, now));
    this.settledSec.push(Math.floor(now / 1000));
    if (ev.sport.kind === 'sets') this.recordResults(ev, now);
  }

  private trimSettled(): void {
    if (this.settled.length <= this.settledCap) return;
    const drop = this.settled.length - this.settledCap;
    for (const old of this.settled.splice(0, drop)) {
      this.resultsById.delete(old.event_id);
      this.planned.delete(old.event_id);
      this.gone.delete(old.event_id);
    }
    this.settledSec.splice(0, drop);
  }

  /**
   * The busy day: beside the book's own batches, matches played elsewhere settle in a steady trickle (about 2 every
   * 5 s step), in crowded seconds (five a clock hour, 210-340 each, at :00 :12 :24 :36 :48) and in one flood a clock
   * hour (1,050-1,300 at :30). Heavily set sports. No sport gets more than 900 in one second, so a client can always
   * split a crowded second by sport within the page limit of 1,000.
   */
  private settleBulk(now: number): void {
    const rng = this.bulkRng;
    let count = rng.poisson(2);
    const inHour = now % 3_600_000;
    if (inHour % (12 * 60_000) === 0) count += rng.int(210, 340);
    if (inHour === 30 * 60_000) count += rng.int(1_050, 1_300);
    // The book's batch may have settled in this very second: it counts towards the per-sport bound too.
    const perSport = new Map<number, number>();
    const sec = Math.floor(now / 1000);
    for (let i = this.settled.length - 1; i >= 0 && this.settledSec[i] === sec; i--) {
      const sportId = this.settled[i]?.sport_id ?? 0;
      perSport.set(sportId, (perSport.get(sportId) ?? 0) + 1);
    }
    for (let i = 0; i < count; i++) {
      let sport = this.bulkSport(rng);
      for (let k = 0; (perSport.get(sport.id) ?? 0) >= 900 && k < SPORTS.length; k++)
        sport = SPORTS[(SPORTS.indexOf(sport) + 1) % SPORTS.length] ?? sport;
      perSport.set(sport.id, (perSport.get(sport.id) ?? 0) + 1);
      this.publishSettlement(this.playedElsewhere(sport, now, rng), now);
    }
    this.trimSettled();
  }

  /** Tennis 45%, table tennis 30%, volleyball 17%, the continuous sports 8% between them. */
  private bulkSport(rng: Prng): SportDef {
    const r = rng.next();
    const id = r < 0.45 ? 4 : r < 0.75 ? 6 : r < 0.92 ? 5 : r < 0.95 ? 1 : r < 0.98 ? 2 : 3;
    const sport = SPORTS.find((s) => s.id === id);
    if (!sport) throw new Error(`no sport ${id} in the catalogue`);
    return sport;
  }

  /** A whole match that never sat in this book, played out at once so it can settle `now`. */
  private playedElsewhere(sport: SportDef, now: number, parent: Prng): SimEvent {
    const id = this.nextBulkId;
    this.nextBulkId += parent.int(1, 3);
    const rng = parent.fork(id);
    const xrng = this.scenarioRng(id);
    const league = rng.pick(this.leagues.filter((l) => l.sport === sport));
    const home = rng.pick(league.teams);
    let away = rng.pick(league.teams);
    while (away === home) away = rng.pick(league.teams);
    const startsMs = Math.floor((now - (sport.durationMin * 1.3 + rng.range(2, 12)) * 60_000) / 60_000) * 60_000;
    const strength = rng.range(0.25, 0.75);
    const ev: SimEvent = {
      id,
      sport,
      league,
      home,
      away,
      startsMs,
      offeredLive: true,
      phase: 'ended',
      removeAtMs: null,
      endMs: 0,
      settleMs: now,
      timeline: [],
      timelineIdx: 0,
      sets: [],
      score: null,
      markets: [],
      nextTickMs: 0,
      suspendedUntilMs: 0,
      rng,
      xrng,
      bestOf: this.bestOfFor(sport, xrng),
      scenarios: [],
      voidStatus: null,
      words: new Map(),
      model: { strength: 0.5, lean: 0, leanBase: 0, tempo: 0, tempoBase: 0 },
      log: { nextId: 1, buffer: [] },
    };
    this.playMatch(ev, strength);
    const last = ev.timeline[ev.timeline.length - 1];
    ev.score = { home: last?.home ?? 0, away: last?.away ?? 0 };
    ev.markets = this.createMarkets(ev, strength);
    return ev;
  }

  private settlementOf(ev: SimEvent, now: number): SettledEvent {
    const h = ev.score?.home ?? 0;
    const a = ev.score?.away ?? 0;
    const lines: SettlementLine[] = ev.markets.map((m) => {
      const words = ev.words.get(m.lineId);
      const line = this.settlementLine(ev, m, h, a);
      // Scripted words (tests) are deliberately outside the service's vocabulary: the type is only what we expect.
      if (!words) return line;
      return {
        ...line,
        outcome_home: (words.home ?? line.outcome_home) as Outcome,
        outcome_draw: (words.draw ?? line.outcome_draw) as Outcome,
        outcome_away: (words.away ?? line.outcome_away) as Outcome,
      };
    });
    return {
      ...eventHead(ev),
      score_home: h,
      score_away: a,
      status: ev.voidStatus ?? 'ended',
      settled_at: formatServiceTime(now),
      settlement: lines,
    };
  }

  /**
   * One line's words. A void match (abandoned, cancelled) settles every line push on all three words. A quarter line
   * (x.25, x.75) is half on each neighbouring line, and the service's one word a side cannot say "half won": the word
   * is the side's result against the quarter line itself, which can never be level, so a half win reads `win` and a
   * half loss `loss` (the client settles full-match quarter lines from the final score).
   */
  private settlementLine(ev: SimEvent, m: MarketState, h: number, a: number): SettlementLine {
    if (ev.voidStatus !== null)
      return {
        line_id: m.lineId,
        period: 0,
        market: m.kind,
        line: m.line,
        outcome_home: 'push',
        outcome_draw: 'push',
        outcome_away: 'push',
      };
    const line = m.line ?? 0;
    let home: Outcome;
    let draw: Outcome = 'loss';
    let away: Outcome;
    if (m.kind === 'moneyline') {
      home = outcome(h - a);
      away = outcome(a - h);
      if (home === 'push') {
        home = 'loss';
        away = 'loss';
        draw = 'win';
      }
    } else if (m.kind === 'spread') {
      home = outcome(h + line - a);
      away = outcome(a - line - h);
    } else {
      const score = m.kind === 'totals' ? h + a : m.side === 'home' ? h : a;
      home = outcome(score - line);
      away = outcome(line - score);
    }
    return {
      line_id: m.lineId,
      period: 0,
      market: m.kind,
      line: m.line,
      outcome_home: home,
      outcome_draw: draw,
      outcome_away: away,
    };
  }

  /**
   * A void match publishes the sets it completed (one score step each) and a period 0 row carrying the set count
   * then and a cancellation_reason.
   */
  private recordResults(ev: SimEvent, now: number): void {
    const sets = ev.voidStatus === null ? ev.sets : ev.sets.slice(0, ev.timelineIdx);
    const rows = 1 + sets.length + sets.reduce((n, s) => n + s.games.length, 0);
    this.resultsById.set(ev.id, {
      eventId: ev.id,
      sets,
      cancellationReason: ev.voidStatus === null ? null : `Match ${ev.voidStatus}`,
      timestamp: formatServiceTime(now),
      firstSettlementId: this.nextSettlementId,
      publishAtMs: now + (this.busy?.resultsDelayMs ?? 0),
    });
    this.nextSettlementId += rows;
  }

  private periodResults(r: ResultsRecord): PeriodResult[] {
    const { timestamp } = r;
    let settlementId = r.firstSettlementId;
    const row = (
      period: number,
      homeWon: boolean | null,
      sets: [number, number] | null,
      cancellation: string | null = null,
    ): PeriodResult => ({
      event_id: r.eventId,
      period,
      status: 1,
      score_home: sets ? sets[0] : homeWon ? 1 : 0,
      score_away: sets ? sets[1] : homeWon ? 0 : 1,
      sets_home: sets ? sets[0] : null,
      sets_away: sets ? sets[1] : null,
      settlement_id: settlementId++,
      cancellation_reason: cancellation,
      timestamp,
    });
    const setsHome = r.sets.filter((s) => s.homeWon).length;
    const out = [row(0, null, [setsHome, r.sets.length - setsHome], r.cancellationReason)];
    r.sets.forEach((s, i) => out.push(row(i + 1, s.homeWon, null)));
    r.sets.forEach((s, i) =>
      s.games.forEach((homeWon, g) => out.push(row(tennisGamePeriod(i + 1, g + 1), homeWon, null))),
    );
    return out;
  }

  private leaveBook(ev: SimEvent, reason: 'settled' | 'removed'): void {
    ev.phase = reason;
    this.emit(ev, 'end', JSON.stringify({ event_id: ev.id, reason }));
    this.book.delete(ev.id);
    this.gone.set(ev.id, { reason, endId: ev.log.nextId - 1 });
    // Maps iterate in insertion order, so the first key is the longest gone.
    if (this.gone.size > 2 * this.settledCap) this.gone.delete(this.gone.keys().next().value as number);
    for (const sp of this.specials.values()) if (sp.ownerId === ev.id) this.specials.delete(sp.specialId);
  }

  // ---- stream log ----

  private emit(ev: SimEvent, event: StreamMessage['event'], data: string): void {
    const message: StreamMessage = { id: ev.log.nextId++, event, data };
    ev.log.buffer.push(message);
    if (ev.log.buffer.length > STREAM_BUFFER) ev.log.buffer.shift();
    this.listener(ev.id, message);
  }

  private emitOdds(ev: SimEvent, markets: MarketState[], now: number): void {
    this.emit(
      ev,
      'odds',
      JSON.stringify({ event_id: ev.id, ts: this.timeText(now), markets: markets.map((m) => this.marketView(m)) }),
    );
  }

  private emitScore(ev: SimEvent, now: number): void {
    const data = {
      event_id: ev.id,
      ts: formatServiceTime(now),
      live_status: this.liveStatus(ev),
      score_home: ev.score?.home ?? null,
      score_away: ev.score?.away ?? null,
    };
    this.emit(ev, 'score', JSON.stringify(data));
  }

  // ---- views (the shapes the API sends; key order fixed by construction) ----

  private liveStatus(ev: SimEvent): number {
    if (ev.phase === 'live') return LIVE_STATUS.liveNow;
    if (ev.phase === 'pre' && ev.offeredLive) return LIVE_STATUS.willBeLive;
    return LIVE_STATUS.notLive;
  }

  private marketView(m: MarketState): Market {
    return {
      line_id: m.lineId,
      period: 0,
      market: m.kind,
      side: m.side,
      line: m.line,
      prices: m.prices ? { ...m.prices } : null,
      max_win: m.maxWin,
      updated_at: this.timeText(m.updatedAtMs),
    };
  }

  /** The service's time text of an instant; the last one kept, since a tick writes the same instant on every line. */
  private timeText(ms: number): string {
    if (ms !== this.lastTime.ms) this.lastTime = { ms, text: formatServiceTime(ms) };
    return this.lastTime.text;
  }
  private lastTime = { ms: Number.NaN, text: '' };

  eventOdds(eventId: number): EventOdds | null {
    const ev = this.book.get(eventId);
    if (!ev) return null;
    return {
      ...eventHead(ev),
      live_status: this.liveStatus(ev),
      score_home: ev.score?.home ?? null,
      score_away: ev.score?.away ?? null,
      markets: ev.markets.map((m) => this.marketView(m)),
    };
  }

  /** Where the event's stream stands: in the book (with its log), gone (with why), or never known. */
  streamState(
    eventId: number,
  ):
    | { kind: 'live'; lastId: number; buffer: readonly StreamMessage[] }
    | { kind: 'gone'; reason: 'settled' | 'removed'; endId: number }
    | { kind: 'unknown' } {
    const ev = this.book.get(eventId);
    if (ev) return { kind: 'live', lastId: ev.log.nextId - 1, buffer: ev.log.buffer };
    const gone = this.gone.get(eventId);
    return gone ? { kind: 'gone', ...gone } : { kind: 'unknown' };
  }

  sports(): Array<{ sport_id: number; name: string }> {
    return SPORTS.map((s) => ({ sport_id: s.id, name: s.name }));
  }

  fixtures(sportId: number | null, liveOnly: boolean): Fixture[] {
    const out: Fixture[] = [];
    for (const ev of this.book.values()) {
      if (sportId !== null && ev.sport.id !== sportId) continue;
      const liveStatus = this.liveStatus(ev);
      if (liveOnly && liveStatus !== LIVE_STATUS.liveNow) continue;
      out.push({
        event_id: ev.id,
        sport_id: ev.sport.id,
        sport_name: ev.sport.name,
        league_id: ev.league.id,
        league_name: ev.league.name,
        runner_home: ev.home,
        runner_away: ev.away,
        starts: formatServiceTime(ev.startsMs),
        live_status: liveStatus,
      });
    }
    return out.sort((a, b) => a.event_id - b.event_id);
  }

  coverage(): { standard: Record<string, number> } {
    const standard: Record<string, number> = {};
    for (const s of SPORTS) standard[s.name] = 0;
    for (const ev of this.book.values()) standard[ev.sport.name] = (standard[ev.sport.name] ?? 0) + 1;
    return { standard };
  }

  /** Empty until the results are published (at once, or after the busy day's delay). */
  results(eventId: number): PeriodResult[] {
    const r = this.resultsById.get(eventId);
    return r && this.nowMs >= r.publishAtMs ? this.periodResults(r) : [];
  }

  settlement(eventId: number): SettledEvent | null {
    return this.settled.find((s) => s.event_id === eventId) ?? null;
  }

  /** settled_at >= sinceSec, oldest first, filtered, at most `limit`. */
  settledSince(
    sinceSec: number,
    filter: { sportId: number | null; leagueId: number | null },
    limit: number,
  ): Array<{ event: SettledEvent; sec: number }> {
    let lo = 0;
    let hi = this.settledSec.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.settledSec[mid] ?? 0) < sinceSec) lo = mid + 1;
      else hi = mid;
    }
    const out: Array<{ event: SettledEvent; sec: number }> = [];
    for (let i = lo; i < this.settled.length && out.length < limit; i++) {
      const event = this.settled[i];
      if (!event) continue;
      if (filter.sportId !== null && event.sport_id !== filter.sportId) continue;
      if (filter.leagueId !== null && event.league_id !== filter.leagueId) continue;
      out.push({ event, sec: this.settledSec[i] ?? 0 });
    }
    return out;
  }

  allSettled(): SettledEvent[] {
    return [...this.settled];
  }

  maxWinChanges(): MaxWinChange[] {
    return [...this.maxWinLog];
  }

  // ---- specials views ----

  private specialsOf(ownerId: number): SpecialState[] {
    return [...this.specials.values()].filter((sp) => sp.ownerId === ownerId);
  }

  private tickRows(sp: SpecialState, tick: SpecialTick, model: DevigModel, withTrue: boolean): SpecialOpening[] {
    const todds = devig(tick.odds, model).fairOdds;
    return sp.contestants.map((c, i) => {
      const row: SpecialOpening = {
        event_id: sp.ownerId,
        special_id: sp.specialId,
        special_name: sp.template.name,
        contestant_id: c.id,
        contestant_name: c.name,
        handicap: c.handicap,
        odds: tick.odds[i] ?? 1.01,
        todds: trueOddsOf(todds[i] ?? 1.01),
        period: 0,
        max_win: tick.maxWin,
        cutoff: formatServiceTime(sp.cutoffMs),
        timestamp: formatServiceTime(tick.atMs),
      };
      if (withTrue && tick.trueOdds) {
        const t = tick.trueOdds;
        row.true_odds_by_model = {
          LOG: t.LOG[i] ?? 1.001,
          EM: t.EM[i] ?? 1.001,
          MPTO: t.MPTO[i] ?? 1.001,
          SHIN: t.SHIN[i] ?? 1.001,
          OR: t.OR[i] ?? 1.001,
        };
      }
      return row;
    });
  }

  specialsOpening(eventId: number, specialId: number | null, model: DevigModel): SpecialOpening[] {
    return this.specialsOf(eventId)
      .filter((sp) => specialId === null || sp.specialId === specialId)
      .flatMap((sp) => (sp.ticks[0] ? this.tickRows(sp, sp.ticks[0], model, true) : []));
  }

  specialsHistory(eventId: number, specialId: number | null, model: DevigModel): SpecialOpening[] {
    return this.specialsOf(eventId)
      .filter((sp) => specialId === null || sp.specialId === specialId)
      .flatMap((sp) => sp.ticks.flatMap((t) => this.tickRows(sp, t, model, true)));
  }

  specialFixtures(eventId: number, hasOpening: boolean, hasClosing: boolean): SpecialFixture[] {
    const ev = this.book.get(eventId);
    return this.specialsOf(eventId)
      .filter((sp) => (!hasOpening || sp.ticks.length > 0) && (!hasClosing || (sp.closed && sp.ticks.length > 1)))
      .flatMap((sp) =>
        sp.contestants.map((c) => ({
          sport_id: sp.sport.id,
          league_id: sp.league.id,
          special_id: sp.specialId,
          bet_type: sp.template.betType,
          special_name: sp.template.name,
          starts: formatServiceTime(ev ? ev.startsMs : sp.cutoffMs),
          cutoff: formatServiceTime(sp.cutoffMs),
          category: sp.template.category,
          units: sp.template.units,
          event_id: sp.futures ? null : sp.ownerId,
          period: 0,
          runner_home: ev ? ev.home : null,
          runner_away: ev ? ev.away : null,
          contestant_id: c.id,
          contestant_name: c.name,
          timestamp: formatServiceTime(sp.ticks[sp.ticks.length - 1]?.atMs ?? sp.openedMs),
        })),
      );
  }

  outrightMarkets(minContestants: number, sportId: number | null, model: DevigModel): OutrightMarket[] {
    const out: OutrightMarket[] = [];
    for (const sp of this.specials.values()) {
      if (sp.closed || sp.contestants.length < minContestants) continue;
      if (sportId !== null && sp.sport.id !== sportId) continue;
      const tick = sp.ticks[sp.ticks.length - 1];
      if (!tick) continue;
      const ev = this.book.get(sp.ownerId);
      const todds = devig(tick.odds, model).fairOdds;
      out.push({
        event_id: sp.ownerId,
        special_id: sp.specialId,
        special_name: sp.template.name,
        cutoff: formatServiceTime(sp.cutoffMs),
        sport_id: sp.sport.id,
        sport_name: sp.sport.name,
        league_id: sp.league.id,
        league_name: sp.league.name,
        home: ev ? ev.home : sp.league.name,
        away: ev ? ev.away : 'Field',
        starts: formatServiceTime(ev ? ev.startsMs : sp.cutoffMs),
        live_status: ev ? this.liveStatus(ev) : LIVE_STATUS.notLive,
        contestants: sp.contestants.map((c, i) => ({
          name: c.name,
          handicap: c.handicap,
          odds: tick.odds[i] ?? 1.01,
          todds: trueOddsOf(todds[i] ?? 1.01),
        })),
      });
    }
    return out.sort((a, b) => a.special_id - b.special_id);
  }

  /** Events currently in the book, for tests and the CLI banner. */
  bookIds(): number[] {
    return [...this.book.keys()].sort((a, b) => a - b);
  }
}

/** Two-sided line prices alike (the ladder's own shapes: home/away or over/under, or none). */
function samePrices(a: Prices | null, b: Prices | null): boolean {
  if (a === null || b === null) return a === b;
  return a.home === b.home && a.away === b.away && a.over === b.over && a.under === b.under && a.draw === b.draw;
}
