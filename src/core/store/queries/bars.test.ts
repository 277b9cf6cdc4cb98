import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBars, encodeBars, foldTick, HOUR_MS, SIDES, type Bar, type TickValues } from './bars';

// Prices as the upstream may send them: three-decimal odds mostly, but any double must survive exactly.
const price = fc.oneof(
  fc.integer({ min: 1001, max: 1_000_000 }).map((n) => n / 1000),
  fc.double({ min: 1.0001, max: 1e12, noNaN: true }),
);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const ohlc = fc.tuple(price, price, price, price).map(([open, a, b, close]) => ({
  open,
  high: Math.max(open, a, b, close),
  low: Math.min(open, a, b, close),
  close,
}));
const bar = (minute: number) =>
  fc.record({
    minute: fc.constant(minute),
    ticks: fc.integer({ min: 1, max: 100_000 }),
    sides: fc.record(Object.fromEntries(SIDES.map((s) => [s, ohlc])) as Record<(typeof SIDES)[number], typeof ohlc>, {
      requiredKeys: [],
    }),
    openOffline: fc.boolean(),
    closeOffline: fc.boolean(),
    line: maybe(
      fc.oneof(
        fc.integer({ min: -40, max: 40 }).map((n) => n / 4),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      ),
    ),
    maxWin: maybe(fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.double({ min: 0, max: 1e15, noNaN: true }))),
  });
const hourOfBars = fc
  .uniqueArray(fc.integer({ min: 0, max: 59 }), { minLength: 1, maxLength: 60 })
  .chain((minutes) => fc.tuple(...minutes.sort((a, b) => a - b).map(bar)));

describe('packed bars', () => {
  it('round-trip any hour of bars exactly, whatever the numbers', () => {
    fc.assert(
      fc.property(hourOfBars, (bars) => {
        expect(decodeBars(encodeBars(bars as Bar[]))).toEqual(bars);
      }),
      { numRuns: 300 },
    );
  });

  it('take a couple of bytes per price for three-decimal odds', () => {
    const bars: Bar[] = Array.from({ length: 60 }, (_, minute) => ({
      minute,
      ticks: 15,
      sides: {
        home: { open: 1.952, high: 1.97, low: 1.94, close: 1.961 },
        away: { open: 1.9, high: 1.91, low: 1.88, close: 1.89 },
      },
      openOffline: false,
      closeOffline: false,
      line: -1.5,
      maxWin: 2500,
    }));
    // 60 bars x 2 sides x 4 prices: raw doubles alone would be 3,840 bytes.
    expect(encodeBars(bars).length).toBeLessThan(60 * 16);
  });

  it('refuse a blob of an unknown format or a truncated one instead of inventing bars', () => {
    const blob = encodeBars([
      {
        minute: 3,
        ticks: 2,
        sides: { home: { open: 2, high: 2.1, low: 1.9, close: 2 } },
        openOffline: false,
        closeOffline: false,
        line: null,
        maxWin: 100,
      },
    ]);
    expect(() => decodeBars(Buffer.concat([Buffer.from([9]), blob.subarray(1)]))).toThrow(/format/);
    expect(() => decodeBars(blob.subarray(0, blob.length - 1))).toThrow(/truncated/);
  });

  it('fold ticks into open, high, low and close per side, with the line and max_win at the bar end', () => {
    const t = (at: number, home: number | null, away: number | null, maxWin: number): TickValues => ({
      at,
      line: null,
      price_home: home,
      price_draw: null,
      price_away: away,
      price_over: null,
      price_under: null,
      max_win: maxWin,
    });
    const bars = new Map<number, Bar>();
    const base = 5 * HOUR_MS;
    for (const tick of [
      t(base + 1_000, 2.0, 1.9, 100),
      t(base + 20_000, 2.2, null, 100),
      t(base + 40_000, 1.8, 2.1, 200),
      t(base + 59_999, null, null, 200),
      t(base + 60_000, 2.5, 1.5, 200),
    ]) {
      foldTick(bars, tick);
    }
    expect([...bars.values()]).toEqual([
      {
        minute: 0,
        ticks: 4,
        sides: {
          home: { open: 2, high: 2.2, low: 1.8, close: 1.8 },
          away: { open: 1.9, high: 2.1, low: 1.9, close: 2.1 },
        },
        openOffline: false,
        closeOffline: true,
        line: null,
        maxWin: 200,
      },
      {
        minute: 1,
        ticks: 1,
        sides: {
          home: { open: 2.5, high: 2.5, low: 2.5, close: 2.5 },
          away: { open: 1.5, high: 1.5, low: 1.5, close: 1.5 },
        },
        openOffline: false,
        closeOffline: false,
        line: null,
        maxWin: 200,
      },
    ]);
  });
});
