// The six-month history file of bench/history.ts: what a busy desk records in six months, built through the store's
// own write path (the ingest the monitor and the writer thread apply, compaction on the store's manual clock, the
// closing-line follower's operations, the bet log, the settled walk's pages). The reckoning:
//
//   watched events   WATCHED_PER_DAY = 60 a day (a busy desk's card: football, tennis, basketball), each followed
//                    WATCHED_HOURS = 4 h (2 h before kick-off, 2 h in play), kick-offs spread 10:00 to 21:48
//   lines per event  LINES = 40 (the moneyline, 19 handicaps and 20 totals over the match and the first half)
//   ticks            TICKS_PER_LINE_HOUR = 30 per line per hour while watched, on average: the main lines move every
//                    few seconds in play, the alternative and half lines a few times an hour. The raw hour is folded
//                    into one-minute bars (one blob per line per hour; a minute with ticks is one bar whatever their
//                    number, so the file's size is set by the minutes with ticks, here half of them)
//   retention        tick history kept RETENTION_DAYS = 365 (Settings: the desk keeps what it recorded; at the
//                    default 30 days the bars would be a sixth of this), so six months of bars are in the file
//   settlements      SETTLED_PER_DAY = 1,500 a day from the service's settled feed (every match it settles, watched
//                    or not), SETTLED_LINES = 12 lines each; the watched ones settle with all their 40 lines
//   closes           every watched line's opening and closing price (line_closes), closed at kick-off
//   bets             BETS_PER_DAY = 40 a day on the watched lines
//   watchlist        the last day's 60 events are watched (the first screen's rows)
//
// Over 182 days: 10,920 watched events, 1.75 M watched line-hours (2.1 M clock-hour bar blocks: a 4-hour watch spans 5
// clock hours), 52 M ticks, 273,000 settlements (3.58 M settlement lines), 437,000 closes, 7,280 bets: a 1.65 GB file.
// `--months N` builds N months (30.4 days each).
//
// Build time: ticks and compaction are nine tenths of it, so one day in TICK_DAY_EVERY (and the last) has its ticks
// written and compacted; the other days' bar blocks and change points are the compacted day's, moved to their own
// event ids and hours by SQL (copyBars). Everything else (snapshots, closes, bets, settlements) goes through the store
// for every day. Six months took 680 s on a 2-core machine at load average 14.
//
// The file is cached under the OS temp dir, named by GENERATOR_VERSION and the length: a second run reuses it (bump
// the version when the generator changes). A build that did not finish leaves no file under the name.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type LineCloseOp, type Store, type TickBatch } from '../src/core/store';
import { formatServiceTime, type EventOdds, type Market, type SettledEvent } from '../src/shared/api';
import type { PriceSide } from '../src/shared/domain';
import { teamName } from '../test/store/gen';

export const GENERATOR_VERSION = 1;

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
export const WATCHED_PER_DAY = 60;
const WATCHED_HOURS = 4;
export const LINES = 40;
const TICKS_PER_LINE_HOUR = 30;
const RETENTION_DAYS = 365;
const SETTLED_PER_DAY = 1_500;
const SETTLED_LINES = 12;
const BETS_PER_DAY = 40;
/**
 * Ticks go through ingest and compaction on one day in this many and the last (the others' bars are that day's,
 * moved: see copyBars); ticks and compaction are nine tenths of the build's time.
 */
const TICK_DAY_EVERY = 14;
const tickDay = (d: number, days: number) => d % TICK_DAY_EVERY === 0 || d === days - 1;
/** A batch every this often per event, with this many of its lines: each line every LINES / PER_BATCH batches. */
const BATCH_EVERY_MS = 30_000;
const PER_BATCH = Math.round((LINES * TICKS_PER_LINE_HOUR * BATCH_EVERY_MS) / HOUR);
/** The history's last day ends here (a Monday): deterministic, whatever the date the bench runs. */
export const HISTORY_END = Date.UTC(2026, 5, 29);
const SPORTS = [
  { sport_id: 29, name: 'Soccer' },
  { sport_id: 33, name: 'Tennis' },
  { sport_id: 4, name: 'Basketball' },
];

export interface HistoryPlan {
  months: number;
  days: number;
  from: number;
  to: number;
}

export const planFor = (months: number): HistoryPlan => {
  const days = Math.max(1, Math.round(months * 30.4));
  return { months, days, from: HISTORY_END - days * DAY, to: HISTORY_END };
};

/** The reckoning, in numbers, for the plan's length. */
export function reckoning(p: HistoryPlan): string[] {
  const events = p.days * WATCHED_PER_DAY;
  const lineHours = events * LINES * WATCHED_HOURS;
  const tickDays = Array.from({ length: p.days }, (_, d) => d).filter((d) => tickDay(d, p.days)).length;
  return [
    `${p.days} days (${p.months} months) ending ${new Date(p.to).toISOString().slice(0, 10)}`,
    `${WATCHED_PER_DAY} watched events a day x ${LINES} lines x ${WATCHED_HOURS} h watched = ${WATCHED_PER_DAY * LINES * WATCHED_HOURS} line-hours a day; ${events} events, ${(lineHours / 1e6).toFixed(2)} M line-hours of one-minute bars in all`,
    `${TICKS_PER_LINE_HOUR} ticks per line per hour while watched = ${((lineHours * TICKS_PER_LINE_HOUR) / 1e6).toFixed(1)} M ticks, folded into bars (raw window 1 h, retention ${RETENTION_DAYS} days); ${tickDays} of the ${p.days} days' ticks (${((tickDays * WATCHED_PER_DAY * LINES * WATCHED_HOURS * TICKS_PER_LINE_HOUR) / 1e6).toFixed(1)} M) go through ingest and compaction, the other days' bars are those days' bars moved (copyBars)`,
    `${SETTLED_PER_DAY} settlements a day x ${SETTLED_LINES} lines (watched ones with their ${LINES}) = ${p.days * SETTLED_PER_DAY} settlements, ${((p.days * (SETTLED_PER_DAY * SETTLED_LINES + WATCHED_PER_DAY * (LINES - SETTLED_LINES))) / 1e6).toFixed(2)} M settlement lines`,
    `${events * LINES} closes (every watched line), ${p.days * BETS_PER_DAY} bets (${BETS_PER_DAY} a day), ${WATCHED_PER_DAY} events on the watchlist`,
  ];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** A line's market shape: line 0 the moneyline, then handicaps and totals, over the match and the first half. */
function lineShape(k: number): Pick<Market, 'period' | 'market' | 'line'> {
  if (k === 0) return { period: 0, market: 'moneyline', line: null };
  const period = k % 4 === 3 ? 1 : 0;
  if (k < 20) return { period, market: 'spread', line: -2.5 + (k % 10) * 0.5 };
  return { period, market: 'totals', line: 1.5 + (k % 8) * 0.5 };
}

/** Prices of line k of event e at step s: a slow drift, every number exact to the thousandth. */
function pricesOf(e: number, k: number, s: number): Market['prices'] {
  const drift = Math.sin((e * 7 + k * 13 + s) / 9) * 0.15;
  if (k === 0) return { home: round3(2.1 + drift), draw: 3.4, away: round3(3.5 - drift * 2) };
  const a = round3(1.9 + drift);
  const b = round3(1 + (1 / (a - 1)) * 0.93);
  return k < 20 ? { home: a, away: b } : { over: a, under: b };
}

function marketOf(e: number, k: number, s: number, at: number): Market {
  return {
    line_id: e * 100 + k,
    ...lineShape(k),
    side: null,
    prices: pricesOf(e, k, s),
    // The limit moves every 40 steps of a line: a change point now and then, as the book moves its limits.
    max_win: 1_000 + (Math.floor(s / 40) % 4) * 500,
    updated_at: formatServiceTime(at),
  };
}

interface Watched {
  eventId: number;
  sportId: number;
  starts: number;
  odds: EventOdds;
}

function watchedOf(day: number, dayStart: number, k: number): Watched {
  const eventId = 20_000_000 + day * 100 + k;
  const sport = SPORTS[k % SPORTS.length]!;
  const starts = dayStart + 10 * HOUR + k * 12 * MIN;
  const odds: EventOdds = {
    event_id: eventId,
    sport_id: sport.sport_id,
    league_id: 500 + (k % 25),
    league_name: `League ${k % 25}`,
    runner_home: teamName((day * 61 + k * 2) % 640),
    runner_away: teamName((day * 61 + k * 2 + 1) % 640),
    starts: formatServiceTime(starts),
    live_status: 0,
    score_home: null,
    score_away: null,
    markets: Array.from({ length: LINES }, (_, l) => marketOf(eventId, l, 0, starts - 2 * HOUR)),
  };
  return { eventId, sportId: sport.sport_id, starts, odds };
}

const OUTCOMES = ['win', 'loss', 'push'] as const;

function settledOf(w: Watched): SettledEvent {
  const o = w.odds;
  const home = w.eventId % 4;
  const away = (w.eventId * 3) % 3;
  return {
    event_id: o.event_id,
    sport_id: o.sport_id,
    league_id: o.league_id,
    league_name: o.league_name,
    runner_home: o.runner_home,
    runner_away: o.runner_away,
    starts: o.starts,
    score_home: home,
    score_away: away,
    status: 'ended',
    settled_at: formatServiceTime(w.starts + 2 * HOUR),
    settlement: o.markets.map((m, k) => ({
      line_id: m.line_id,
      period: m.period,
      market: m.market,
      line: m.line,
      outcome_home: OUTCOMES[(w.eventId + k) % 3]!,
      outcome_draw: home === away ? 'win' : 'loss',
      outcome_away: OUTCOMES[(w.eventId + k + 1) % 3]!,
    })),
  };
}

/** A match of the settled feed nobody watched: its lines only in its settlement. */
function unwatchedSettled(day: number, dayStart: number, j: number): SettledEvent {
  const eventId = 30_000_000 + day * 2_000 + j;
  const starts = dayStart + Math.floor((j * DAY) / SETTLED_PER_DAY) - 2 * HOUR;
  const sport = SPORTS[j % SPORTS.length]!;
  return {
    event_id: eventId,
    sport_id: sport.sport_id,
    league_id: 600 + (j % 60),
    league_name: `League ${60 + (j % 60)}`,
    runner_home: teamName((j * 7 + day) % 640),
    runner_away: teamName((j * 11 + day + 3) % 640),
    starts: formatServiceTime(starts),
    score_home: j % 4,
    score_away: (j * 3) % 4,
    status: 'ended',
    settled_at: formatServiceTime(starts + 2 * HOUR),
    settlement: Array.from({ length: SETTLED_LINES }, (_, k) => ({
      line_id: eventId * 100 + k,
      ...lineShape(k),
      outcome_home: OUTCOMES[(j + k) % 3]!,
      outcome_draw: 'loss',
      outcome_away: OUTCOMES[(j + k + 1) % 3]!,
    })),
  };
}

/** The day's ticks: every watched event's batches over its 4 hours, in time order (as the stream delivers them). */
function dayTicks(events: readonly Watched[]): TickBatch[] {
  const batches: TickBatch[] = [];
  for (const w of events) {
    const from = w.starts - 2 * HOUR;
    for (let s = 0, at = from; at < from + WATCHED_HOURS * HOUR; s++, at += BATCH_EVERY_MS) {
      const markets: Market[] = [];
      for (let i = 0; i < PER_BATCH; i++) markets.push(marketOf(w.eventId, (s * PER_BATCH + i) % LINES, s, at));
      batches.push({ eventId: w.eventId, markets, at: at + (w.eventId % 1000) });
    }
  }
  return batches.sort((a, b) => a.at - b.at);
}

const SIDES_OF = (k: number): PriceSide[] =>
  k === 0 ? ['home', 'draw', 'away'] : k < 20 ? ['home', 'away'] : ['over', 'under'];

/**
 * A day whose ticks did not go through ingest and compaction: its bars and max_win change points are the bars and
 * change points compaction wrote for day `from`, moved to this day's event ids, line ids and hours (a bar blob holds
 * minutes within its hour and prices, so the moved copy is the block compaction would have written for this day).
 */
function copyBars(db: Database.Database, from: number, to: number): void {
  const ids = (to - from) * 100;
  const lo = 20_000_000 + from * 100;
  const hi = lo + 99;
  db.exec(`
    INSERT INTO line_bars (event_id, line_id, hour, ticks, bars)
      SELECT event_id + ${ids}, line_id + ${ids * 100}, hour + ${(to - from) * 24}, ticks, bars
      FROM line_bars WHERE event_id BETWEEN ${lo} AND ${hi} ORDER BY rowid;
    INSERT OR IGNORE INTO line_max_win_points (event_id, line_id, at, max_win, previous_max_win, line, price_home, price_draw, price_away, price_over, price_under)
      SELECT event_id + ${ids}, line_id + ${ids * 100}, at + ${(to - from) * DAY}, max_win, previous_max_win, line, price_home, price_draw, price_away, price_over, price_under
      FROM line_max_win_points WHERE event_id BETWEEN ${lo} AND ${hi};`);
}

/** One day of a busy desk, written as the app writes it. */
function writeDay(
  store: Pick<Store, 'odds' | 'bets' | 'settlements' | 'maintenance'>,
  raw: Database.Database,
  setNow: (t: number) => void,
  day: number,
  dayStart: number,
  copyBarsFrom: number | null,
): void {
  const events = Array.from({ length: WATCHED_PER_DAY }, (_, k) => watchedOf(day, dayStart, k));
  // The morning: each event's snapshot and opening prices as its stream opens; the day's bets on its lines.
  setNow(dayStart + 8 * HOUR);
  for (const w of events) store.odds.recordSnapshot(w.odds, w.starts - 2 * HOUR);
  store.bets.applyLineCloseOps(
    events.flatMap((w) =>
      w.odds.markets.map((m): LineCloseOp => ({
        type: 'price',
        eventId: w.eventId,
        market: m,
        at: w.starts - 2 * HOUR,
      })),
    ),
  );
  for (let b = 0; b < BETS_PER_DAY; b++) {
    const w = events[(b * 7) % events.length]!;
    const k = (b * 11) % LINES;
    const m = w.odds.markets[k]!;
    const sides = SIDES_OF(k);
    const side = sides[b % sides.length]!;
    store.bets.addBet(
      {
        eventId: w.eventId,
        lineId: m.line_id,
        side,
        price: round3((m.prices![side] ?? 2) * 1.02),
        stake: 50 + (b % 10) * 25,
      },
      w.starts - HOUR,
    );
  }
  // The day's ticks, a few thousand messages a transaction as the writer groups them.
  if (copyBarsFrom === null) {
    const ticks = dayTicks(events);
    for (let i = 0; i < ticks.length; i += 4_000) store.odds.recordTickBatches(ticks.slice(i, i + 4_000));
  }
  // Kick-offs: the last pre-match price of every line, then the close.
  store.bets.applyLineCloseOps(
    events.flatMap((w) => [
      ...w.odds.markets.map((m, k): LineCloseOp => ({
        type: 'price',
        eventId: w.eventId,
        market: marketOf(w.eventId, k, 239, w.starts - MIN),
        at: w.starts - MIN,
      })),
      { type: 'kickoff', eventId: w.eventId, at: w.starts, reason: 'started', confirmed: true },
    ]),
  );
  // Night: the day's raw ticks folded into bars, in the store's own compaction steps, on the day's clock.
  setNow(dayStart + DAY + 2 * HOUR);
  if (copyBarsFrom === null) {
    for (;;) if (store.maintenance.compactStep({ maxRows: 50_000, budgetMs: Infinity }).done) break;
  } else {
    copyBars(raw, copyBarsFrom, day);
  }
  // The settled feed's page for the day: every match it settled, watched or not, newest last.
  const settled = [
    ...events.map(settledOf),
    ...Array.from({ length: SETTLED_PER_DAY - WATCHED_PER_DAY }, (_, j) => unwatchedSettled(day, dayStart, j)),
  ];
  settled.sort((a, b) => a.settled_at.localeCompare(b.settled_at));
  store.settlements.recordSettledPage(settled, Math.floor((dayStart + DAY) / 1000));
}

export interface BuiltHistory {
  path: string;
  plan: HistoryPlan;
  cached: boolean;
  buildS: number;
  bytes: number;
  watched: number[];
}

/** The cached file for the plan, built first when there is none. */
export function historyFile(months: number, log: (line: string) => void): BuiltHistory {
  const plan = planFor(months);
  const dir = join(tmpdir(), 'oddsdesk-bench-history');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `history-g${GENERATOR_VERSION}-${plan.days}d.db`);
  const lastDay = plan.days - 1;
  const watched = Array.from({ length: WATCHED_PER_DAY }, (_, k) => 20_000_000 + lastDay * 100 + k);
  if (existsSync(path)) return { path, plan, cached: true, buildS: 0, bytes: statSync(path).size, watched };
  const building = `${path}.building`;
  for (const f of [building, `${building}-wal`, `${building}-shm`]) rmSync(f, { force: true });
  let now = plan.from;
  const store = openStore({
    path: building,
    clock: () => now,
    retentionDays: RETENTION_DAYS,
    rawTickHours: 1,
    checkpoints: 'sqlite',
  });
  // A second connection for copyBars (the store keeps its SQL to itself), between the store's transactions.
  const raw = new Database(building);
  raw.pragma('busy_timeout = 5000');
  const started = performance.now();
  try {
    store.odds.recordSports(SPORTS);
    for (let d = 0; d < plan.days; d++) {
      writeDay(
        store,
        raw,
        (t) => (now = t),
        d,
        plan.from + d * DAY,
        tickDay(d, plan.days) ? null : d - (d % TICK_DAY_EVERY),
      );
      if (d % 10 === 9 || d === plan.days - 1)
        log(`  built day ${d + 1} of ${plan.days} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    for (const id of watched) store.watchlist.addWatch(id, HISTORY_END - 12 * HOUR);
    store.maintenance.maintain();
  } finally {
    raw.close();
    store.close();
  }
  renameSync(building, path);
  return {
    path,
    plan,
    cached: false,
    buildS: (performance.now() - started) / 1000,
    bytes: statSync(path).size,
    watched,
  };
}
