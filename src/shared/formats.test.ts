// Worked examples of every odds format (the sign rules at, above and below evens), the one decimal rule, the colour
// rule, and times in a fixed zone: the same instant read in New York and in Tokyo.
import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  dayStartIn,
  exportFileName,
  formatClock,
  formatDateTime,
  formatDay,
  formatOdds,
  formatOddsWithDecimal,
  formatPercent,
  formatShortDateTime,
  formatUtcOffset,
  ODDS_FORMATS,
  parseDay,
  signed,
  systemTimeZone,
  timeZoneNames,
  toAmerican,
  toFractional,
  formatOddsPair,
  toIndonesian,
  toMalay,
  toneOf,
  utcOffsetMinutes,
  zoneLabel,
} from './formats';

const odds = (format: (typeof ODDS_FORMATS)[number], ...prices: number[]) => prices.map((d) => formatOdds(d, format));

describe('odds formats', () => {
  it('decimal: three decimals everywhere, a two-decimal quote with its trailing zero', () => {
    expect(odds('decimal', 2.5, 1.95, 1.952, 2, 101)).toEqual(['2.500', '1.950', '1.952', '2.000', '101.000']);
  });

  it('American: +100(d-1) from evens up, -100/(d-1) below; exactly 2.00 is +100', () => {
    // 2.00 -> +100 (not -100); 2.50 -> +150; 1.50 -> -100/0.5 = -200; 1.952 -> -100/0.952 = -105.04 -> -105;
    // 1.909 -> -100/0.909 = -110.01 -> -110; 3.75 -> +275; 1.01 -> -10000.
    expect(odds('american', 2, 2.5, 1.5, 1.952, 1.909, 3.75, 1.01)).toEqual([
      '+100',
      '+150',
      '-200',
      '-105',
      '-110',
      '+275',
      '-10000',
    ]);
    // Halves round away from zero on both sides: 1.995 -> -100/0.995 = -100.50 -> -101 (Math.round would say -100).
    expect(toAmerican(1.995)).toBe(-101);
    expect(toAmerican(2.005)).toBe(101); // +100.5 -> +101
  });

  it('Hong Kong: d - 1, never signed', () => {
    // Below, at and above evens.
    expect(odds('hongkong', 1.5, 2, 2.5, 1.952)).toEqual(['0.500', '1.000', '1.500', '0.952']);
  });

  it('Malay: from evens up negative -1/(d-1); below evens positive d-1', () => {
    // below: 1.50 -> +0.500, 1.80 -> +0.800; at: 2.00 -> -1/1 = -1.000; above: 2.50 -> -1/1.5 = -0.667, 4.00 -> -0.333.
    expect(odds('malay', 1.5, 1.8, 2, 2.5, 4)).toEqual(['+0.500', '+0.800', '-1.000', '-0.667', '-0.333']);
  });

  it('Indonesian: from evens up +(d-1); below evens -1/(d-1)', () => {
    // below: 1.50 -> -1/0.5 = -2.000, 1.80 -> -1.250; at: 2.00 -> +1.000; above: 2.50 -> +1.500, 4.00 -> +3.000.
    expect(odds('indonesian', 1.5, 1.8, 2, 2.5, 4)).toEqual(['-2.000', '-1.250', '+1.000', '+1.500', '+3.000']);
  });

  it('Malay and Indonesian are each other’s -1/x, and Malay never exceeds 1 in size', () => {
    for (const d of [1.01, 1.3, 1.5, 1.952, 1.999, 2, 2.001, 2.5, 7, 101]) {
      expect(toIndonesian(d)).toBeCloseTo(-1 / toMalay(d), 9);
      expect(Math.abs(toMalay(d))).toBeLessThanOrEqual(1 + 1e-12);
      expect(toMalay(d) < 0).toBe(d >= 2);
      expect(toIndonesian(d) > 0).toBe(d >= 2);
    }
  });

  it('fractional: the ladder fraction in reduced form (6/4 reads 3/2) where the price is it, else the price’s own quote', () => {
    // 2.50 -> 3/2; 2.00 -> 1/1 (evens); 1.50 -> 1/2; 1.667 -> 2/3 (the book's 4/6); 4.333 -> 10/3 (100/30);
    // 11.0 -> 10/1; 1.01 -> 1/100; 1.91 -> 10/11 (1.909 quoted to two decimals); 2.38 -> 11/8 (2.375 quoted, half up).
    expect(odds('fractional', 2.5, 2, 1.5, 1.667, 4.333, 11, 1.01, 1.91, 2.38)).toEqual([
      '3/2',
      '1/1',
      '1/2',
      '2/3',
      '10/3',
      '10/1',
      '1/100',
      '10/11',
      '11/8',
    ]);
    // Issue 34: 1.23 read "14/61" (the simplest fraction that reads 0.230 to three decimals), which no trader reads. A
    // two-decimal quote that is no ladder fraction reads as itself, reduced: 23/100, 1.95 -> 19/20 (never 10/11 beside
    // 1.91), 46.0 -> 45/1 and 41.5 -> 81/2 (both were 40/1), 2.37 -> 137/100 (2.38 is 11/8).
    expect(odds('fractional', 1.23, 1.95, 1.91, 46, 41.5, 41, 2.37)).toEqual([
      '23/100',
      '19/20',
      '10/11',
      '45/1',
      '81/2',
      '40/1',
      '137/100',
    ]);
    expect(toFractional(1.23)).toEqual([23, 100]);
    // A price with more decimals, more than half a cent from every ladder fraction: the simplest fraction that reads as
    // it does to three decimals. 1.952 is 0.043 from 10/11: 20/21 (0.95238).
    expect(toFractional(1.952)).toEqual([20, 21]);
    // 3.125 (2.125) is no ladder fraction: 17/8.
    expect(toFractional(3.125)).toEqual([17, 8]);
    // Off the top of the ladder, exact too.
    expect(odds('fractional', 501, 1001, 1500.4)).toEqual(['500/1', '1000/1', '7497/5']);
  });

  it('fractional never hides a move the decimal shows: two different two-decimal quotes never read alike', () => {
    // Issue 35, class 6, over every two-decimal quote from 1.01 to 1000.00.
    const seen = new Map<string, number>();
    const clashes: string[] = [];
    for (let h = 101; h <= 100_000; h++) {
      const d = h / 100;
      const shown = formatOdds(d, 'fractional');
      const [n, m] = toFractional(d);
      // What is shown is the price to within half a cent (its ladder fraction) or exactly (its own quote).
      if (Math.abs(n / m + 1 - d) > 0.005 + 1e-9) clashes.push(`${d} reads ${shown}, off by more than half a cent`);
      const before = seen.get(shown);
      if (before !== undefined) clashes.push(`${before} and ${d} both read ${shown}`);
      seen.set(shown, d);
    }
    expect(clashes).toEqual([]);
  });

  it('Malay and Indonesian never read a price as zero: a tiny one keeps three significant digits and its sign', () => {
    // Malay at 2001.5 is -1/2000.5 = -0.00049988: "0.000" with no sign before issue 35.
    expect(formatOdds(2001.5, 'malay')).toBe('-0.000500');
    expect(formatOdds(1.0004, 'indonesian')).toBe('-2500.000');
    expect(formatOdds(1.0004, 'malay')).toBe('+0.000400');
    expect(formatOdds(3, 'malay')).toBe('-0.500');
  });

  it('a move is never hidden: two prices the format writes alike carry their decimals', () => {
    // 1.905 and 1.913 are both 10/11 to two decimals of a quote; the decimal shows them apart.
    expect(formatOddsPair(1.913, 1.905, 'fractional')).toEqual(['10/11 (1.913)', '10/11 (1.905)']);
    expect(formatOddsPair(1.95, 1.91, 'fractional')).toEqual(['19/20', '10/11']);
    expect(formatOddsPair(2001.5, 2001.6, 'malay')).toEqual(['-0.000500 (2001.500)', '-0.000500 (2001.600)']);
    expect(formatOddsPair(2, 2, 'fractional')).toEqual(['1/1', '1/1']);
  });

  it('implied probability: 1/d in percent, one decimal', () => {
    expect(odds('implied', 2.5, 2, 1.952, 1.01)).toEqual(['40.0%', '50.0%', '51.2%', '99.0%']);
  });

  it('no price reads "—" in every format: nothing, not a number, at or below 1', () => {
    for (const f of ODDS_FORMATS)
      for (const d of [null, undefined, Number.NaN, Infinity, 1, 0.5]) expect(formatOdds(d, f)).toBe('—');
  });

  it('the price beside its decimal form, for hovers and exports', () => {
    expect(formatOddsWithDecimal(2.5, 'american')).toBe('+150 (2.500)');
    expect(formatOddsWithDecimal(2.5, 'decimal')).toBe('2.500');
    expect(formatOddsWithDecimal(null, 'malay')).toBe('—');
  });
});

describe('signs, percentages and the colour rule', () => {
  it('signs: + on a rise, - on a fall, none on zero as shown', () => {
    expect(signed(1.5, 3)).toBe('+1.500');
    expect(signed(-0.6667, 3)).toBe('-0.667');
    expect(signed(-0.0001, 3)).toBe('0.000');
    expect(formatPercent(-83.04, { sign: true })).toBe('-83.0%');
    expect(formatPercent(7.9365, { sign: true, decimals: 2 })).toBe('+7.94%');
    expect(formatPercent(40)).toBe('40.0%');
    expect(formatPercent(null)).toBe('—');
  });

  it('colour follows the sign of the number as shown: a limit cut of -83% is red, a raise green, a 0.0 none', () => {
    expect(toneOf(-83)).toBe('neg');
    expect(toneOf(25)).toBe('pos');
    expect(toneOf(0.04)).toBe('');
    expect(toneOf(-0.004, 2)).toBe('');
    expect(toneOf(-0.006, 2)).toBe('neg');
    expect(toneOf(null)).toBe('');
  });
});

describe('times in the trader’s zone, 24-hour', () => {
  it("an export's file is named for the trader's day, not UTC's (21:00 in New York on 9 March is the 9th; 07:00 in Auckland on the 10th is the 10th)", () => {
    const at = Date.UTC(2024, 2, 10, 2);
    expect(exportFileName('bets', at, 'America/New_York')).toBe('oddsdesk-bets-2024-03-09.csv');
    expect(exportFileName('settlements', Date.UTC(2024, 2, 9, 18), 'Pacific/Auckland')).toBe(
      'oddsdesk-settlements-2024-03-10.csv',
    );
    expect(exportFileName('bets', at, 'UTC')).toBe('oddsdesk-bets-2024-03-10.csv');
  });

  it('a machine set to Asia/Kolkata is in Asia/Kolkata, not ICU\'s old "Asia/Calcutta" (issue 37: the suite in +05:30)', () => {
    const was = process.env['TZ'];
    try {
      process.env['TZ'] = 'Asia/Kolkata';
      expect(systemTimeZone()).toBe('Asia/Kolkata');
      expect(zoneLabel(systemTimeZone(), Date.UTC(2026, 10, 1))).toBe('Asia/Kolkata (UTC+5:30)');
      process.env['TZ'] = 'Australia/Adelaide';
      expect(systemTimeZone()).toBe('Australia/Adelaide');
    } finally {
      if (was === undefined) delete process.env['TZ'];
      else process.env['TZ'] = was;
    }
  });

  // 2024-07-01 12:34:56 UTC: 08:34:56 in New York (EDT, UTC-4), 21:34:56 in Tokyo (UTC+9).
  const instant = Date.UTC(2024, 6, 1, 12, 34, 56);

  it('the same instant in New York and in Tokyo', () => {
    expect(formatClock(instant, 'America/New_York')).toBe('08:34:56');
    expect(formatClock(instant, 'Asia/Tokyo')).toBe('21:34:56');
    expect(formatDateTime(instant, 'America/New_York')).toBe('2024-07-01 08:34');
    expect(formatDateTime(instant, 'Asia/Tokyo')).toBe('2024-07-01 21:34');
    expect(formatDateTime(instant, 'UTC', { seconds: true })).toBe('2024-07-01 12:34:56');
  });

  it('an evening in New York is the next morning in Tokyo: 24-hour clock, midnight is 00', () => {
    const evening = Date.UTC(2024, 6, 2, 3, 5); // 23:05 on 1 July in New York, 12:05 on 2 July in Tokyo
    expect(formatDateTime(evening, 'America/New_York')).toBe('2024-07-01 23:05');
    expect(formatDateTime(evening, 'Asia/Tokyo')).toBe('2024-07-02 12:05');
    expect(formatDay(evening, 'America/New_York')).toBe('2024-07-01');
    expect(formatDay(evening, 'Asia/Tokyo')).toBe('2024-07-02');
    expect(formatClock(Date.UTC(2024, 6, 1, 15, 0, 0), 'Asia/Tokyo')).toBe('00:00:00');
  });

  it('the short form drops the date on the zone’s own today', () => {
    const now = Date.UTC(2024, 6, 1, 14, 0); // 10:00 in New York, 23:00 in Tokyo, both on 1 July
    expect(formatShortDateTime(instant, 'America/New_York', now)).toBe('08:34');
    expect(formatShortDateTime(instant, 'Asia/Tokyo', now)).toBe('21:34');
    const later = Date.UTC(2024, 6, 1, 16, 0); // 12:00 in New York (1 July), 01:00 on 2 July in Tokyo
    expect(formatShortDateTime(instant, 'America/New_York', later)).toBe('08:34');
    expect(formatShortDateTime(instant, 'Asia/Tokyo', later)).toBe('1 Jul 21:34');
  });

  it('names the zone with its offset at that instant (summer and winter)', () => {
    expect(zoneLabel('America/New_York', instant)).toBe('America/New_York (UTC-4)');
    expect(zoneLabel('America/New_York', Date.UTC(2024, 0, 15))).toBe('America/New_York (UTC-5)');
    expect(zoneLabel('Asia/Tokyo', instant)).toBe('Asia/Tokyo (UTC+9)');
    expect(zoneLabel('Asia/Kolkata', instant)).toBe('Asia/Kolkata (UTC+5:30)');
    expect(zoneLabel('Europe/London', instant)).toBe('Europe/London (UTC+1)');
    expect(zoneLabel('UTC', instant)).toBe('UTC');
    expect(utcOffsetMinutes(instant, 'Asia/Tokyo')).toBe(540);
    expect(formatUtcOffset(-150)).toBe('UTC-2:30');
  });

  it('a date filter’s day starts at midnight in the zone, across a clock change too', () => {
    expect(dayStartIn('2024-07-01', 'Asia/Tokyo')).toBe(Date.UTC(2024, 5, 30, 15));
    expect(dayStartIn('2024-07-01', 'America/New_York')).toBe(Date.UTC(2024, 6, 1, 4));
    // 10 March 2024 New York moves to summer time at 02:00: the day starts at 05:00 UTC, the next at 04:00 UTC.
    expect(dayStartIn('2024-03-10', 'America/New_York')).toBe(Date.UTC(2024, 2, 10, 5));
    expect(dayStartIn('2024-03-10', 'America/New_York', 1)).toBe(Date.UTC(2024, 2, 11, 4));
    expect(dayStartIn('03/10/2024', 'UTC')).toBeUndefined();
  });

  it('takes ISO-like days only, and real ones', () => {
    expect(parseDay('2024-02-29')).toEqual([2024, 2, 29]);
    expect(parseDay('2023-02-29')).toBeNull();
    expect(parseDay('2024-13-01')).toBeNull();
    expect(parseDay('07/01/2024')).toBeNull();
    expect(parseDay('')).toBeNull();
  });

  it('zone names: IANA names in their canonical spelling, nothing else', () => {
    expect(canonicalTimeZone('europe/london')).toBe('Europe/London');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('+01:00')).toBeNull();
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('Europe/London; rm -rf')).toBeNull();
    expect(timeZoneNames()).toContain('Asia/Tokyo');
    expect(timeZoneNames()).toContain('UTC');
  });
});
