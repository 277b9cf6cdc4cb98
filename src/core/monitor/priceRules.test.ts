import { describe, expect, it } from 'vitest';
import type { Prices } from '../../shared/api';
import { fairPrices } from '../../shared/trading';
import type { NewAlert } from '../../shared/domain';
import { stepLine, WINDOW_SLICES, type LineState, type PriceRuleConfig } from './priceRules';

const base: PriceRuleConfig = { dropPct: 5, dropWindowMinutes: 15, hysteresisPct: 2, model: 'EM', thresholds: [] };

function run(series: Array<[number, Prices | null]>, c: PriceRuleConfig): NewAlert[] {
  let state: LineState | undefined;
  const out: NewAlert[] = [];
  for (const [minute, prices] of series) {
    const r = stepLine(state, { eventId: 1, lineId: 10, label: 'line 10', at: minute * 60_000, prices }, c);
    state = r.state;
    out.push(...r.alerts);
  }
  return out;
}

describe('price threshold rule', () => {
  const c = { ...base, dropPct: 0, thresholds: [{ lineId: 10, side: 'home' as const, price: 2.0 }] };
  it('fires once when the price crosses X, not again while it flickers around X inside the band', () => {
    const alerts = run(
      [
        [0, { home: 2.1, away: 1.8 }],
        [1, { home: 1.99, away: 1.9 }],
        [2, { home: 2.01, away: 1.88 }],
        [3, { home: 1.98, away: 1.9 }],
        [4, { home: 2.03, away: 1.86 }],
        [5, { home: 1.97, away: 1.9 }],
      ],
      c,
    );
    expect(alerts.map((a) => [a.kind, (a.data as { direction: string }).direction])).toEqual([['price', 'down']]);
  });
  it('fires again once the price is back past the band, and never on the first sight', () => {
    const alerts = run(
      [
        [0, { home: 1.9, away: 2 }],
        [1, { home: 2.05, away: 1.8 }],
        [2, { home: 1.95, away: 1.9 }],
        [3, { home: 1.95, away: 1.9 }],
      ],
      c,
    );
    // 1.9 -> 2.05 crosses up (first crossing needs no band); 2.05 -> 1.95 is past 2.0 x (1 - 2%) = 1.96: down.
    expect(alerts.map((a) => (a.data as { direction: string }).direction)).toEqual(['up', 'down']);
  });
  it('ignores an offline line and a side it does not price', () => {
    expect(
      run(
        [
          [0, { home: 2.1, away: 1.8 }],
          [1, null],
          [2, { over: 1.5, under: 2.6 }],
        ],
        c,
      ),
    ).toEqual([]);
  });
});

describe('drop rule (docs/trading.md: a drop is the fair price shortening)', () => {
  const p = (h: number) => ({ home: h, away: 1 / (1 - 1 / h) });
  const sideOf = (a: NewAlert) => (a.data as { side: string }).side;
  const minuteOf = (a: NewAlert) => (a.data as { at: number }).at / 60_000;

  it('fires once per line when a fair price shortens N% since the open, and names the side in words', () => {
    let state: LineState | undefined;
    const alerts: NewAlert[] = [];
    for (const [minute, prices] of [
      [0, { home: 2.0, away: 2.0 }],
      [30, { home: 1.95, away: 2.05 }],
      [60, { home: 1.85, away: 2.17 }],
    ] as const) {
      const r = stepLine(
        state,
        { eventId: 1, lineId: 10, label: 'line 10', at: minute * 60_000, prices, market: 'spread', line: -0.5 },
        { ...base, dropWindowMinutes: 5 },
      );
      state = r.state;
      alerts.push(...r.alerts);
    }
    // Minute 30 is -2.4% (no alert); minute 60 takes home fair (EM) to 1.853, -7.4%; away drifts (never a drop).
    const fairHome = fairPrices({ home: 1.85, away: 2.17 }, 'EM')!.home!;
    expect(alerts.map(sideOf)).toEqual(['home']);
    expect((alerts[0]!.data as { pct: number }).pct).toBeCloseTo((fairHome / 2 - 1) * 100, 9);
    expect(alerts[0]!.message).toBe('Home -0.5 fair 2.000 → 1.853 (-7.4% since the open, EM) on line 10');
  });

  // Must-show worked examples, each failing on the rule before issue 22.
  it.each<[string, Array<[number, Prices | null]>, number[]]>([
    // A price rising 12%: the longshot home 8.0 -> 8.96 in a 1X2 market (fair 8.111 -> 8.965, +10.5%), draw and away
    // shortening 1.3% each: nothing dropped by the rule, so no drop alert (the old rule fired on |move|).
    [
      'a price rising 12%',
      [
        [0, { home: 8.0, draw: 4.5, away: 1.5 }],
        [5, { home: 8.96, draw: 4.5, away: 1.5 }],
      ],
      [],
    ],
    // A moneyline whose draw price is missing for a while, home and away standing still: the partial market is no
    // two-way market, so nothing fires (de-vigged as two-way, home's fair would "drop" from 2.59 to 1.58).
    [
      'a draw price missing while home/away stand still',
      [
        [0, { home: 2.5, draw: 3.3, away: 3.0 }],
        [5, { home: 2.5, away: 3.0 }],
        [6, { home: 2.5, away: 3.0 }],
        [7, { home: 2.5, draw: 3.3, away: 3.0 }],
      ],
      [],
    ],
    // A steam: home 2.2 -> 2.0 (first alert, -9%), then 10 minutes later 2.0 -> 1.85 (another 7.5%): a second alert.
    [
      'a second steam 10 minutes after a first drop alert',
      [
        [0, p(2.2)],
        [3, p(2.0)],
        [13, p(1.85)],
      ],
      [3, 13],
    ],
    // The same move is not news: after the alert at 2.0 a flicker 2.0 <-> 1.96 (2%) stays silent.
    [
      'a flicker after an alert',
      [
        [0, p(2.2)],
        [3, p(2.0)],
        [4, p(1.96)],
        [5, p(2.0)],
        [6, p(1.96)],
      ],
      [3],
    ],
    // A longshot's fair 21 -> 19.9 is 5.2% shorter but only +0.26 points of probability: no drop.
    [
      'a longshot tick',
      [
        [0, { home: 1.05, away: 21 }],
        [1, { home: 1.05, away: 19.9 }],
      ],
      [],
    ],
  ])('%s', (_name, series, minutes) => {
    expect(run(series, base).map(minuteOf)).toEqual(minutes);
  });

  it('a moneyline with its draw back is priced again, and a real move then alerts', () => {
    const alerts = run(
      [
        [0, { home: 2.5, draw: 3.3, away: 3.0 }],
        [5, { home: 2.5, away: 3.0 }],
        [7, { home: 2.5, draw: 3.3, away: 3.0 }],
        [8, { home: 2.2, draw: 3.5, away: 3.4 }],
      ],
      base,
    );
    expect(alerts.map((a) => [minuteOf(a), sideOf(a)])).toEqual([[8, 'home']]);
  });

  it('within the window no price before the last alert counts', () => {
    // Alert at minute 1 (home 2.0 -> 1.88). At minute 3 home is 1.87: 6.5% below the window's first price (2.0, from
    // before the alert) but only 0.5% below the alerted 1.88: the same move, not a new one.
    const alerts = run(
      [
        [0, p(2)],
        [1, p(1.88)],
        [2, p(1.9)],
        [3, p(1.87)],
      ],
      { ...base, dropWindowMinutes: 15 },
    );
    expect(alerts.map((a) => [minuteOf(a), (a.data as { basis: string }).basis])).toEqual([[1, 'open']]);
    // Then 5.3% below the alerted price: the steam goes on, and says so.
    expect(
      run(
        [
          [0, p(2)],
          [1, p(1.88)],
          [3, p(1.87)],
          [6, p(1.78)],
        ],
        base,
      ).map((a) => [minuteOf(a), (a.data as { basis: string }).basis]),
    ).toEqual([
      [1, 'open'],
      [6, 'alert'],
    ]);
  });

  it('a line ticking ten times a second keeps a bounded window and still sees a drop within it', () => {
    // 30 minutes flat at 2.0/2.0 ticking every 100 ms, then home slides to 1.8 over the next 5 minutes.
    const c = { ...base, dropPct: 8, dropWindowMinutes: 15 };
    const flatUntil = 30 * 60_000;
    const series: Array<{ at: number; prices: Prices }> = [];
    for (let at = 0; at <= flatUntil + 5 * 60_000; at += 100) {
      const home = at <= flatUntil ? 2 : 2 - (0.2 * (at - flatUntil)) / (5 * 60_000);
      series.push({ at, prices: { home, away: 1 / (1 - 1 / home) } });
    }
    let state: LineState | undefined;
    const alerts: NewAlert[] = [];
    let longest = 0;
    for (const { at, prices } of series) {
      const r = stepLine(state, { eventId: 1, lineId: 10, label: 'line 10', at, prices }, c);
      state = r.state;
      alerts.push(...r.alerts);
      longest = Math.max(longest, r.state.sides.home!.ats.length);
    }
    expect(longest).toBeLessThanOrEqual(WINDOW_SLICES + 2);
    // The first tick where home's fair price has shortened 8% from 2.0 (the away side drifts: not a drop).
    const first = series.find(({ prices }) => fairPrices(prices, 'EM')!.home! <= 2 * 0.92)!;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.data).toMatchObject({ at: first.at, side: 'home' });
  });
});
