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
