import { describe, expect, it } from 'vitest';
import type { Prices } from '../../shared/api';
import { fairPrices } from '../../shared/bets';
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
      [[0, { home: 2.1, away: 1.8 }], [1, { home: 1.99, away: 1.9 }], [2, { home: 2.01, away: 1.88 }], [3, { home: 1.98, away: 1.9 }], [4, { home: 2.03, away: 1.86 }], [5, { home: 1.97, away: 1.9 }]],
      c,
    );
    expect(alerts.map((a) => [a.kind, (a.data as { direction: string }).direction])).toEqual([['price', 'down']]);
  });
  it('fires again once the price is back past the band, and never on the first sight', () => {
    const alerts = run([[0, { home: 1.9, away: 2 }], [1, { home: 2.05, away: 1.8 }], [2, { home: 1.95, away: 1.9 }], [3, { home: 1.95, away: 1.9 }]], c);
    // 1.9 -> 2.05 crosses up (first crossing needs no band); 2.05 -> 1.95 is past 2.0 x (1 - 2%) = 1.96: down.
    expect(alerts.map((a) => (a.data as { direction: string }).direction)).toEqual(['up', 'down']);
  });
  it('ignores an offline line and a side it does not price', () => {
    expect(run([[0, { home: 2.1, away: 1.8 }], [1, null], [2, { over: 1.5, under: 2.6 }]], c)).toEqual([]);
  });
});

describe('drop rule', () => {
  it('fires once per line when a fair price moves N% since the open, and names the side that shortened and the move', () => {
    const open = { home: 2.0, away: 2.0 };
    const alerts = run([[0, open], [30, { home: 1.95, away: 2.05 }], [60, { home: 1.85, away: 2.17 }], [61, { home: 1.84, away: 2.19 }], [62, { home: 1.86, away: 2.16 }]], { ...base, dropWindowMinutes: 5 });
    // minute 30 is -2.4% (no alert); minute 60 takes home fair (EM) to 1.853, -7.4%; away moves the other way.
    const fairHome = fairPrices({ home: 1.85, away: 2.17 }, 'EM')!.home!;
    // One alert for the line, naming the side that shortened (away drifted by more, but a drift is not the drop).
    expect(alerts.map((a) => (a.data as { side: string }).side)).toEqual(['home']);
    const home = alerts[0]!;
    expect((home.data as { pct: number }).pct).toBeCloseTo((fairHome / 2 - 1) * 100, 9);
    expect(home.message).toMatch(/^home fair 2\.000 → 1\.853 \(-7\.4% since the open, EM\) on line 10$/);
  });
  it('fires on a move within the window even when the price is back near its open', () => {
    const c = { ...base, dropPct: 8, dropWindowMinutes: 5 };
    const up = { home: 2.2, away: 1.82 };
    // Minute 10: +10% / -9% since the open, both sides fire; minute 44 is back at the open, a 9% move within five
    // minutes, but the sides have not calmed yet (a fired drop re-arms once both moves are inside the rule less the
    // band); by minute 60 they have, and the move at 62 is one within the window (the open is now 2.0 again too, so
    // the bigger of the two names the basis).
    const alerts = run([[0, { home: 2, away: 2 }], [10, up], [40, up], [44, { home: 2.0, away: 2.0 }], [60, { home: 2.0, away: 2.0 }], [62, { home: 1.8, away: 2.25 }]], c);
    expect(alerts.map((a) => [(a.data as { side: string }).side, Math.round((a.data as { pct: number }).pct)])).toEqual([
      ['away', -9], ['home', -10],
    ]);
  });
  it('a flicker around the rule alerts once: it re-arms only below the rule less the band', () => {
    const p = (h: number) => ({ home: h, away: 1 / (1 - 1 / h) });
    const alerts = run([[0, p(2)], [1, p(1.89)], [2, p(1.91)], [3, p(1.89)], [4, p(1.92)], [5, p(1.88)]], { ...base, dropWindowMinutes: 1 });
    expect(alerts.filter((a) => (a.data as { side: string }).side === 'home')).toHaveLength(1);
  });
  it('a line swinging about the rule alerts once per window, and again within it only on a further move by the rule', () => {
    const p = (h: number) => ({ home: h, away: 1 / (1 - 1 / h) });
    const c = { ...base, dropPct: 5, hysteresisPct: 1, dropWindowMinutes: 15 };
    // Home swings between -6% and -2% of its 2.0 open every minute: each swing re-arms the hysteresis.
    const swings: Array<[number, Prices]> = [[0, p(2)]];
    for (let minute = 1; minute <= 14; minute++) swings.push([minute, p(minute % 2 ? 1.88 : 1.96)]);
    expect(run(swings, c)).toHaveLength(1);
    // The same swings, then a further 5% below the alerted price within the window: a second alert for that move;
    // after the window a swing past the rule alerts again.
    const alerts = run([...swings, [14.5, p(1.78)], [15, p(1.96)], [31, p(1.88)]], c);
    expect(alerts.map((a) => (a.data as { at: number }).at / 60_000)).toEqual([1, 14.5, 31]);
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
    // The first tick where a side's fair price is 8% off its 2.0 (the away side drifts there first).
    const first = series.find(({ prices }) => Object.values(fairPrices(prices, 'EM')!).some((f) => Math.abs(f / 2 - 1) >= 0.08))!;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.data).toMatchObject({ at: first.at, side: 'away' });
  });
});
