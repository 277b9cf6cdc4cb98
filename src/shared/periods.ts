// Period labels a trader reads: the service numbers periods (0 = full match, 1..N = periods, tennis games by
// period = 6 + 13 x (set - 1) + (game - 1)); this module owns turning those codes into words. Pure, no I/O.

/** Sports played in sets: each set and game settles as a binary result and period 0 carries the set count. */
const SET_SPORTS = ['tennis', 'volleyball', 'beach volleyball', 'table tennis', 'badminton', 'squash', 'padel'];

/** Sports whose matches are played to a winner (sets, overtime, extra innings): a moneyline with no draw. */
const DRAWLESS_SPORTS = [...SET_SPORTS, 'basketball', 'baseball'];

/**
 * Whether a draw result means anything for a match of this sport: not for one played to a winner, where the
 * service still sends the draw side of a moneyline's settlement (always a loss). An unknown sport may have draws.
 */
export function sportHasDraws(sportName: string | null | undefined): boolean {
  return !sportName || !DRAWLESS_SPORTS.includes(sportName.trim().toLowerCase());
}

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
    // Only tennis numbers games (an unknown sport in sets is guessed to be tennis); other set sports count sets.
    const g = name === 'tennis' || typeof sport === 'boolean' ? tennisGame(period) : null;
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
 * The one label of a period code: a tennis game code follows the spec's game rule (the service's list is one list
 * for every sport, so its text for code 6 may be another sport's); otherwise the service's own description when it
 * gave one; otherwise our guess by sport.
 */
export function labelPeriod(
  sport: string | boolean,
  period: number,
  names: PeriodNames = NO_PERIOD_NAMES,
  opts: { asTheServiceSays?: boolean } = {},
): string {
  // The game rule is tennis's (docs/service/interface.md: "in tennis, each game has period = ..."): table tennis,
  // volleyball and the rest number their periods as the service's list says. An event whose sport we never saw but
  // which is played in sets falls back to the game rule only where the service's list has no word for the code.
  // Period 0 is "Full match" on every screen, alert and report, whatever the service calls it ("Match"): one word for
  // one thing. The CLI's export keeps the service's own description (`asTheServiceSays`): its files say what the
  // service said, as they always have.
  if (period === 0 && !(opts.asTheServiceSays && names.has(0))) return periodLabel(sport, 0);
  const gameRule = typeof sport === 'string' ? isTennis(sport) : sport && !names.has(period);
  if (gameRule && tennisGame(period)) return periodLabel(true, period);
  const said = names.get(period);
  if (said === undefined) return periodLabel(sport, period);
  return typeof sport === 'string' && !opts.asTheServiceSays ? sportsAlternative(said, sport) : said;
}

/**
 * One service description may name a period for several sports at once ("1st Half / 1st Set", "3rd Set / 3rd
 * Quarter": its list is one for every sport). A screen shows the alternative that is this sport's (a set for a sport
 * played in sets, a quarter in basketball, a half in soccer, an inning in baseball); a description with no such
 * alternative, or with more than one, is shown whole.
 */
function sportsAlternative(description: string, sport: string): string {
  const parts = description.split(' / ').map((p) => p.trim());
  if (parts.length < 2) return description;
  const name = sport.trim().toLowerCase();
  const word = isSetSport(name)
    ? /\bset\b/i
    : name === 'basketball'
      ? /\bquarter\b/i
      : name === 'soccer' || name === 'football'
        ? /\bhalf\b/i
        : name === 'baseball'
          ? /\binning\b/i
          : null;
  const mine = word ? parts.filter((p) => word.test(p)) : [];
  return mine.length === 1 ? mine[0]! : description;
}

export const isTennis = (sportName: string): boolean => sportName.trim().toLowerCase() === 'tennis';
