// Worked examples of the trading desk's rules (docs/trading.md): each row is a case a trader can check by hand.
import { describe, expect, it } from 'vitest';
import type { BetResult, PriceSide } from './domain';
import { devig } from './devig';
import { periodNames } from './periods';
import {
  betPnl,
  betTotals,
  clvByModel,
  fairPrices,
  formatMoney,
  isDrop,
  isPartial,
  isPrice,
  isQuarterLine,
  isStaleClose,
  lineWords,
  pricedOnly,
  roundMoney,
  settleBet,
  settledLineText,
  settledLineWords,
  settleFromScore,
  settleSide,
  settlementStatusNote,
  sideLine,
  sideWords,
  STALE_CLOSE_MS,
} from './trading';

const settled = (market: string, line: number | null, h: string, d: string, a: string, period = 0) => ({
  period,
  market,
  line,
  outcome_home: h,
  outcome_draw: d,
  outcome_away: a,
});

describe('sides in words', () => {
  it.each<[string, number | null, PriceSide, 'home' | 'away' | null, string]>([
    // A spread's line is the home handicap; the away side is its negation.
    ['spread', -0.5, 'home', null, 'Home -0.5'],
    ['spread', -0.5, 'away', null, 'Away +0.5'],
    ['spread', -1.25, 'home', null, 'Home -1.25'],
    ['spread', 1.25, 'away', null, 'Away -1.25'],
    ['spread', 0, 'away', null, 'Away 0'],
    // Totals carry no sign.
    ['totals', 2.5, 'over', null, 'Over 2.5'],
    ['totals', 2.25, 'under', null, 'Under 2.25'],
    // A team total names its team (the market's side).
    ['team_total', 1.5, 'over', 'home', 'Home team total Over 1.5'],
    ['team_total', 0.5, 'under', 'away', 'Away team total Under 0.5'],
    ['team_total', 1.5, 'over', null, 'Team total Over 1.5'],
    ['moneyline', null, 'draw', null, 'Draw'],
  ])('%s %s %s (team %s) reads "%s"', (market, line, side, team, words) => {
    expect(sideWords(market, line, side, { team })).toBe(words);
  });

  it('a whole line in words', () => {
    expect(lineWords('spread', -1.5)).toBe('Home -1.5 / Away +1.5');
    expect(lineWords('totals', 2.5)).toBe('Total 2.5');
    expect(lineWords('team_total', 1.5, { team: 'away' })).toBe('Away team total 1.5');
    expect(lineWords('moneyline', null)).toBe('Moneyline');
  });

  it("a side's own handicap", () => {
    expect(sideLine('spread', -0.75, 'away')).toBe(0.75);
    expect(sideLine('spread', -0.75, 'home')).toBe(-0.75);
    expect(sideLine('totals', 2.5, 'under')).toBe(2.5);
    expect(sideLine('moneyline', null, 'home')).toBeNull();
  });
});

describe('settled lines in words', () => {
  it.each<[ReturnType<typeof settled>, { home: number; away: number } | null, 'home' | 'away' | null, string]>([
    // Must-show: home -0.5 settled 1-1 is the away side's +0.5 winning.
    [settled('spread', -0.5, 'loss', 'loss', 'win'), { home: 1, away: 1 }, null, 'Away +0.5: won'],
    [settled('spread', -1.5, 'win', 'loss', 'loss'), { home: 3, away: 1 }, null, 'Home -1.5: won'],
    [settled('totals', 2.5, 'loss', 'loss', 'win'), { home: 1, away: 1 }, null, 'Under 2.5: won'],
    [settled('moneyline', null, 'loss', 'win', 'loss'), { home: 1, away: 1 }, null, 'Moneyline Draw: won'],
    [settled('spread', -1, 'push', 'loss', 'push'), { home: 2, away: 1 }, null, 'Home -1 / Away +1: push'],
    [settled('team_total', 1.5, 'win', 'loss', 'loss'), { home: 2, away: 0 }, 'home', 'Home team total Over 1.5: won'],
    // Quarter lines settle from the final score, whatever one word the service gave.
    [settled('spread', -0.75, 'win', 'loss', 'loss'), { home: 2, away: 1 }, null, 'Home -0.75: half won'],
    [settled('spread', -0.25, 'loss', 'loss', 'win'), { home: 1, away: 1 }, null, 'Away +0.25: half won'],
    [settled('totals', 2.75, 'win', 'loss', 'loss'), { home: 2, away: 1 }, null, 'Over 2.75: half won'],
    // A word we do not know is never guessed.
    [
      settled('spread', -0.5, 'void', 'loss', 'void'),
      { home: 0, away: 0 },
      null,
      'Home -0.5 / Away +0.5: settle by hand (the service\'s word for Home is "void", which the app does not know)',
    ],
  ])('%j at %j reads its sides in words', (line, score, team, words) => {
    expect(settledLineWords(line, { score, team })).toBe(words);
  });

  it('a period other than the full match is named; tennis games by the game rule only', () => {
    const names = periodNames([
      { period: 1, description: '1st Set' },
      { period: 6, description: '6th Set' },
    ]);
    expect(settledLineText(settled('totals', 20.5, 'win', 'loss', 'loss', 1), { sport: 'Tennis', names })).toBe(
      'Over 20.5 (1st Set): won',
    );
    expect(settledLineText(settled('spread', -1.5, 'win', 'loss', 'loss', 6), { sport: 'Table Tennis', names })).toBe(
      'Home -1.5 (6th Set): won',
    );
    expect(settledLineText(settled('spread', -1.5, 'win', 'loss', 'loss', 6), { sport: 'Tennis', names })).toBe(
      'Home -1.5 (Set 1 Game 1): won',
    );
  });

  it('a settlement not ended says its status', () => {
    expect(settlementStatusNote('ended')).toBeNull();
    expect(settlementStatusNote('abandoned')).toBe('Abandoned');
    expect(settlementStatusNote('')).toBe('Status not given');
  });
});

describe('settling bets', () => {
  const stake = 100;
  // [market, line (service value), side, price, score, service words (home/draw/away), team, result, P/L]
  it.each<
    [
      string,
      number,
      PriceSide,
      number,
      [number, number],
      [string, string, string],
      'home' | 'away' | null,
      BetResult,
      number,
    ]
  >([
    // Must-show: home -0.25 at 1.90 for 100 at 1-1: half on 0 pushes, half on -0.5 loses.
    ['spread', -0.25, 'home', 1.9, [1, 1], ['loss', 'loss', 'win'], null, 'half_loss', -50],
    // Must-show: home -0.75 at 2.00 for 100 winning by one: half on -0.5 wins (+50), half on -1 pushes.
    ['spread', -0.75, 'home', 2.0, [2, 1], ['win', 'loss', 'loss'], null, 'half_win', 50],
    ['spread', -0.75, 'away', 1.95, [2, 1], ['win', 'loss', 'loss'], null, 'half_loss', -50],
    ['spread', -0.75, 'home', 2.0, [3, 1], ['win', 'loss', 'loss'], null, 'win', 100],
    ['spread', 0.25, 'home', 1.8, [1, 1], ['win', 'loss', 'loss'], null, 'half_win', 40],
    ['spread', -1.25, 'home', 2.1, [2, 1], ['loss', 'loss', 'win'], null, 'half_loss', -50],
    ['totals', 2.25, 'over', 1.9, [1, 1], ['loss', 'loss', 'win'], null, 'half_loss', -50],
    ['totals', 2.75, 'over', 2.0, [2, 1], ['win', 'loss', 'loss'], null, 'half_win', 50],
    ['totals', 2.75, 'under', 1.85, [2, 1], ['win', 'loss', 'loss'], null, 'half_loss', -50],
    ['team_total', 1.25, 'over', 2.2, [1, 3], ['loss', 'loss', 'win'], 'home', 'half_loss', -50],
    ['team_total', 1.25, 'over', 2.2, [1, 3], ['win', 'loss', 'loss'], 'away', 'win', 120],
    // Whole and half lines take the service's word.
    ['spread', -0.5, 'away', 2.4, [1, 1], ['loss', 'loss', 'win'], null, 'win', 140],
    ['spread', -1, 'home', 1.9, [2, 1], ['push', 'loss', 'push'], null, 'push', 0],
    ['totals', 2.5, 'under', 1.8, [1, 1], ['loss', 'loss', 'win'], null, 'win', 80],
    ['moneyline', 0, 'draw', 3.4, [1, 1], ['loss', 'win', 'loss'], null, 'win', 240],
  ])(
    '%s %s %s at %s, score %j: %s → %s, P/L %s',
    (market, line, side, price, [h, a], [wh, wd, wa], team, result, pnl) => {
      const l = market === 'moneyline' ? null : line;
      const s = settleBet({ market, line: l, side }, settled(market, l, wh, wd, wa), { home: h, away: a }, team);
      expect(s).toMatchObject({ kind: 'settled', result });
      expect(betPnl(result, price, stake)).toBe(pnl);
    },
  );

  it("a line that moved under the same id is a mismatch, never the other line's result", () => {
    // A moneyline has no line value: one upstream's 0 against another's null is the same line.
    expect(
      settleBet({ market: 'moneyline', line: 0, side: 'draw' }, settled('moneyline', null, 'loss', 'win', 'loss'), {
        home: 1,
        away: 1,
      }),
    ).toMatchObject({ kind: 'settled', result: 'win' });
    expect(
      settleBet({ market: 'spread', line: -0.5, side: 'home' }, settled('spread', -1, 'win', 'loss', 'loss'), {
        home: 2,
        away: 0,
      }),
    ).toEqual({
      kind: 'mismatch',
      reason: "the settled line is -1, the bet's is -0.5",
    });
  });

  it('what the app cannot settle goes to the trader, with the reason', () => {
    expect(settleSide(settled('spread', -0.5, 'half-win', 'loss', 'loss'), 'home', { home: 1, away: 0 })).toEqual({
      kind: 'by_hand',
      reason: 'the service\'s word for Home is "half-win", which the app does not know',
    });
    expect(settleSide(settled('spread', -0.25, 'win', 'loss', 'loss', 1), 'home', { home: 1, away: 0 })).toMatchObject({
      kind: 'by_hand',
    });
    expect(
      settleSide(settled('team_total', 1.25, 'win', 'loss', 'loss'), 'over', { home: 1, away: 0 }, null),
    ).toMatchObject({ kind: 'by_hand' });
    expect(settleSide(settled('spread', -0.75, 'win', 'loss', 'loss'), 'home', null)).toMatchObject({
      kind: 'by_hand',
    });
  });

  it('quarter lines are those whose value times four is odd', () => {
    expect([-0.25, 0.75, 2.25, -1.75].map(isQuarterLine)).toEqual([true, true, true, true]);
    expect([0, -0.5, 1, 2.5, null].map(isQuarterLine)).toEqual([false, false, false, false, false]);
    expect(settleFromScore('moneyline', 0, 'home', { home: 1, away: 0 })).toBeNull();
  });
});

describe('money', () => {
  it.each<[number, number]>([
    [1.005, 1.01],
    [-2.675, -2.68],
    [0.125, 0.13],
    [-0.125, -0.13],
    [33.333333, 33.33],
  ])('rounds %s to the cent, halves away from zero: %s', (n, r) => expect(roundMoney(n)).toBe(r));

  it("formats stakes and P/L with two decimals and the trader's unit", () => {
    expect(formatMoney(1234.5, 'EUR')).toBe('1,234.50 EUR');
    expect(formatMoney(-50, 'u', { sign: true })).toBe('-50.00 u');
    expect(formatMoney(40, '', { sign: true })).toBe('+40.00');
    expect(formatMoney(0, '')).toBe('0.00');
  });

  it('a half-stake P/L and the totals use the same rounding', () => {
    // 33.33 x (1.915 - 1) / 2 = 15.248475 -> 15.25
    expect(betPnl('half_win', 1.915, 33.33)).toBe(15.25);
    const t = betTotals(
      [
        { stake: 100, pnl: -50, clvByModel: null },
        { stake: 100, pnl: 50, clvByModel: { LOG: 4, EM: 4, MPTO: null, SHIN: 4, OR: 4 } },
        { stake: 10.005, pnl: null, clvByModel: { LOG: 2, EM: 2, MPTO: 2, SHIN: 2, OR: 2 } },
      ],
      'MPTO',
    );
    expect(t).toEqual({ count: 3, stake: 210.01, averageClv: 2, pnl: 0, settledStake: 200, roi: 0 });
  });
});

describe('fair prices, partial markets and CLV', () => {
  it('a moneyline that has had a draw and lacks it now has no fair price', () => {
    expect(fairPrices({ home: 2.1, away: 3.6 }, 'EM', ['home', 'draw', 'away'])).toBeNull();
    expect(fairPrices({ home: 2.1, draw: 3.3, away: 3.6 }, 'EM', ['home', 'draw', 'away'])).not.toBeNull();
  });

  it('a side at or below 1.0 is unpriced', () => {
    expect(fairPrices({ home: 1.0, away: 12 }, 'EM')).toBeNull();
  });

  it('MPTO cannot price an extreme longshot: n/a for that model, the others still price it', () => {
    // 1/1.02 + 1/30 + 1/500 = 1.0157: MPTO takes 0.0157 / 3 = 0.0052 from each side, more than the 500-shot's 0.002.
    const odds = { home: 1.02, draw: 30, away: 500 };
    expect(fairPrices(odds, 'MPTO')).toBeNull();
    expect(fairPrices(odds, 'EM')).not.toBeNull();
    const clv = clvByModel(520, 'away', odds)!;
    expect(clv.MPTO).toBeNull();
    expect(clv.EM).toBeCloseTo((520 / devig([1.02, 30, 500], 'EM').fairOdds[2]! - 1) * 100, 9);
  });

  it('must-show: away at 2.40 against a close of 2.05 beats it under every model', () => {
    const close = { home: 1.85, away: 2.05 };
    const clv = clvByModel(2.4, 'away', close)!;
    for (const v of Object.values(clv)) expect(v!).toBeGreaterThan(0);
    // EM: fair away = 1 / ((1/2.05) / (1/1.85 + 1/2.05)) = 2.05 x 1.029... ; 2.40 / that - 1 = +13.7%
    expect(clv.EM).toBeCloseTo((2.4 / (1 / (1 / 2.05 / (1 / 1.85 + 1 / 2.05))) - 1) * 100, 9);
  });
});

describe('the close and drops', () => {
  it('a close last confirmed long before kick-off, or a line gone from the book, is stale', () => {
    const kickoff = 1_000_000_000;
    expect(isStaleClose({ closedAt: kickoff, lastAt: kickoff, closeReason: 'started' })).toBe(false);
    expect(isStaleClose({ closedAt: kickoff, lastAt: kickoff - STALE_CLOSE_MS + 1, closeReason: 'kickoff' })).toBe(
      false,
    );
    expect(isStaleClose({ closedAt: kickoff, lastAt: kickoff - STALE_CLOSE_MS, closeReason: 'started' })).toBe(true);
    expect(isStaleClose({ closedAt: kickoff, lastAt: kickoff, closeReason: 'gone' })).toBe(true);
    expect(isStaleClose({ closedAt: null, lastAt: 0, closeReason: null })).toBe(false);
  });

  it.each<[number, number, boolean, string]>([
    [2.2, 2.0, true, 'a 9.1% shortening, +4.5 points of probability'],
    [2.0, 2.24, false, 'a 12% drift is never a drop'],
    [1.1, 1.04, true, 'a favourite shortening 5.5%: +5.2 points, a real move'],
    [21, 19.9, false, 'a longshot shortening 5.2%: only +0.26 points of probability'],
    [3.0, 2.86, false, 'a 4.7% shortening: under the rule'],
  ])('%s → %s: drop %s (%s)', (from, to, drop) => {
    expect(isDrop(from, to, { dropPct: 5, minProbPts: 1 })).toBe(drop);
  });
});

// Issue 35: the six classes where the app misread a trader's money or time, one worked example each (at least).
describe('void matches: the settlement status is read (issue 35, class 1)', () => {
  it('home -0.25 at 1.90 for 100 on an abandoned 0-0 the service pushes is void, 0 (not "half lost, -50")', () => {
    const l = settled('spread', -0.25, 'push', 'push', 'push');
    const s = settleBet({ market: 'spread', line: -0.25, side: 'home' }, l, { home: 0, away: 0 }, null, 'abandoned');
    expect(s).toEqual({ kind: 'settled', result: 'void', fromScore: false });
    expect(betPnl('void', 1.9, 100)).toBe(0);
  });

  it('under 2.75 on a cancelled 0-0 is void, 0 (not "won, +90")', () => {
    const l = settled('totals', 2.75, 'push', 'push', 'push');
    expect(settleSide(l, 'under', { home: 0, away: 0 }, null, 'cancelled')).toMatchObject({
      kind: 'settled',
      result: 'void',
    });
    expect(settleSide(l, 'over', { home: 0, away: 0 }, null, 'Cancelled')).toMatchObject({
      kind: 'settled',
      result: 'void',
    });
  });

  it('the settlement words of a void match read void, never a result from the score', () => {
    const l = settled('spread', -0.25, 'push', 'push', 'push');
    expect(settledLineWords(l, { score: { home: 0, away: 0 }, status: 'abandoned' })).toBe(
      'Home -0.25 / Away +0.25: void',
    );
    expect(
      settledLineText(settled('totals', 2.75, 'push', 'push', 'push'), {
        score: { home: 0, away: 0 },
        status: 'cancelled',
      }),
    ).toBe('Total 2.75: void');
    // A whole line of an ended match that lands on its number is a push, as before.
    expect(settledLineWords(settled('spread', -1, 'push', 'loss', 'push'), { score: { home: 2, away: 1 } })).toBe(
      'Home -1 / Away +1: push',
    );
  });

  it('a result already decided when the match was abandoned stands: the service says won, the bet won', () => {
    expect(
      settleSide(settled('totals', 0.5, 'win', 'loss', 'loss'), 'over', { home: 1, away: 0 }, null, 'abandoned'),
    ).toMatchObject({ kind: 'settled', result: 'win' });
    // A quarter line decided before the abandonment: the score splits the service's word.
    expect(
      settleSide(settled('totals', 0.75, 'win', 'loss', 'loss'), 'over', { home: 1, away: 0 }, null, 'abandoned'),
    ).toMatchObject({ kind: 'settled', result: 'half_win' });
  });

  it("the score only splits the service's win or loss: a disagreement is settled by hand, with the reason", () => {
    // Home -0.25 at 1-1 is half lost by the score, but the service says win.
    expect(settleSide(settled('spread', -0.25, 'win', 'loss', 'loss'), 'home', { home: 1, away: 1 })).toEqual({
      kind: 'by_hand',
      reason: 'the service says Home win, the score 1-1 says half lost',
    });
    // An ended match whose quarter line the service pushes: the score cannot push a quarter line.
    expect(settleSide(settled('totals', 2.75, 'push', 'push', 'push'), 'under', { home: 0, away: 0 })).toMatchObject({
      kind: 'by_hand',
    });
  });
});

describe('one guard for an unpriced side (issue 35, class 2)', () => {
  it('a close {home 2.5, draw 1.0, away 2.9} is no two-way line: no fair price, never CLV +45.0%', () => {
    const close = { home: 2.5, draw: 1.0, away: 2.9 };
    expect(fairPrices(close, 'EM')).toBeNull();
    expect(clvByModel(2.7, 'home', close)).toBeNull();
    // The three-way close (the open, 2.5/3.4/2.9) gives +3.95% under EM.
    expect(clvByModel(2.7, 'home', { home: 2.5, draw: 3.4, away: 2.9 })!.EM).toBeCloseTo(3.95, 2);
  });

  it('a price of 1.0 or less is unpriced wherever it is judged', () => {
    expect(isPrice(1)).toBe(false);
    expect(isPrice(0.5)).toBe(false);
    expect(isPrice(1.001)).toBe(true);
    expect(pricedOnly({ home: 2.5, draw: 1, away: 2.9 })).toEqual({ home: 2.5, away: 2.9 });
    expect(isPartial({ home: 2.5, draw: 1, away: 2.9 }, [])).toBe(true);
  });
});
