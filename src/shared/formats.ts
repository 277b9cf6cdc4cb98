// How numbers and times read, in one place (docs/trading.md, "Numbers on screen", says the rules in words): a
// decimal price in each odds format a trader may choose, percentages and signs, the colour rule, and times in the
// trader's zone on a 24-hour clock. The renderer, the CSV exports and the CLI read these; nothing else decides how a
// price or a time is written. Pure, no I/O: the language's Intl, and Luxon for a day's start in a zone.
import { DateTime } from 'luxon';
import { isUsablePrice } from './api';

// ---- odds formats ----

export const ODDS_FORMATS = [
  'decimal',
  'american',
  'fractional',
  'hongkong',
  'malay',
  'indonesian',
  'implied',
] as const;
export type OddsFormat = (typeof ODDS_FORMATS)[number];
export const DEFAULT_ODDS_FORMAT: OddsFormat = 'decimal';

/** The names a Settings list shows, with the same price (2.50) as an example. */
export const ODDS_FORMAT_NAMES: Record<OddsFormat, string> = {
  decimal: 'Decimal (2.500)',
  american: 'American (+150)',
  fractional: 'Fractional (3/2)',
  hongkong: 'Hong Kong (1.500)',
  malay: 'Malay (-0.667)',
  indonesian: 'Indonesian (+1.500)',
  implied: 'Implied probability (40.0%)',
};

/** The short name a column header or a CSV cell carries. */
export const ODDS_FORMAT_SHORT: Record<OddsFormat, string> = {
  decimal: 'decimal',
  american: 'US',
  fractional: 'frac',
  hongkong: 'HK',
  malay: 'MY',
  indonesian: 'ID',
  implied: '%',
};

export const isOddsFormat = (x: unknown): x is OddsFormat =>
  typeof x === 'string' && (ODDS_FORMATS as readonly string[]).includes(x);

/**
 * Decimal prices, and the decimal-style formats made from them (Hong Kong, Malay, Indonesian), show three decimals,
 * everywhere: the book quotes three (1.952) and fair prices have three, so a column of them lines up and a fair price
 * is never rounded away. Two-decimal quotes read with a trailing zero (1.95 -> 1.950).
 */
export const PRICE_DECIMALS = 3;

/** Percentages (probabilities, moves, limit changes) show one decimal; CLV and ROI, where the second matters, two. */
export const PCT_DECIMALS = 1;
export const EDGE_PCT_DECIMALS = 2;

/** A price a format can write: finite and above 1 (a side at or below 1 is unpriced, docs/trading.md): the one rule. */
const usable = (d: number | null | undefined): d is number => isUsablePrice(d);

/** A number with an explicit sign: "+1.500", "-0.667"; zero has none. ASCII hyphen-minus, as lines and money have. */
export function signed(x: number, decimals: number): string {
  const text = Math.abs(x).toFixed(decimals);
  if (Number(text) === 0) return text;
  return `${x < 0 ? '-' : '+'}${text}`;
}

/**
 * A Malay or Indonesian price: signed, three decimals; one below 0.001, which three decimals would read as 0.000 or
 * 0.001 (Malay at 2001.5 is -0.0004999), keeps three significant digits and its sign ("-0.000500"): a price never
 * reads as zero, and a long price's move shows.
 */
function signedPrice(x: number): string {
  if (Math.abs(x) >= 0.001) return signed(x, PRICE_DECIMALS);
  return `${x < 0 ? '-' : '+'}${Math.abs(x).toPrecision(3)}`;
}

/**
 * Two prices that are a move (a drop's from and to, a price and the threshold it crossed) in `format`: where the
 * format would write both alike though the decimal shows them apart, each is written with its decimal beside it
 * ("40/1 (46.000) → 40/1 (41.500)"), so the trader's format never hides a move the decimal shows.
 */
export function formatOddsPair(a: number, b: number, format: OddsFormat): [string, string] {
  const fa = formatOdds(a, format);
  const fb = formatOdds(b, format);
  if (fa !== fb || format === 'decimal' || formatOdds(a, 'decimal') === formatOdds(b, 'decimal')) return [fa, fb];
  return [formatOddsWithDecimal(a, format), formatOddsWithDecimal(b, format)];
}

/**
 * Rounds the magnitude half up, keeping the sign (Math.round(-100.5) would give -100); the nudge absorbs binary
 * representation error (100 x (2.005 - 1) is 100.49999999999999).
 */
const roundAway = (x: number): number => Math.sign(x) * Math.round(Math.abs(x) + 1e-9);

/** American (moneyline) odds: decimal >= 2 -> +100(d - 1); below 2 -> -100/(d - 1). Evens (2.00) is +100. */
export function toAmerican(d: number): number {
  return d >= 2 ? roundAway(100 * (d - 1)) : roundAway(-100 / (d - 1));
}

/** Hong Kong odds: the profit per unit staked, d - 1 (never negative). */
export const toHongKong = (d: number): number => d - 1;

/** Malay odds: decimal >= 2 -> -1/(d - 1) (negative); below 2 -> d - 1 (positive). Evens reads -1.000. */
export const toMalay = (d: number): number => (d >= 2 ? -1 / (d - 1) : d - 1);

/** Indonesian odds: decimal >= 2 -> +(d - 1); below 2 -> -1/(d - 1). Evens reads +1.000. */
export const toIndonesian = (d: number): number => (d >= 2 ? d - 1 : -1 / (d - 1));

/** The implied probability of a decimal price, in percent (with the margin in it: the book's, not the fair one). */
export const impliedPct = (d: number): number => 100 / d;

/** A count with its noun agreeing in number: "1 bet", "2 bets", "1,204 lines" (`plural` for an irregular one). */
export const countOf = (n: number, noun: string, plural = `${noun}s`): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;

/**
 * The fractions a book prints, in their reduced form (6/4 reads 3/2, 4/6 reads 2/3, 100/30 reads 10/3), from 1/100 to
 * 1000/1. A price reads as the nearest of them (a tie: the shorter) only where it is that fraction quoted (a two-decimal
 * quote: the fraction rounded to two decimals, 1.91 is 10/11; a longer price: within LADDER_TOLERANCE); anywhere else
 * as its exact fraction (toFractional).
 */
export const FRACTION_LADDER: ReadonlyArray<readonly [number, number]> = [
  [1, 100],
  [1, 66],
  [1, 50],
  [1, 40],
  [1, 33],
  [1, 25],
  [1, 20],
  [1, 16],
  [1, 14],
  [1, 12],
  [1, 10],
  [1, 9],
  [1, 8],
  [2, 15],
  [1, 7],
  [2, 13],
  [1, 6],
  [2, 11],
  [1, 5],
  [2, 9],
  [1, 4],
  [2, 7],
  [3, 10],
  [1, 3],
  [4, 11],
  [2, 5],
  [4, 9],
  [1, 2],
  [8, 15],
  [4, 7],
  [8, 13],
  [2, 3],
  [8, 11],
  [4, 5],
  [5, 6],
  [10, 11],
  [1, 1],
  [21, 20],
  [11, 10],
  [6, 5],
  [5, 4],
  [11, 8],
  [3, 2],
  [13, 8],
  [7, 4],
  [15, 8],
  [2, 1],
  [9, 4],
  [5, 2],
  [11, 4],
  [3, 1],
  [10, 3],
  [7, 2],
  [4, 1],
  [9, 2],
  [5, 1],
  [11, 2],
  [6, 1],
  [13, 2],
  [7, 1],
  [15, 2],
  [8, 1],
  [17, 2],
  [9, 1],
  [10, 1],
  [11, 1],
  [12, 1],
  [14, 1],
  [16, 1],
  [18, 1],
  [20, 1],
  [22, 1],
  [25, 1],
  [28, 1],
  [33, 1],
  [40, 1],
  [50, 1],
  [66, 1],
  [80, 1],
  [100, 1],
  [125, 1],
  [150, 1],
  [200, 1],
  [250, 1],
  [300, 1],
  [400, 1],
  [500, 1],
  [750, 1],
  [1000, 1],
];

/**
 * How far (in decimal odds) a price quoted to more than two decimals may be from a ladder fraction and still read as
 * it: half a cent, the rounding of a two-decimal quote of the fraction (10/11 is 1.909..., quoted 1.91). A price
 * further away reads exactly, so a move the decimal shows is never hidden: 1.95 is 19/20, not 10/11; 46.0 is 45/1 and
 * 41.5 is 81/2, not both 40/1.
 */
export const LADDER_TOLERANCE = 0.005;

/** A price quoted to two decimals or fewer (1.23, 41.5, 46): its hundredths, else null (1.952). */
function hundredths(d: number): number | null {
  const h = Math.round(d * 100);
  return Math.abs(d * 100 - h) < 1e-6 ? h : null;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * A decimal price as a fraction [numerator, denominator] of its profit d - 1, as a trader reads it:
 * - the nearest ladder fraction where the price is it quoted: a two-decimal price that is the fraction rounded to two
 *   decimals (2.5 -> [3, 2], 1.91 -> [10, 11], 2.38 -> [11, 8]), a longer one within LADDER_TOLERANCE (1.667 -> [2, 3]);
 * - else a two-decimal price's own quote, reduced (1.23 -> [23, 100], 1.95 -> [19, 20], 41.5 -> [81, 2], 46 -> [45, 1]);
 * - else the simplest fraction that reads as the price does to three decimals (1.952 -> [20, 21]).
 * Two different two-decimal quotes never read alike: each reads as its own value or as the one ladder fraction whose
 * two-decimal quote it is.
 */
export function toFractional(d: number): [number, number] {
  const ladder = nearestLadder(d - 1);
  const h = hundredths(d);
  if (h !== null) {
    // Half up, as a book quotes: 11/8 (2.375) is 2.38, so 2.37 reads as itself (137/100), never 11/8 beside 2.38.
    if (Math.round((ladder[0] / ladder[1] + 1) * 100 + 1e-9) === h) return ladder;
    const g = gcd(h - 100, 100);
    return [(h - 100) / g, 100 / g];
  }
  if (Math.abs(ladder[0] / ladder[1] + 1 - d) <= LADDER_TOLERANCE + 1e-9) return ladder;
  const x = Math.round((d - 1) * 1000) / 1000;
  return simplestFraction(Math.max(1e-9, x - 0.0005 + 1e-9), x + 0.0005 - 1e-9);
}

/** The simplest fraction [p, q] (smallest denominator, then numerator) in [lo, hi], 0 <= lo <= hi (Stern-Brocot). */
function simplestFraction(lo: number, hi: number, depth = 0): [number, number] {
  const whole = Math.ceil(lo);
  if (whole <= hi || depth > 40) return [Math.max(whole, 0), 1];
  const f = Math.floor(lo);
  // lo = f + a, hi = f + b with 0 < a < b < 1: the simplest in [a, b] is 1 over the simplest in [1/b, 1/a].
  const [p, q] = simplestFraction(1 / (hi - f), 1 / (lo - f), depth + 1);
  return [f * p + q, p];
}

/** The ladder fraction nearest a profit (a tie: the shorter). */
function nearestLadder(profit: number): [number, number] {
  let best = FRACTION_LADDER[0]!;
  let gap = Math.abs(best[0] / best[1] - profit);
  for (const f of FRACTION_LADDER) {
    const g = Math.abs(f[0] / f[1] - profit);
    // The ladder is in rising order, so on a tie the first (shorter) fraction stays.
    if (g < gap - 1e-12) {
      best = f;
      gap = g;
    }
  }
  return [best[0], best[1]];
}

/**
 * A decimal price in the chosen format: decimal "2.500", American "+150" / "-105", fractional "3/2", Hong Kong
 * "1.500", Malay "-0.667" / "+0.500", Indonesian "+1.500" / "-2.000", implied "40.0%". No price (null, not finite,
 * at or below 1): "—".
 */
export function formatOdds(d: number | null | undefined, format: OddsFormat = DEFAULT_ODDS_FORMAT): string {
  if (!usable(d)) return '—';
  switch (format) {
    case 'decimal':
      return d.toFixed(PRICE_DECIMALS);
    case 'american': {
      const a = toAmerican(d);
      return a > 0 ? `+${a}` : String(a);
    }
    case 'fractional': {
      const [n, m] = toFractional(d);
      return `${n}/${m}`;
    }
    case 'hongkong':
      return toHongKong(d).toFixed(PRICE_DECIMALS);
    case 'malay':
      return signedPrice(toMalay(d));
    case 'indonesian':
      return signedPrice(toIndonesian(d));
    case 'implied':
      return `${impliedPct(d).toFixed(PCT_DECIMALS)}%`;
  }
}

/**
 * The price in the chosen format as a spreadsheet cell: a number where the format is one (American 150 for +150,
 * Malay -0.667, implied 40 for 40.0%, rounded as the screen shows it), the text "3/2" for fractional; null for no
 * price. A cell is never text that starts with + or - (a CSV writer would neutralise it as a formula).
 */
export function oddsCell(d: number | null | undefined, format: OddsFormat): number | string | null {
  if (!usable(d)) return null;
  if (format === 'fractional') return formatOdds(d, format);
  return Number(formatOdds(d, format).replace('%', ''));
}

/** The price as it is shown beside its decimal form, for a hover or an export: "+150 (2.500)"; decimal alone as is. */
export function formatOddsWithDecimal(d: number | null | undefined, format: OddsFormat): string {
  const shown = formatOdds(d, format);
  return format === 'decimal' || !usable(d) ? shown : `${shown} (${formatOdds(d, 'decimal')})`;
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * An alert's words with its prices in `format`. The core writes them in decimal (the desktop notifications keep
 * them so); the prices are in the alert's data, so the figures are written again in the chosen format where the words
 * hold them: a drop's "fair 2.054 → 1.853", a threshold's "price 1.95 crossed 2" (decimal too gets its three places).
 * Words of another shape are left as they are.
 */
export function alertWordsIn(a: { kind: string; message: string; data?: unknown }, format: OddsFormat): string {
  const d = (a.data && typeof a.data === 'object' ? a.data : {}) as Record<string, unknown>;
  const from = d['from'];
  const to = d['to'];
  const price = d['price'];
  const threshold = d['threshold'];
  if (a.kind === 'drop' && isNum(from) && isNum(to)) {
    // A drop episode (several lines) lists each named line's move; a single drop has its own at the top.
    const lines =
      Array.isArray(d['lines']) && d['lines'].length > 1
        ? (d['lines'] as Array<Record<string, unknown>>)
        : [{ from, to }];
    let words = a.message;
    for (const l of lines) {
      const f = l['from'];
      const t = l['to'];
      if (!isNum(f) || !isNum(t)) continue;
      const [pf, pt] = formatOddsPair(f, t, format);
      words = words.replace(`fair ${f.toFixed(3)} → ${t.toFixed(3)}`, `fair\u00a0${pf} → ${pt}`);
    }
    return words.replace(/fair\u00a0/g, 'fair ');
  }
  if (a.kind === 'price' && isNum(price) && isNum(threshold)) {
    const [pp, pt] = formatOddsPair(price, threshold, format);
    return a.message.replace(`price ${price} crossed ${threshold}`, `price ${pp} crossed ${pt}`);
  }
  return a.message;
}

// ---- percentages, signs and colours ----

/** A percentage (already in percent): "12.3%"; `sign` writes "+" on a rise. None: "—". */
export function formatPercent(pct: number | null | undefined, o: { decimals?: number; sign?: boolean } = {}): string {
  if (pct == null || !Number.isFinite(pct)) return '—';
  const decimals = o.decimals ?? PCT_DECIMALS;
  return `${o.sign ? signed(pct, decimals) : pct.toFixed(decimals)}%`;
}

export type Tone = 'pos' | 'neg' | '';

/**
 * The one colour rule: a number that went up is green, one that went down red, whatever it measures (a price
 * drifting or shortening, a limit raised or cut, CLV, P/L). It follows the sign of the number as shown: a change that
 * rounds to zero has no colour. For a trader who wants to bet, a limit cut is bad (red) and a raise good (green).
 */
export function toneOf(x: number | null | undefined, decimals = PCT_DECIMALS): Tone {
  if (x == null || !Number.isFinite(x)) return '';
  const shown = Number(x.toFixed(decimals));
  return shown > 0 ? 'pos' : shown < 0 ? 'neg' : '';
}

/** The arrow beside a change, by the same rule as its colour: ▲ above zero, ▼ below, none at zero as shown. */
export function arrowOf(x: number | null | undefined, decimals = PCT_DECIMALS): '▲' | '▼' | '' {
  const t = toneOf(x, decimals);
  return t === 'pos' ? '▲' : t === 'neg' ? '▼' : '';
}

/**
 * A decimal price's relative move (percent) as the trader's format reads it: in implied-% mode the move of the
 * probability, which rises as the price shortens (a price 15% shorter is a probability 17.6% higher); otherwise as is.
 */
export function movePctIn(format: OddsFormat, pct: number | null | undefined): number | null {
  if (pct == null || !Number.isFinite(pct)) return null;
  return format === 'implied' ? (100 / (100 + pct) - 1) * 100 : pct;
}

/** The legend of that rule, as the screens and docs/trading.md say it. */
export const COLOUR_LEGEND =
  'Green ▲ went up (a price drifting, a limit raised, CLV or P/L above zero); red ▼ went down (a price shortening, a limit cut).';
/** The same legend in implied-% mode, where a shortening price is a probability going up. */
export const COLOUR_LEGEND_IMPLIED =
  'Green ▲ went up (a probability rising as its price shortens, a limit raised, CLV or P/L above zero); red ▼ went down (a probability falling as its price drifts, a limit cut).';

// ---- time zones and the 24-hour clock ----

/**
 * Zones the tz database renamed that ICU still answers by their old name (a machine set to Asia/Kolkata reads
 * "Asia/Calcutta" from Intl): the OS zone is shown by the name its trader knows. Both names work as a setting.
 */
const RENAMED_ZONES: Readonly<Record<string, string>> = {
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Godthab': 'America/Nuuk',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** The zone of the machine this runs on (the OS zone), as an IANA name; UTC where the runtime cannot say. */
export function systemTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    return RENAMED_ZONES[zone] ?? zone;
  } catch {
    return 'UTC';
  }
}

/**
 * An IANA zone name as kept and shown ("europe/london" -> "Europe/London"), or null when it is not one. An alias the
 * runtime knows under another name keeps the trader's spelling (Asia/Kolkata stays so, though ICU says Calcutta).
 */
export function canonicalTimeZone(name: string): string | null {
  // Names only: letters, digits and _ + - / (no offsets such as "+01:00", no spaces, nothing long).
  if (typeof name !== 'string' || name.length === 0 || name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name))
    return null;
  // Each answer is kept: asking Intl builds a formatter, and the screens ask on every update (a page profile under a
  // busy load had this at 5% of its time). Zones are a few hundred names, so the map stays small.
  const known = canonicalZones.get(name);
  if (known !== undefined) return known;
  let answer: string | null;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    answer = resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
  } catch {
    answer = null;
  }
  if (canonicalZones.size < 1_000) canonicalZones.set(name, answer);
  return answer;
}
const canonicalZones = new Map<string, string | null>();

export const isTimeZone = (name: string): boolean => canonicalTimeZone(name) !== null;

let lastResolved: { zone: string | null | undefined; resolved: string } | null = null;

/**
 * The zone to show times in: the setting when it names one, else the OS zone. Screens ask on every store update, so
 * the last answer is kept (asking Intl builds a formatter each time).
 */
export function resolveTimeZone(zone: string | null | undefined): string {
  if (lastResolved && lastResolved.zone === zone) return lastResolved.resolved;
  const resolved = (zone ? canonicalTimeZone(zone) : null) ?? systemTimeZone();
  lastResolved = { zone, resolved };
  return resolved;
}

/** The zones a Settings list offers (every IANA zone the runtime knows), always with UTC and `also` in it. */
export function timeZoneNames(also: readonly string[] = []): string[] {
  let names: string[] = [];
  try {
    names = Intl.supportedValuesOf('timeZone');
  } catch {
    names = [];
  }
  return [...new Set([...names, 'UTC', ...also.filter(isTimeZone)])].sort();
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` at instant `ms` (an unknown zone reads as UTC). */
export function wallClock(ms: number, zone: string): WallClock {
  let f = clockFormats.get(zone);
  if (!f) {
    const tz = canonicalTimeZone(zone) ?? 'UTC';
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    clockFormats.set(zone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(ms)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return {
    year: out['year']!,
    month: out['month']!,
    day: out['day']!,
    hour: out['hour']! % 24,
    minute: out['minute']!,
    second: out['second']!,
  };
}

/** The zone's offset from UTC at instant `ms`, in minutes (London in summer: 60; New York in winter: -300). */
export function utcOffsetMinutes(ms: number, zone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  const c = wallClock(whole, zone);
  return Math.round((Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - whole) / 60_000);
}

/** "UTC", "UTC+1", "UTC+5:30", "UTC-4". */
export function formatUtcOffset(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const a = Math.abs(minutes);
  const h = Math.floor(a / 60);
  const m = a % 60;
  return `UTC${minutes < 0 ? '-' : '+'}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

/** The zone as a screen names it at `ms`: "Europe/London (UTC+1)"; UTC itself just "UTC". */
export function zoneLabel(zone: string, ms: number): string {
  const tz = canonicalTimeZone(zone) ?? 'UTC';
  const offset = formatUtcOffset(utcOffsetMinutes(ms, tz));
  return tz === 'UTC' || tz === 'Etc/UTC' ? 'UTC' : `${tz} (${offset})`;
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "14:05:09" in `zone`, 24-hour. */
export function formatClock(ms: number, zone: string): string {
  const c = wallClock(ms, zone);
  return `${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`;
}

/** "14:05" in `zone`, 24-hour. */
export function formatHourMinute(ms: number, zone: string): string {
  const c = wallClock(ms, zone);
  return `${pad(c.hour)}:${pad(c.minute)}`;
}

/** "2024-11-23" in `zone`: the ISO-like day the date filters take. */
export function formatDay(ms: number, zone: string): string {
  const c = wallClock(ms, zone);
  return `${c.year}-${pad(c.month)}-${pad(c.day)}`;
}

/**
 * An export's file name, dated by the day `now` is in `zone` (the trader's day, never UTC's: at 21:00 in New York on
 * 9 March it is "oddsdesk-bets-2024-03-09.csv", not the 10th).
 */
export const exportFileName = (kind: string, now: number, zone: string): string =>
  `oddsdesk-${kind}-${formatDay(now, zone)}.csv`;

/** "2024-11-23 14:05" in `zone` (with `seconds`: "2024-11-23 14:05:09"). */
export function formatDateTime(ms: number, zone: string, o: { seconds?: boolean } = {}): string {
  const c = wallClock(ms, zone);
  return `${c.year}-${pad(c.month)}-${pad(c.day)} ${pad(c.hour)}:${pad(c.minute)}${o.seconds ? `:${pad(c.second)}` : ''}`;
}

/** "23 Nov" in `zone`. */
export function formatDayMonth(ms: number, zone: string): string {
  const c = wallClock(ms, zone);
  return `${c.day} ${MONTHS[c.month - 1]}`;
}

/** Dense grids: "14:05" on the day `now` is in `zone`, else "23 Nov 14:05". */
export function formatShortDateTime(ms: number, zone: string, now: number): string {
  const hm = formatHourMinute(ms, zone);
  return formatDay(ms, zone) === formatDay(now, zone) ? hm : `${formatDayMonth(ms, zone)} ${hm}`;
}

/** A "YYYY-MM-DD" text as [year, month, day], or null when it is not a real day (2024-02-30 is not). */
export function parseDay(text: string): [number, number, number] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d ? [y, mo, d] : null;
}

/**
 * The instant a day starts in `zone`, `plusDays` later; undefined when the text is not a day. Every day filter
 * (Settlements, the Bets report's range, "snooze until tomorrow", the Models view's "Kick-off since") starts its days
 * here. A day starts at its midnight, or, where a clock change skips midnight (summer time starting at 00:00:
 * America/Santiago, Havana, Asuncion, Asia/Beirut), at the first instant the day has: Santiago's 2024-09-08 starts at
 * 01:00 local, 04:00Z. Where a clock set back repeats midnight (Havana in November), at the first midnight. Luxon
 * does the zone arithmetic (the tz database through Intl, gaps and overlaps resolved as said), not a hand-made offset
 * search: "2024-03-10" in America/New_York is 05:00Z.
 */
export function dayStartIn(text: string, zone: string, plusDays = 0): number | undefined {
  const day = parseDay(text);
  if (!day) return undefined;
  const date = new Date(Date.UTC(day[0], day[1] - 1, day[2] + plusDays));
  const tz = canonicalTimeZone(zone) ?? 'UTC';
  const start = DateTime.fromObject(
    { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() },
    { zone: tz },
  ).startOf('day');
  if (!start.isValid) return undefined;
  // Luxon reads a wall time that comes twice (a clock set back over midnight) as its later instant; the day began at
  // the first. The offset a few hours before says whether there was a first: the clock then was ahead of now.
  const before = DateTime.fromMillis(start.toMillis() - 3 * 3_600_000, { zone: tz }).offset;
  if (before > start.offset) {
    const first = DateTime.fromMillis(start.toMillis() - (before - start.offset) * 60_000, { zone: tz });
    if (first.hasSame(start, 'day') && first.hour === 0 && first.minute === 0) return first.toMillis();
  }
  return start.toMillis();
}
