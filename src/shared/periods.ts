// Period labels a trader reads: the service numbers periods (0 = full match, 1..N = periods, tennis games by
// period = 6 + 13 x (set - 1) + (game - 1)); this module owns turning those codes into words. Pure, no I/O.

/** Sports played in sets: each set and game settles as a binary result and period 0 carries the set count. */
const SET_SPORTS = ['tennis', 'volleyball', 'beach volleyball', 'table tennis', 'badminton', 'squash', 'padel'];

/** The first tennis game code (set 1, game 1); codes 1..5 below it are the sets themselves. */
const TENNIS_FIRST_GAME = 6;
/** Each set reserves 13 game codes (a tie-break is the 13th game). */
const TENNIS_GAMES_PER_SET = 13;

export function isSetSport(sportName: string): boolean {
  return SET_SPORTS.includes(sportName.trim().toLowerCase());
}

/** Set and game (both from 1) of a tennis game code, or null when the code is not a game. */
export function tennisGame(period: number): { set: number; game: number } | null {
  if (!Number.isInteger(period) || period < TENNIS_FIRST_GAME) return null;
  const n = period - TENNIS_FIRST_GAME;
  return { set: Math.floor(n / TENNIS_GAMES_PER_SET) + 1, game: (n % TENNIS_GAMES_PER_SET) + 1 };
}

/** Inverse of tennisGame, for tests and for the simulator's side of the same rule. */
export function tennisGamePeriod(set: number, game: number): number {
  return TENNIS_FIRST_GAME + TENNIS_GAMES_PER_SET * (set - 1) + (game - 1);
}

const ordinal = (n: number): string => {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${tail}`;
};

/**
 * Label of a period code. `sport` is the sport's name when known, or just whether it is played in sets (results
 * of an event whose sport we never saw still deserve set and game labels).
 */
export function periodLabel(sport: string | boolean, period: number): string {
  if (period === 0) return 'Full match';
  const name = typeof sport === 'string' ? sport.trim().toLowerCase() : '';
  const inSets = typeof sport === 'boolean' ? sport : isSetSport(name);
  if (inSets) {
    // Only tennis numbers games; other set sports stop at their last set, so a game code means tennis.
    const g = tennisGame(period);
    if (g) return `Set ${g.set} Game ${g.game}`;
    return `Set ${period}`;
  }
  if (name === 'soccer' || name === 'football') return period <= 2 ? `${ordinal(period)} half` : `Period ${period}`;
  if (name === 'basketball') return period <= 4 ? `Quarter ${period}` : `Period ${period}`;
  if (name === 'baseball') return `${ordinal(period)} inning`;
  return `Period ${period}`;
}

// ---- Labels from the service: /api/periods descriptions, market names and sides in words ----

/** The service's period descriptions (from /api/periods), by code; empty when the service was never asked. */
export type PeriodNames = ReadonlyMap<number, string>;

export const NO_PERIOD_NAMES: PeriodNames = new Map();

/** Builds the look-up from the /api/periods list (or its stored copy); blank descriptions are ignored. */
export function periodNames(list: ReadonlyArray<{ period: number; description: string }>): PeriodNames {
  const out = new Map<number, string>();
  for (const p of list) {
    const d = typeof p.description === 'string' ? p.description.trim() : '';
    if (Number.isInteger(p.period) && d) out.set(p.period, d);
  }
  return out;
}

/**
 * The one label of a period code: a tennis game code of a sport played in sets follows the spec's game rule (the
 * service's list is one list for every sport, so its text for code 6 may be another sport's); otherwise the
 * service's own description when it gave one; otherwise our guess by sport.
 */
export function labelPeriod(sport: string | boolean, period: number, names: PeriodNames = NO_PERIOD_NAMES): string {
  const inSets = typeof sport === 'boolean' ? sport : isSetSport(sport);
  if (inSets && tennisGame(period)) return periodLabel(true, period);
  return names.get(period) ?? periodLabel(sport, period);
}

/** The names of a market's three outcome columns (home, draw, away in the service's records). */
export function sideNames(market: string): { home: string; draw: string | null; away: string } {
  const m = market.trim().toLowerCase().replace(/[\s-]+/g, '_');
  // Totals and team totals settle over in the home column and under in the away column.
  if (m === 'totals' || m === 'total' || m === 'team_total' || m === 'team_totals') return { home: 'Over', draw: null, away: 'Under' };
  if (m === 'moneyline') return { home: 'Home', draw: 'Draw', away: 'Away' };
  return { home: 'Home', draw: null, away: 'Away' };
}

const MARKET_NAMES: Record<string, string> = {
  moneyline: 'Moneyline',
  spread: 'Spread',
  totals: 'Total',
  total: 'Total',
  team_total: 'Team total',
  team_totals: 'Team total',
};

/** "Spread -1.5", "Total 2.5", "Moneyline": a market and its line as a trader says it. */
export function marketLabel(market: string, line: number | null): string {
  const key = market.trim().toLowerCase().replace(/[\s-]+/g, '_');
  const name = MARKET_NAMES[key] ?? (key ? key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ') : 'Market');
  if (line === null || !Number.isFinite(line)) return name;
  const isSpread = key === 'spread';
  return `${name} ${isSpread && line > 0 ? '+' : ''}${line}`;
}

export type Outcome = 'win' | 'loss' | 'push';
const OUTCOME_WORD: Record<Outcome, string> = { win: 'won', loss: 'lost', push: 'push' };

export interface SettledLineLike {
  period: number;
  market: string;
  line: number | null;
  outcome_home: Outcome;
  outcome_draw: Outcome;
  outcome_away: Outcome;
}

/**
 * One settled line in words: "Spread -1.5 Home: won", "Total 2.5 Under: won", "Moneyline Draw: won",
 * "Spread 0: push"; a line of another period names it ("Total 1.5 Over (1st Set): won").
 */
export function settledLineWords(l: SettledLineLike, sport: string | boolean = false, names: PeriodNames = NO_PERIOD_NAMES): string {
  const sides = sideNames(l.market);
  const period = l.period === 0 ? '' : ` (${labelPeriod(sport, l.period, names)})`;
  const head = `${marketLabel(l.market, l.line)}`;
  const columns: Array<{ name: string; outcome: Outcome }> = [{ name: sides.home, outcome: l.outcome_home }];
  if (sides.draw !== null) columns.push({ name: sides.draw, outcome: l.outcome_draw });
  columns.push({ name: sides.away, outcome: l.outcome_away });
  const winners = columns.filter((c) => c.outcome === 'win');
  if (winners.length === 1) return `${head} ${winners[0]!.name}${period}: won`;
  if (columns.every((c) => c.outcome === 'push')) return `${head}${period}: push`;
  // Anything else (two winners, half results, a void): every column, so nothing is hidden.
  return `${head}${period}: ${columns.map((c) => `${c.name} ${OUTCOME_WORD[c.outcome]}`).join(', ')}`;
}

/** A side's outcome in words for a table cell. */
export const outcomeWord = (o: Outcome): string => OUTCOME_WORD[o];
