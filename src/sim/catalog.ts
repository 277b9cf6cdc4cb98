// The simulator's fixed catalogue: sports (how they score, what lines they carry), league and name pools, special
// templates and the period list. Data only; the moving parts live in world.ts.
import type { Period } from '../shared/api';

export type ScoringKind = 'continuous' | 'sets';

export interface SportDef {
  id: number;
  name: string;
  kind: ScoringKind;
  /** Can a match end level? Only soccer here; the others play on until someone wins. */
  draw: boolean;
  /** Best of N sets, for set sports. */
  bestOf: number;
  durationMin: number;
  units: string;
  leagues: string[];
  /** Typical full-match score per side, used to place spread and totals lines. */
  meanScore: number;
}

export const SPORTS: readonly SportDef[] = [
  {
    id: 1,
    name: 'Soccer',
    kind: 'continuous',
    draw: true,
    bestOf: 0,
    durationMin: 110,
    units: 'Goals',
    meanScore: 1.35,
    leagues: ['Premier Division', 'Coastal League', 'Northern Cup'],
  },
  {
    id: 2,
    name: 'Basketball',
    kind: 'continuous',
    draw: false,
    bestOf: 0,
    durationMin: 140,
    units: 'Points',
    meanScore: 108,
    leagues: ['Pro Basketball League', 'Continental Series'],
  },
  {
    id: 3,
    name: 'Baseball',
    kind: 'continuous',
    draw: false,
    bestOf: 0,
    durationMin: 170,
    units: 'Runs',
    meanScore: 4.4,
    leagues: ['Major Baseball', 'Winter League'],
  },
  {
    id: 4,
    name: 'Tennis',
    kind: 'sets',
    draw: false,
    bestOf: 3,
    durationMin: 100,
    units: 'Sets',
    meanScore: 1.4,
    leagues: ['ATP Harbour Open', 'WTA Valley Classic'],
  },
  {
    id: 5,
    name: 'Volleyball',
    kind: 'sets',
    draw: false,
    bestOf: 5,
    durationMin: 100,
    units: 'Sets',
    meanScore: 2.1,
    leagues: ['Volley Superliga', 'Euro Volley Cup'],
  },
  {
    id: 6,
    name: 'Table Tennis',
    kind: 'sets',
    draw: false,
    bestOf: 5,
    durationMin: 35,
    units: 'Sets',
    meanScore: 2.1,
    leagues: ['TT Elite Series', 'TT Masters'],
  },
];

/** Team sports get club names; the others get player names. */
export const INDIVIDUAL_SPORTS = new Set([4, 6]);

export const CITY_PARTS = [
  'North',
  'Port',
  'Ash',
  'Bright',
  'Stone',
  'River',
  'Oak',
  'Red',
  'Iron',
  'Silver',
  'Lake',
  'Green',
  'Wolf',
  'Kings',
  'Elm',
  'Frost',
];
export const CITY_ENDS = [
  'field',
  'ton',
  'bury',
  'haven',
  'ford',
  'wick',
  'mouth',
  'gate',
  'moor',
  'dale',
  'stead',
  'bridge',
];
export const CLUB_SUFFIX: Record<number, readonly string[]> = {
  1: ['FC', 'United', 'Athletic', 'Rovers', 'City'],
  2: ['Hawks', 'Giants', 'Comets', 'Bulls', 'Storm'],
  3: ['Pilots', 'Miners', 'Sox', 'Anchors', 'Owls'],
  5: ['VC', 'Volley', 'Spikers', 'Eagles'],
};
export const FIRST_NAMES = [
  'Alex',
  'Mia',
  'Luca',
  'Sara',
  'Jonas',
  'Ines',
  'Marek',
  'Yuki',
  'Tomas',
  'Lena',
  'Omar',
  'Nina',
  'Pavel',
  'Elif',
  'Diego',
  'Hana',
  'Rafael',
  'Ada',
  'Kofi',
  'Vera',
];
export const LAST_NAMES = [
  'Novak',
  'Berg',
  'Costa',
  'Lind',
  'Moreau',
  'Sato',
  'Kovac',
  'Reyes',
  'Haas',
  'Duarte',
  'Okafor',
  'Ivanova',
  'Brandt',
  'Silva',
  'Tanaka',
  'Weber',
  'Rossi',
  'Nilsen',
  'Petrov',
  'Aydin',
];

export type BetType = 'MULTI_WAY_HEAD_TO_HEAD' | 'SPREAD' | 'OVER_UNDER';

export interface SpecialTemplate {
  name: string;
  betType: BetType;
  category: string;
  units: string;
  /** Contestant names; `players` draws that many player names, `over_under` gives Over/Under at `line`. */
  contestants:
    | { kind: 'players'; count: number }
    | { kind: 'fixed'; names: string[] }
    | { kind: 'over_under'; line: number }
    | { kind: 'spread'; line: number };
}

export const SPECIAL_TEMPLATES: Record<number, readonly SpecialTemplate[]> = {
  1: [
    {
      name: 'First Goalscorer',
      betType: 'MULTI_WAY_HEAD_TO_HEAD',
      category: 'player props',
      units: 'Goals',
      contestants: { kind: 'players', count: 10 },
    },
    {
      name: 'Total Corners',
      betType: 'OVER_UNDER',
      category: 'specials',
      units: 'Corners',
      contestants: { kind: 'over_under', line: 9.5 },
    },
  ],
  2: [
    {
      name: 'Top Scorer',
      betType: 'MULTI_WAY_HEAD_TO_HEAD',
      category: 'player props',
      units: 'Points',
      contestants: { kind: 'players', count: 8 },
    },
    {
      name: 'Total Three Pointers',
      betType: 'OVER_UNDER',
      category: 'specials',
      units: 'Three Pointers',
      contestants: { kind: 'over_under', line: 24.5 },
    },
  ],
  3: [
    {
      name: 'Total Home Runs',
      betType: 'OVER_UNDER',
      category: 'specials',
      units: 'Home Runs',
      contestants: { kind: 'over_under', line: 2.5 },
    },
    {
      name: 'First Player to Homer',
      betType: 'MULTI_WAY_HEAD_TO_HEAD',
      category: 'player props',
      units: 'Home Runs',
      contestants: { kind: 'players', count: 9 },
    },
  ],
  4: [
    {
      name: 'Set Betting',
      betType: 'MULTI_WAY_HEAD_TO_HEAD',
      category: 'specials',
      units: 'Sets',
      contestants: { kind: 'fixed', names: ['2-0', '2-1', '1-2', '0-2'] },
    },
    {
      name: 'Total Aces',
      betType: 'OVER_UNDER',
      category: 'player props',
      units: 'Aces',
      contestants: { kind: 'over_under', line: 11.5 },
    },
  ],
  5: [
    {
      name: 'Set Betting',
      betType: 'MULTI_WAY_HEAD_TO_HEAD',
      category: 'specials',
      units: 'Sets',
      contestants: { kind: 'fixed', names: ['3-0', '3-1', '3-2', '2-3', '1-3', '0-3'] },
    },
    {
      name: 'Total Points',
      betType: 'OVER_UNDER',
      category: 'specials',
      units: 'Points',
      contestants: { kind: 'over_under', line: 181.5 },
    },
  ],
  6: [
    {
      name: 'Winning Margin',
      betType: 'SPREAD',
      category: 'specials',
      units: 'Sets',
      contestants: { kind: 'spread', line: 1.5 },
    },
  ],
};

/** Labels of the period codes the service lists; tennis games are not listed (derived by rule). */
export const PERIODS: readonly Period[] = [
  { period: 0, description: 'Match' },
  { period: 1, description: '1st Half / 1st Set' },
  { period: 2, description: '2nd Half / 2nd Set' },
  { period: 3, description: '3rd Set / 3rd Quarter' },
  { period: 4, description: '4th Set / 4th Quarter' },
  { period: 5, description: '5th Set' },
  // Table tennis best of 7 goes this far. The list is one list for every sport: in tennis these codes are games
  // (6 + 13 x (set - 1) + (game - 1)), which the service never lists.
  { period: 6, description: '6th Set' },
  { period: 7, description: '7th Set' },
];

/** The ladder max_win climbs towards the start, in account currency. */
export const MAX_WIN_LADDER = [250, 500, 1000, 1500, 2500, 4000, 6000, 8000, 10000, 15000, 20000];
