// Issue 37, every clock: the autumn day, when the clocks go back (Europe/London 2026-10-25: 02:00 BST is 01:00 GMT;
// America/New_York 2026-11-01: 02:00 EDT is 01:00 EST; Australia/Adelaide 2026-04-05: 03:00 ACDT is 02:00 ACST), in
// the day filters (Settlements, the Bets report's range, "snooze until tomorrow": one dayStartIn) and on the charts'
// time axis. Worked examples: the day is 25 hours long; a settlement at 01:30 the first time and one at 01:30 the
// second time both land on that day through the store's own query; the axis never reads as going back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/core/store';
import { formatServiceTime, type SettledEvent } from '../../src/shared/api';
import { dayStartIn, formatClock, formatDay } from '../../src/shared/formats';
import { timeAxisLabels } from '../../src/shared/timeAxis';

/** A day filter from one day to another, as the Settlements view and the Bets report send it (their `toQuery`). */
const dayRange = (from: string, to: string, zone: string) => ({
  from: dayStartIn(from, zone)!,
  to: dayStartIn(to, zone, 1)!,
});

const HOUR = 3_600_000;
const LONDON = 'Europe/London';

const AUTUMN: Array<[zone: string, day: string, startUtc: number]> = [
  [LONDON, '2026-10-25', Date.UTC(2026, 9, 24, 23)], // midnight BST (UTC+1)
  ['America/New_York', '2026-11-01', Date.UTC(2026, 10, 1, 4)], // midnight EDT (UTC-4)
  ['Australia/Adelaide', '2026-04-05', Date.UTC(2026, 3, 4, 13, 30)], // midnight ACDT (UTC+10:30)
];

// The machine's own zone must not leak into any of it: the same worked examples on a host in UTC and in Adelaide.
for (const machineZone of ['UTC', 'Australia/Adelaide']) {
  describe(`on a machine in ${machineZone}`, () => {
    const was = process.env['TZ'];
    beforeAll(() => {
      process.env['TZ'] = machineZone;
    });
    afterAll(() => {
      if (was === undefined) delete process.env['TZ'];
      else process.env['TZ'] = was;
    });
    describe('the autumn day in the day filters: 25 hours, from midnight to midnight in the zone', () => {
      for (const [zone, day, startUtc] of AUTUMN) {
        it(`${day} in ${zone} starts at its midnight and lasts 25 hours`, () => {
          const start = dayStartIn(day, zone)!;
          const next = dayStartIn(day, zone, 1)!;
          expect(new Date(start).toISOString()).toBe(new Date(startUtc).toISOString());
          expect(next - start).toBe(25 * HOUR);
          expect(formatDay(start, zone)).toBe(day);
          expect(formatDay(next - 1, zone)).toBe(day);
          expect(formatDay(next, zone)).not.toBe(day);
          expect(dayRange(day, day, zone)).toEqual({ from: start, to: next });
        });
      }

      it("London: the two 01:30s of 2026-10-25 (00:30Z in BST, 01:30Z in GMT) both land on the 25th through the store's query; 23:59 of the 24th and midnight of the 26th do not", () => {
        const store = openStore({ path: ':memory:' });
        const at = {
          '23:59 on the 24th': Date.UTC(2026, 9, 24, 22, 59),
          '00:00 on the 25th': Date.UTC(2026, 9, 24, 23),
          '01:30 BST': Date.UTC(2026, 9, 25, 0, 30),
          '01:30 GMT': Date.UTC(2026, 9, 25, 1, 30),
          '23:59 on the 25th': Date.UTC(2026, 9, 25, 23, 59),
          '00:00 on the 26th': Date.UTC(2026, 9, 26, 0),
        };
        const names = Object.keys(at);
        // Both read "01:30" on the trader's clock: the day has that wall time twice.
        expect(formatClock(at['01:30 BST'], LONDON)).toBe('01:30:00');
        expect(formatClock(at['01:30 GMT'], LONDON)).toBe('01:30:00');
        const settled = (i: number, ms: number): SettledEvent =>
          ({
            event_id: 100 + i,
            sport_id: 1,
            league_id: 2,
            league_name: 'L',
            runner_home: `Home ${i}`,
            runner_away: `Away ${i}`,
            starts: formatServiceTime(ms - 2 * HOUR),
            score_home: 1,
            score_away: 0,
            status: 'ended',
            settled_at: formatServiceTime(ms),
            settlement: [
              {
                line_id: (100 + i) * 10,
                period: 0,
                market: 'moneyline',
                line: null,
                outcome_home: 'win',
                outcome_draw: 'loss',
                outcome_away: 'loss',
              },
            ],
          }) as SettledEvent;
        store.settlements.recordSettledPage(
          Object.values(at).map((ms, i) => settled(i, ms)),
          Math.floor(at['00:00 on the 26th'] / 1000),
        );
        const page = store.settlements.querySettlements({ ...dayRange('2026-10-25', '2026-10-25', LONDON), limit: 50 });
        const got = page.rows.map((r) => names[r.eventId - 100]).sort();
        expect(got).toEqual(['00:00 on the 25th', '01:30 BST', '01:30 GMT', '23:59 on the 25th'].sort());
        expect(page.total).toBe(4);
        // The 24th and the 26th each have theirs.
        expect(
          store.settlements
            .querySettlements({ ...dayRange('2026-10-24', '2026-10-24', LONDON), limit: 50 })
            .rows.map((r) => names[r.eventId - 100]),
        ).toEqual(['23:59 on the 24th']);
        expect(
          store.settlements
            .querySettlements({ ...dayRange('2026-10-26', '2026-10-26', LONDON), limit: 50 })
            .rows.map((r) => names[r.eventId - 100]),
        ).toEqual(['00:00 on the 26th']);
        store.close();
      });

      it('"snooze until tomorrow" on the autumn day runs to midnight of the 26th: 23 h 30 min from the first 01:30, 22 h 30 min from the second', () => {
        const tomorrow = (now: number) => dayStartIn(formatDay(now, LONDON), LONDON, 1)!; // as components/Snooze.tsx reckons it
        expect(tomorrow(Date.UTC(2026, 9, 25, 0, 30)) - Date.UTC(2026, 9, 25, 0, 30)).toBe(23.5 * HOUR);
        expect(tomorrow(Date.UTC(2026, 9, 25, 1, 30)) - Date.UTC(2026, 9, 25, 1, 30)).toBe(22.5 * HOUR);
      });
    });
  });
}

describe("the autumn day on a chart's time axis", () => {
  const labels = (fromUtc: number, count: number, stepMs: number, zone = LONDON) =>
    timeAxisLabels(
      Array.from({ length: count }, (_, i) => (fromUtc + i * stepMs) / 1000),
      stepMs / 1000,
      zone,
    );

  // uPlot (with the zone's tzDate, as Chart.tsx sets it) puts hourly ticks on every real hour across the change
  // (seen in Chromium: 22:00Z, 23:00Z, 00:00Z, 01:00Z, ...), so the repeated hour gets two ticks, both "01:00".
  it("hourly ticks across London's 25-hour day: 00:00 with the day, the repeated 01:00 marked with the new offset, then on", () => {
    expect(labels(Date.UTC(2026, 9, 24, 23), 5, HOUR)).toEqual([
      '00:00\n25 Oct',
      '01:00',
      '01:00\nUTC',
      '02:00',
      '03:00',
    ]);
    // 25 ticks an hour apart fill the day; the 26th's midnight is the next day.
    const day = labels(Date.UTC(2026, 9, 24, 23), 26, HOUR);
    expect(day.at(-2)).toBe('23:00');
    expect(day.at(-1)).toBe('00:00\n26 Oct');
  });

  it('15-minute ticks through the repeated hour: 01:45 BST is followed by 01:00 UTC, said, not a silent step back', () => {
    const got = labels(Date.UTC(2026, 9, 25, 0, 30), 8, 15 * 60_000);
    expect(got).toEqual(['01:30\n25 Oct', '01:45', '01:00\nUTC', '01:15', '01:30', '01:45', '02:00', '02:15']);
    // Read as the trader reads it: wherever a wall time is not later than the one before, the label says why.
    for (let i = 1; i < got.length; i++) {
      const [prev, cur] = [got[i - 1]!.split('\n')[0]!, got[i]!.split('\n')[0]!];
      if (cur <= prev) expect(got[i]).toContain('\n');
    }
  });

  it("New York's autumn night and the spring one in London: the offset after each change is named", () => {
    expect(labels(Date.UTC(2026, 10, 1, 4), 4, HOUR, 'America/New_York')).toEqual([
      '00:00\n1 Nov',
      '01:00',
      '01:00\nUTC-5',
      '02:00',
    ]);
    // Spring (2026-03-29): 01:00 GMT is 02:00 BST; the hour that never was is skipped, and said.
    expect(labels(Date.UTC(2026, 2, 29, 0), 3, HOUR)).toEqual(['00:00\n29 Mar', '02:00\nUTC+1', '03:00']);
  });

  it('an ordinary day in a half-hour zone reads plainly (no offset marks)', () => {
    expect(labels(Date.UTC(2026, 10, 22, 18, 30), 3, HOUR, 'Asia/Kolkata')).toEqual([
      '00:00\n23 Nov',
      '01:00',
      '02:00',
    ]);
  });
});
