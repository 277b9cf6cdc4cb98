import { describe, expect, it } from 'vitest';
import { isSetSport, labelPeriod, marketLabel, periodLabel, periodNames, settledLineWords, sideNames, tennisGame, tennisGamePeriod, type Outcome } from './periods';

describe('periodLabel', () => {
  it('labels the full match', () => {
    expect(periodLabel('Tennis', 0)).toBe('Full match');
    expect(periodLabel('Soccer', 0)).toBe('Full match');
    expect(periodLabel(false, 0)).toBe('Full match');
  });

  it('labels tennis sets 1..5', () => {
    for (let s = 1; s <= 5; s++) expect(periodLabel('Tennis', s)).toBe(`Set ${s}`);
  });

  it('labels tennis games by the period rule', () => {
    expect(periodLabel('Tennis', 6)).toBe('Set 1 Game 1');
    expect(periodLabel('tennis', 6 + 13 * 1 + 2)).toBe('Set 2 Game 3');
    expect(periodLabel(true, 6 + 13 * 2 + 12)).toBe('Set 3 Game 13');
    expect(periodLabel('Tennis', tennisGamePeriod(5, 7))).toBe('Set 5 Game 7');
  });

  it('round-trips the game rule', () => {
    for (let set = 1; set <= 5; set++)
      for (let game = 1; game <= 13; game++) expect(tennisGame(tennisGamePeriod(set, game))).toEqual({ set, game });
    expect(tennisGame(5)).toBeNull();
  });

  it('labels other sports', () => {
    expect(periodLabel('Volleyball', 3)).toBe('Set 3');
    expect(periodLabel('Soccer', 1)).toBe('1st half');
    expect(periodLabel('Soccer', 2)).toBe('2nd half');
    expect(periodLabel('Basketball', 4)).toBe('Quarter 4');
    expect(periodLabel('Baseball', 3)).toBe('3rd inning');
    expect(periodLabel('Curling', 2)).toBe('Period 2');
    expect(periodLabel(false, 2)).toBe('Period 2');
  });

  it('knows set sports', () => {
    expect(isSetSport(' Table Tennis ')).toBe(true);
    expect(isSetSport('Basketball')).toBe(false);
  });
});

describe('labels from the service', () => {
  const names = periodNames([
    { period: 0, description: 'Whole Game' },
    { period: 1, description: 'Opening Frame' },
    { period: 6, description: 'Overtime' },
    { period: 2, description: '   ' },
  ]);

  it("uses the service's description before any guess of ours", () => {
    expect(labelPeriod('Soccer', 0, names)).toBe('Whole Game');
    expect(labelPeriod('Basketball', 1, names)).toBe('Opening Frame');
    expect(labelPeriod('Tennis', 1, names)).toBe('Opening Frame');
    // A blank description is no description: the guess stays.
    expect(labelPeriod('Soccer', 2, names)).toBe('2nd half');
    expect(labelPeriod('Basketball', 3)).toBe('Quarter 3');
  });

  it('keeps the spec game rule for tennis game codes, whatever the shared list says of that code', () => {
    expect(labelPeriod('Tennis', 6, names)).toBe('Set 1 Game 1');
    expect(labelPeriod(true, tennisGamePeriod(2, 4), names)).toBe('Set 2 Game 4');
    expect(labelPeriod('Soccer', 6, names)).toBe('Overtime');
  });

  it('names markets and sides in words, never H/D/A', () => {
    expect(marketLabel('spread', -1.5)).toBe('Spread -1.5');
    expect(marketLabel('spread', 1.5)).toBe('Spread +1.5');
    expect(marketLabel('totals', 2.5)).toBe('Total 2.5');
    expect(marketLabel('team_total', 1.5)).toBe('Team total 1.5');
    expect(marketLabel('moneyline', null)).toBe('Moneyline');
    expect(marketLabel('asian corners', 9.5)).toBe('Asian corners 9.5');
    expect(sideNames('totals')).toEqual({ home: 'Over', draw: null, away: 'Under' });
    expect(sideNames('spread')).toEqual({ home: 'Home', draw: null, away: 'Away' });
  });

  it('puts a settled line in words', () => {
    const line = (market: string, l: number | null, h: Outcome, d: Outcome, a: Outcome, period = 0) => ({
      period, market, line: l, outcome_home: h, outcome_draw: d, outcome_away: a,
    });
    expect(settledLineWords(line('spread', -1.5, 'win', 'loss', 'loss'))).toBe('Spread -1.5 Home: won');
    expect(settledLineWords(line('totals', 2.5, 'loss', 'loss', 'win'))).toBe('Total 2.5 Under: won');
    expect(settledLineWords(line('moneyline', null, 'loss', 'win', 'loss'))).toBe('Moneyline Draw: won');
    expect(settledLineWords(line('spread', 0, 'push', 'loss', 'push'))).toBe('Spread 0: push');
    expect(settledLineWords(line('totals', 1.5, 'win', 'loss', 'loss', 1), 'Tennis', names)).toBe('Total 1.5 Over (Opening Frame): won');
    expect(settledLineWords(line('spread', -1, 'loss', 'loss', 'loss'))).toBe('Spread -1: Home lost, Away lost');
    for (const s of [line('moneyline', null, 'win', 'loss', 'loss'), line('totals', 3, 'loss', 'loss', 'win')]) {
      expect(settledLineWords(s)).not.toMatch(/\b[HDA]\b/);
    }
  });
});
