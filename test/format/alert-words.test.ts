// The alert list shows an alert's prices in the trader's odds format: the words the core's real price rules write
// (in decimal, as notifications keep them), rewritten from the alert's data.
import { describe, expect, it } from 'vitest';
import type { Prices } from '../../src/shared/api';
import type { NewAlert } from '../../src/shared/domain';
import { alertWordsIn } from '../../src/shared/formats';
import { stepLine, type LineState, type PriceRuleConfig } from '../../src/core/monitor/priceRules';
import { createDropEpisodes, type LineDrop } from '../../src/core/monitor/dropEpisodes';

function run(
  series: Array<[number, Prices]>,
  c: PriceRuleConfig,
  market?: { market: string; line: number },
): NewAlert[] {
  let state: LineState | undefined;
  const out: NewAlert[] = [];
  for (const [minute, prices] of series) {
    const r = stepLine(state, { eventId: 1, lineId: 10, label: 'line 10', at: minute * 60_000, prices, ...market }, c);
    state = r.state;
    out.push(...r.alerts);
  }
  return out;
}

describe('alert words in the trader’s odds format', () => {
  it('a drop: the fair prices from and to', () => {
    const c: PriceRuleConfig = { dropPct: 5, dropWindowMinutes: 5, hysteresisPct: 2, model: 'EM', thresholds: [] };
    const [drop] = run(
      [
        [0, { home: 2.0, away: 2.0 }],
        [30, { home: 1.95, away: 2.05 }],
        [60, { home: 1.85, away: 2.17 }],
      ],
      c,
      { market: 'spread', line: -0.5 },
    );
    expect(drop!.message).toBe('Home -0.5 fair 2.000 → 1.853 (-7.4% since the open, EM) on line 10');
    expect(alertWordsIn(drop!, 'decimal')).toBe(drop!.message);
    // Fair 2.000 is +100; 1.853 (1.85254...) is -100/0.85254 = -117.3 -> -117. The move stays a percentage.
    expect(alertWordsIn(drop!, 'american')).toBe('Home -0.5 fair +100 → -117 (-7.4% since the open, EM) on line 10');
    // Hong Kong d - 1: 1.000 → 0.853; fractional: evens → 29/34 (0.853 is 0.02 from 5/6: no ladder fraction, exact).
    expect(alertWordsIn(drop!, 'hongkong')).toBe('Home -0.5 fair 1.000 → 0.853 (-7.4% since the open, EM) on line 10');
    expect(alertWordsIn(drop!, 'fractional')).toBe('Home -0.5 fair 1/1 → 29/34 (-7.4% since the open, EM) on line 10');
  });

  it('a threshold: the price and the line crossed, three decimals in decimal too, signs flipping at evens', () => {
    const c: PriceRuleConfig = {
      dropPct: 0,
      dropWindowMinutes: 15,
      hysteresisPct: 2,
      model: 'EM',
      thresholds: [{ lineId: 10, side: 'home', price: 2.0 }],
    };
    const [crossed] = run(
      [
        [0, { home: 2.1, away: 1.8 }],
        [1, { home: 1.99, away: 1.9 }],
      ],
      c,
    );
    expect(crossed!.message).toBe('home price 1.99 crossed 2 ↓ on line 10');
    expect(alertWordsIn(crossed!, 'decimal')).toBe('home price 1.990 crossed 2.000 ↓ on line 10');
    // 1.99 -> -100/0.99 = -101; 2.00 -> +100. Malay: 1.99 -> +0.990; 2.00 -> -1.000.
    expect(alertWordsIn(crossed!, 'american')).toBe('home price -101 crossed +100 ↓ on line 10');
    expect(alertWordsIn(crossed!, 'malay')).toBe('home price +0.990 crossed -1.000 ↓ on line 10');
  });

  it('a drop episode: every line it names, each with its own prices', () => {
    const eps = createDropEpisodes();
    const line = (lineId: number, words: string, from: number, to: number): LineDrop => ({
      lineId,
      side: 'home',
      words,
      from,
      to,
      pct: ((to - from) / from) * 100,
      basis: 'open',
      model: 'EM',
      message: '',
    });
    eps.add(1, 'A v B', line(10, 'Home -0.5 · Match', 2.0, 1.853), 0);
    eps.add(1, 'A v B', line(11, 'Over 2.5 · Match', 2.5, 2.0), 0);
    const [episode] = eps.take(0).opened;
    const alert = episode!.alert;
    expect(alert.message).toBe(
      '2 lines dropped on A v B (EM): Over 2.5 · Match fair 2.500 → 2.000 (-20.0%); Home -0.5 · Match fair 2.000 → 1.853 (-7.4%)',
    );
    expect(alertWordsIn(alert, 'decimal')).toBe(alert.message);
    expect(alertWordsIn(alert, 'american')).toBe(
      '2 lines dropped on A v B (EM): Over 2.5 · Match fair +150 → +100 (-20.0%); Home -0.5 · Match fair +100 → -117 (-7.4%)',
    );
  });

  it('leaves other words as they are', () => {
    const maxWin = {
      kind: 'max_win',
      message: 'Max stake 1,000 → 170 (-83.0%) on line 10',
      data: { from: 1000, to: 170 },
    };
    expect(alertWordsIn(maxWin, 'american')).toBe(maxWin.message);
  });
});

describe('a fractional ladder never hides a move (issue 35, class 6)', () => {
  it('"price 10/11 crossed 10/11" (1.95 against 1.91) reads 19/20 crossed 10/11', () => {
    const a = {
      kind: 'price',
      message: 'Home price 1.95 crossed 1.91 ↑ on A v B',
      data: { price: 1.95, threshold: 1.91 },
    };
    expect(alertWordsIn(a, 'fractional')).toBe('Home price 19/20 crossed 10/11 ↑ on A v B');
  });

  it('"fair 40/1 → 40/1" for 46.0 → 41.5 reads 45/1 → 81/2', () => {
    const a = {
      kind: 'drop',
      message: 'Away fair 46.000 → 41.500 (-9.8% since the open, EM) on A v B',
      data: { from: 46, to: 41.5 },
    };
    expect(alertWordsIn(a, 'fractional')).toBe('Away fair 45/1 → 81/2 (-9.8% since the open, EM) on A v B');
  });

  it('two prices that read alike in the format carry their decimals', () => {
    const a = {
      kind: 'drop',
      message: 'Away fair 2001.500 → 1901.000 (-5.0% since the open, EM) on A v B',
      data: { from: 2001.5, to: 1901 },
    };
    expect(alertWordsIn(a, 'malay')).toBe('Away fair -0.000500 → -0.000526 (-5.0% since the open, EM) on A v B');
    const b = {
      kind: 'price',
      message: 'Home price 1.913 crossed 1.905 ↓ on A v B',
      data: { price: 1.913, threshold: 1.905 },
    };
    expect(alertWordsIn(b, 'fractional')).toBe('Home price 10/11 (1.913) crossed 10/11 (1.905) ↓ on A v B');
  });
});
