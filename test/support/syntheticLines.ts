// Synthetic settled lines with a known answer, for the scoreboard's tests and the benchmark: true chances drawn at
// random, priced with a known margin shape (each the shape one de-vig model undoes exactly), and settled by a draw
// from the true chances. Seeded: the same lines every run.
import type { SettledClose } from '../../src/core/report/scoreboard';
import type { LineCloseOp, Store } from '../../src/core/store';
import { formatServiceTime, type DevigModel, type Prices, type SettledEvent } from '../../src/shared/api';

/** mulberry32: a small seeded generator, uniform on [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The book's shape parameter per model: EM and MPTO take a 14% overround (scaled, or shared out equally); LOG raises
 * each chance to the power 1/1.14; OR multiplies each chance's odds ratio by 1.3; SHIN has 12% insider money. A
 * three-way market comes out at a 9% to 20% overround under each: a heavy-margin book, because the models differ by
 * the square of the margin, and a light one takes hundreds of thousands of lines to tell LOG, SHIN and OR apart.
 */
export const SHAPES = { EM: 0.14, MPTO: 0.14, LOG: 1.14, OR: 1.3, SHIN: 0.12 } as const satisfies Record<
  DevigModel,
  number
>;

/**
 * Implied probabilities (1 / odds) of true chances `p` in the shape `model` undoes exactly: EM scales every chance by
 * 1 + M; MPTO adds M / n to each; LOG raises each to the power 1/k; OR multiplies each chance's odds ratio by c;
 * SHIN is Shin's book with insider share z: the implied probability of i is √(z·p_i + (1 − z)·p_i²) · Σ_j √(z·p_j +
 * (1 − z)·p_j²).
 */
export function priceWith(model: DevigModel, p: readonly number[], shape: number = SHAPES[model]): number[] {
  switch (model) {
    case 'EM':
      return p.map((x) => x * (1 + shape));
    case 'MPTO':
      return p.map((x) => x + shape / p.length);
    case 'LOG':
      return p.map((x) => x ** (1 / shape));
    case 'OR':
      return p.map((x) => (shape * x) / (1 - x + shape * x));
    case 'SHIN': {
      const q = p.map((x) => Math.sqrt(shape * x + (1 - shape) * x * x));
      const s = q.reduce((a, b) => a + b, 0);
      return q.map((x) => x * s);
    }
  }
}

export interface SyntheticOptions {
  model: DevigModel;
  matches: number;
  seed: number;
  /** Sports the matches are spread over (ids 1..n, default 1). */
  sports?: number;
}

/**
 * Each match: a lopsided three-way moneyline (a favourite, a draw at 12%-28%, a longshot at 3%-8%: where the
 * models disagree most) and a two-way spread (home 6%-84%), both priced in the model's shape and settled by drawing
 * from the true chances.
 */
export function syntheticLines(o: SyntheticOptions): SettledClose[] {
  const rnd = seeded(o.seed);
  const lines: SettledClose[] = [];
  const draw = (p: readonly number[]) => {
    let u = rnd();
    for (let i = 0; i < p.length; i++) if ((u -= p[i]!) < 0) return i;
    return p.length - 1;
  };
  const word = (won: number, side: number) => (won === side ? 'win' : 'loss');
  const line = (
    eventId: number,
    sportId: number,
    market: string,
    handicap: number | null,
    home: number,
    drawPrice: number | null,
    away: number,
    words: [string, string, string],
  ): SettledClose => ({
    eventId,
    sportId,
    period: 0,
    market,
    line: handicap,
    closeLine: handicap,
    closeHome: home,
    closeDraw: drawPrice,
    closeAway: away,
    closeOver: null,
    closeUnder: null,
    outcomeHome: words[0],
    outcomeDraw: words[1],
    outcomeAway: words[2],
    status: 'ended',
    scoreHome: null,
    scoreAway: null,
    team: null,
  });
  for (let m = 0; m < o.matches; m++) {
    const eventId = 1000 + m;
    const sportId = 1 + (m % (o.sports ?? 1));
    const longshot = 0.03 + 0.05 * rnd();
    const drawP = 0.12 + 0.16 * rnd();
    const favourite = 1 - longshot - drawP;
    const ml = rnd() < 0.5 ? [favourite, drawP, longshot] : [longshot, drawP, favourite];
    const [h, d, a] = priceWith(o.model, ml);
    const won = draw(ml);
    lines.push(
      line(eventId, sportId, 'moneyline', null, 1 / h!, 1 / d!, 1 / a!, [word(won, 0), word(won, 1), word(won, 2)]),
    );
    const sp = 0.06 + 0.78 * rnd();
    const [sh, sa] = priceWith(o.model, [sp, 1 - sp]);
    const spWon = draw([sp, 1 - sp]);
    lines.push(
      line(eventId, sportId, 'spread', -0.5, 1 / sh!, null, 1 / sa!, [word(spWon, 0), 'loss', word(spWon, 1)]),
    );
  }
  return lines;
}

export interface SyntheticHistoryOptions {
  /** Kick-off of the first match (ms); each next match kicks off a minute later. */
  firstKickOff?: number;
  /** Sport names by id (stored as the service's sports list). */
  sports?: Record<number, string>;
}

/**
 * Writes synthetic lines into a store the way the app records them: the settlements as the settled walk stores them
 * (recordSettledPage) and each line's close as the closing-line follower does (its last price before kick-off, then
 * the kick-off). Lines of one match must be adjacent; each gets line id eventId × 10 + its place in the match.
 */
export function writeSyntheticHistory(
  store: Pick<Store, 'odds' | 'bets' | 'settlements' | 'transaction'>,
  lines: readonly SettledClose[],
  o: SyntheticHistoryOptions = {},
): void {
  const first = o.firstKickOff ?? Date.UTC(2026, 0, 1, 12);
  if (o.sports) store.odds.recordSports(Object.entries(o.sports).map(([id, name]) => ({ sport_id: Number(id), name })));
  let cursor = 0;
  const BATCH = 2_000;
  let events: SettledEvent[] = [];
  let ops: LineCloseOp[] = [];
  const flush = () => {
    store.transaction(() => {
      store.settlements.recordSettledPage(events, ++cursor);
      store.bets.applyLineCloseOps(ops);
    });
    events = [];
    ops = [];
  };
  for (let i = 0, match = 0; i < lines.length; match++) {
    const eventId = lines[i]!.eventId;
    const kickOff = first + match * 60_000;
    const settlement: SettledEvent['settlement'] = [];
    for (let k = 0; i < lines.length && lines[i]!.eventId === eventId; i++, k++) {
      const l = lines[i]!;
      const lineId = eventId * 10 + k;
      settlement.push({
        line_id: lineId,
        period: l.period,
        market: l.market,
        line: l.line,
        outcome_home: l.outcomeHome,
        outcome_draw: l.outcomeDraw,
        outcome_away: l.outcomeAway,
      });
      const prices: Prices = {};
      if (l.closeHome !== null) prices.home = l.closeHome;
      if (l.closeDraw !== null) prices.draw = l.closeDraw;
      if (l.closeAway !== null) prices.away = l.closeAway;
      if (l.closeOver !== null) prices.over = l.closeOver;
      if (l.closeUnder !== null) prices.under = l.closeUnder;
      const side = l.team === 'home' || l.team === 'away' ? l.team : null;
      ops.push({
        type: 'price',
        eventId,
        at: kickOff - 60_000,
        market: {
          line_id: lineId,
          period: l.period,
          market: l.market,
          side,
          line: l.closeLine,
          prices,
          max_win: 1000,
          updated_at: formatServiceTime(kickOff - 60_000),
        },
      });
    }
    ops.push({ type: 'kickoff', eventId, at: kickOff, reason: 'kickoff', confirmed: true });
    const l = lines[i - 1]!;
    events.push({
      event_id: eventId,
      sport_id: l.sportId,
      league_id: 1,
      league_name: 'Synthetic League',
      runner_home: `Home ${eventId}`,
      runner_away: `Away ${eventId}`,
      starts: formatServiceTime(kickOff),
      score_home: l.scoreHome ?? 0,
      score_away: l.scoreAway ?? 0,
      status: l.status,
      settled_at: formatServiceTime(kickOff + 2 * 3_600_000),
      settlement,
    });
    if (events.length >= BATCH) flush();
  }
  if (events.length) flush();
}
