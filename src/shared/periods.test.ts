import { describe, expect, it } from 'vitest';
import { isSetSport, labelPeriod, periodLabel, periodNames, tennisGame, tennisGamePeriod } from './periods';

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

  it("uses the service's description before any guess of ours, but for the full match: one word everywhere", () => {
    // The core's words (alerts, the bet log) have no service list at hand: "Full match" there and here alike.
    expect(labelPeriod('Soccer', 0, names)).toBe('Full match');
    expect(labelPeriod('Basketball', 1, names)).toBe('Opening Frame');
    expect(labelPeriod('Tennis', 1, names)).toBe('Opening Frame');
    // A blank description is no description: the guess stays.
    expect(labelPeriod('Soccer', 2, names)).toBe('2nd half');
    expect(labelPeriod('Basketball', 3)).toBe('Quarter 3');
  });

  it("shows the sport's own alternative of a description that names a period for several sports", () => {
    // One list for every sport (our simulator's, and any service's that words it so): "1st Half / 1st Set".
    const shared = periodNames([
      { period: 1, description: '1st Half / 1st Set' },
      { period: 3, description: '3rd Set / 3rd Quarter' },
      { period: 4, description: 'Q4 / 4th Set / Set Four' },
    ]);
    expect(labelPeriod('Table Tennis', 1, shared)).toBe('1st Set');
    expect(labelPeriod('Volleyball', 3, shared)).toBe('3rd Set');
    expect(labelPeriod('Tennis', 1, shared)).toBe('1st Set');
    expect(labelPeriod('Soccer', 1, shared)).toBe('1st Half');
    expect(labelPeriod('Basketball', 3, shared)).toBe('3rd Quarter');
    // No alternative of the sport's, or more than one, or a sport we cannot place: the description whole.
    expect(labelPeriod('Basketball', 1, shared)).toBe('1st Half / 1st Set');
    expect(labelPeriod('Volleyball', 4, shared)).toBe('Q4 / 4th Set / Set Four');
    expect(labelPeriod('Curling', 1, shared)).toBe('1st Half / 1st Set');
    // The CLI's export keeps what the service said.
    expect(labelPeriod('Table Tennis', 1, shared, { asTheServiceSays: true })).toBe('1st Half / 1st Set');
  });

  it('keeps the spec game rule for tennis game codes, whatever the shared list says of that code', () => {
    expect(labelPeriod('Tennis', 6, names)).toBe('Set 1 Game 1');
    expect(labelPeriod(true, tennisGamePeriod(2, 4), names)).toBe('Set 2 Game 4');
    expect(labelPeriod('Soccer', 6, names)).toBe('Overtime');
  });

  it('applies the tennis game rule to tennis only: other sports in sets read their codes from the service (issue 22)', () => {
    const list = periodNames([
      { period: 1, description: '1st Set' },
      { period: 6, description: '6th Set' },
      { period: 7, description: '7th Set' },
    ]);
    // Worked examples: table tennis best of seven reaches codes 6 and 7, which are its sets, not tennis games.
    expect(labelPeriod('Table Tennis', 6, list)).toBe('6th Set');
    expect(labelPeriod('Table Tennis', 7, list)).toBe('7th Set');
    expect(labelPeriod('Volleyball', 6, list)).toBe('6th Set');
    expect(labelPeriod('Tennis', 6, list)).toBe('Set 1 Game 1');
    expect(labelPeriod('Tennis', tennisGamePeriod(2, 1), list)).toBe('Set 2 Game 1');
    // Without the service's word a non-tennis sport in sets still never reads as tennis games.
    expect(labelPeriod('Table Tennis', 6)).toBe('Set 6');
    // A sport we never saw: the service's word first, the game rule only where it has none.
    expect(labelPeriod(true, 6, list)).toBe('6th Set');
    expect(labelPeriod(true, tennisGamePeriod(3, 2), list)).toBe('Set 3 Game 2');
  });
});
