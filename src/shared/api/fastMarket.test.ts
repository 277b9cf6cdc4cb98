// The market schema's fast path against the schema itself: whatever a service (or a hostile one) sends, the fast
// path either gives exactly what the schema gives or steps aside; it never lets through what the schema refuses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarketSchema, fastMarket, parseMarkets } from './schemas';

const good = {
  line_id: 11,
  period: 0,
  market: 'spread',
  side: 'home',
  line: -1.5,
  prices: { home: 1.91, away: 1.95 },
  max_win: 2500,
  updated_at: '2026-11-22T12:00:00',
};

/** Values of every kind JSON (and a careless upstream) can produce, edges included. */
const anything = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1, 1.0000001, -1, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), Infinity, -Infinity, NaN, 1e308),
  fc.string({ maxLength: 4 }),
  fc.constantFrom('', 'home', 'away', 'draw', 'moneyline', '2026-11-22T12:00:00'),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

/** Mostly the ordinary value, now and then anything at all: most markets are good but one field off. */
const mostly = <T>(ordinary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: ordinary, weight: 12 }, { arbitrary: anything, weight: 1 });

/** Ordinary prices, the edge of 1.0 and below it (a side being decided), and now and then anything at all. */
const price = mostly(
  fc.oneof(
    { arbitrary: fc.double({ min: 1, max: 50 }), weight: 6 },
    fc.constantFrom(1, 1.0, 0.5, 0, -1, null),
    fc.double({ max: 1 }),
  ),
);
const prices = mostly(
  fc.record(
    { home: price, draw: price, away: price, over: price, under: price, extra: anything },
    { requiredKeys: [] },
  ),
);

/** A market built field by field, each field either ordinary or anything at all, some missing, some extra. */
const marketish = fc.record(
  {
    line_id: mostly(fc.nat()),
    period: mostly(fc.nat(6)),
    market: mostly(fc.constantFrom('moneyline', 'spread', 'total', '')),
    side: mostly(fc.constantFrom(null, 'home', 'away')),
    line: mostly(fc.oneof(fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }))),
    prices,
    max_win: mostly(fc.double({ min: 0, max: 1e6, noNaN: true })),
    updated_at: mostly(fc.constant('2026-11-22T12:00:00')),
    unknown_field: anything,
  },
  { requiredKeys: ['line_id', 'period', 'market', 'side', 'line', 'prices', 'max_win', 'updated_at'] },
);

describe('market fast path', () => {
  it('agrees with MarketSchema on every input it accepts, and refuses all the schema refuses', () => {
    let fastTaken = 0;
    fc.assert(
      fc.property(fc.oneof({ arbitrary: marketish, weight: 9 }, { arbitrary: anything, weight: 1 }), (v) => {
        const fast = fastMarket(v);
        const slow = MarketSchema.safeParse(v);
        if (fast === null) return;
        fastTaken++;
        expect(slow.success).toBe(true);
        expect(fast).toStrictEqual(slow.data);
      }),
      { numRuns: 5_000 },
    );
    // Not a check that could pass by stepping aside every time: a good share of the inputs took the fast path.
    expect(fastTaken).toBeGreaterThan(100);
  });

  it('takes the ordinary market and drops unknown fields as the schema does', () => {
    const withExtra = { ...good, prices: { ...good.prices, exotic: 3 }, note: 'x' };
    expect(fastMarket(withExtra)).toStrictEqual(MarketSchema.parse(withExtra));
    expect(fastMarket({ ...good, prices: null })).toStrictEqual({ ...good, prices: null });
  });

  it('still reports a bad market with the schema message and keeps the good ones', () => {
    const r = parseMarkets([
      good,
      { ...good, line_id: 12, prices: { home: '1.9', away: 1.95 } },
      { ...good, line_id: 13 },
    ]);
    expect(r.items.map((m) => m.line_id)).toEqual([11, 13]);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]!.path).toBe('markets[1]');
    expect(r.problems[0]!.message).toMatch(/prices\.home/);
  });
});

describe('a side priced at or below 1.0 is unpriced, the market is kept', () => {
  /** Both paths, and parseMarkets as the stream uses it: the same prices, and no problem reported. */
  const pricesOf = (prices: unknown) => {
    const m = { ...good, market: 'moneyline', side: null, line: null, prices };
    const fast = fastMarket(m);
    const slow = MarketSchema.safeParse(m);
    expect(slow.success).toBe(true);
    expect(fast).toStrictEqual(slow.data);
    const parsed = parseMarkets([m]);
    expect(parsed.problems).toEqual([]);
    expect(parsed.items).toStrictEqual([slow.data]);
    return slow.data!.prices;
  };

  it('{home: 1.0, away: 2.1} gives {away: 2.1}', () => {
    expect(pricesOf({ home: 1.0, away: 2.1 })).toStrictEqual({ away: 2.1 });
  });

  it('{home: 0.5, draw: 3, away: 3} gives {draw: 3, away: 3}', () => {
    expect(pricesOf({ home: 0.5, draw: 3, away: 3 })).toStrictEqual({ draw: 3, away: 3 });
  });

  it('a decided line ({home: 1.0, away: 12}) keeps its other side; every side unusable leaves prices empty, not offline', () => {
    expect(pricesOf({ home: 1.0, away: 12.0 })).toStrictEqual({ away: 12 });
    expect(pricesOf({ over: 1, under: 0 })).toStrictEqual({});
    expect(pricesOf({ home: -3, draw: null, away: 1.0000001 })).toStrictEqual({ away: 1.0000001 });
    expect(pricesOf(null)).toBeNull();
  });

  it('a price of a wrong type still spoils that market alone', () => {
    for (const bad of ['2.1', { v: 2.1 }, true, [2.1]]) {
      const m = { ...good, prices: { home: bad, away: 2.1 } };
      expect(fastMarket(m)).toBeNull();
      expect(MarketSchema.safeParse(m).success).toBe(false);
      const r = parseMarkets([good, m]);
      expect(r.items).toHaveLength(1);
      expect(r.problems[0]!.message).toMatch(/prices\.home/);
    }
  });
});
