// The day a date filter means, in every kind of zone (docs/trading.md, "Numbers on screen", Times): each day start
// checked against a minute-by-minute scan with Intl (the first minute whose wall date in the zone is the day), on
// each zone's clock-change days and on an ordinary day. Issue 35, class 5: where summer time starts at midnight
// (Santiago, Havana, Asuncion, Beirut) the old offset search started the day an hour early (Santiago 2024-09-08 at
// 03:00Z, 23:00 of the 7th); where a set-back clock repeats midnight (Havana in November), the day starts at the first.
import { describe, expect, it } from 'vitest';
import { dayStartIn, formatDay } from '../../src/shared/formats';

const MINUTE = 60_000;

/** The first minute whose wall date in `zone` is `day`, found by walking minute by minute over a 2-day span. */
function scanDayStart(day: string, zone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const naive = Date.UTC(y, m - 1, d);
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  for (let t = naive - 15 * 60 * MINUTE; t <= naive + 15 * 60 * MINUTE; t += MINUTE) {
    if (f.format(t) === day) return t;
  }
  throw new Error(`no minute of ${day} in ${zone}`);
}

// Each zone's 2024 change days and an ordinary day.
const TABLE: Array<[zone: string, days: string[]]> = [
  ['America/New_York', ['2024-03-10', '2024-11-03', '2024-06-15']],
  ['Europe/London', ['2024-03-31', '2024-10-27', '2024-01-15']],
  ['America/Santiago', ['2024-09-08', '2024-04-07', '2024-09-07', '2024-09-09', '2024-07-01']],
  ['America/Havana', ['2024-03-10', '2024-11-03', '2024-03-11', '2024-11-04', '2024-07-01']],
  ['America/Asuncion', ['2024-10-06', '2024-03-24', '2024-06-01']],
  ['Asia/Beirut', ['2024-03-31', '2024-10-27', '2024-10-26', '2024-06-01']],
  ['Asia/Kolkata', ['2024-03-31', '2024-06-01']],
  ['Pacific/Chatham', ['2024-09-29', '2024-04-07', '2024-06-01']],
  ['Australia/Lord_Howe', ['2024-10-06', '2024-04-07', '2024-06-01']],
];

describe('the start of a day in the trader\u2019s zone', () => {
  for (const [zone, days] of TABLE) {
    for (const day of days) {
      it(`${day} in ${zone} starts at the first minute Intl gives that date`, () => {
        const want = scanDayStart(day, zone);
        const got = dayStartIn(day, zone);
        expect(new Date(got!).toISOString()).toBe(new Date(want).toISOString());
        expect(formatDay(got!, zone)).toBe(day);
        expect(formatDay(got! - MINUTE, zone)).not.toBe(day);
      });
    }
  }

  it('the worked examples: Santiago 2024-09-08 at 04:00Z (not 23:00 of the 7th), Havana 2024-11-03 at its first midnight', () => {
    expect(dayStartIn('2024-09-08', 'America/Santiago')).toBe(Date.UTC(2024, 8, 8, 4));
    expect(dayStartIn('2024-09-07', 'America/Santiago', 1)).toBe(Date.UTC(2024, 8, 8, 4));
    expect(dayStartIn('2024-03-10', 'America/Havana')).toBe(Date.UTC(2024, 2, 10, 5));
    expect(dayStartIn('2024-11-03', 'America/Havana')).toBe(Date.UTC(2024, 10, 3, 4));
    expect(dayStartIn('2024-03-31', 'Asia/Beirut')).toBe(Date.UTC(2024, 2, 30, 22));
    expect(dayStartIn('2024-06-01', 'Pacific/Chatham')).toBe(Date.UTC(2024, 4, 31, 11, 15));
    expect(dayStartIn('2024-06-01', 'Asia/Kolkata')).toBe(Date.UTC(2024, 4, 31, 18, 30));
  });
});
