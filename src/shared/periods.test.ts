import { describe, expect, it } from 'vitest';
import { isSetSport, periodLabel, tennisGame, tennisGamePeriod } from './periods';

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
