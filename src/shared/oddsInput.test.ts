// Worked examples of a typed price in every odds format (docs/trading.md, "Typing a price"): what each records in
// decimal, what is refused and why, the words it reads back in, and the far-from-live rule at and past its edge.
import { describe, expect, it } from 'vitest';
import { formatOdds, ODDS_FORMATS, type OddsFormat } from './formats';
import {
  FAR_FROM_LIVE_RATIO,
  farFromLive,
  parseOddsInput,
  priceBoxText,
  priceInWords,
  TYPED_EXAMPLE,
} from './oddsInput';

const decimalOf = (text: string, format: OddsFormat) => {
  const r = parseOddsInput(text, format);
  if (!r.ok) throw new Error(`${text} (${format}): ${r.message}`);
  return r.decimal;
};
const refusal = (text: string, format: OddsFormat) => {
  const r = parseOddsInput(text, format);
  if (r.ok) throw new Error(`${text} (${format}) was read as ${r.decimal}`);
  return r.message;
};

describe('parseOddsInput', () => {
  it('reads the issue’s examples: +300 is 4.00, -150 is 1.6667, 5/2 is 3.50, HK 0.8 is 1.80, 25% is 4.00', () => {
    expect(decimalOf('+300', 'american')).toBe(4);
    expect(decimalOf('-150', 'american')).toBe(1.6667);
    expect(decimalOf('5/2', 'fractional')).toBe(3.5);
    expect(decimalOf('0.8', 'hongkong')).toBe(1.8);
    expect(decimalOf('25%', 'implied')).toBe(4);
  });

  it('decimal: as typed, a decimal comma allowed; at or below 1, a sign or words refused', () => {
    expect(decimalOf('2.5', 'decimal')).toBe(2.5);
    expect(decimalOf(' 1,8 ', 'decimal')).toBe(1.8);
    expect(refusal('1', 'decimal')).toBe('A decimal price is above 1 (1 is not).');
    expect(refusal('+300', 'decimal')).toBe('"+300" is not a decimal price: type it as 2.5.');
    expect(refusal('abc', 'decimal')).toMatch(/not a decimal price/);
    expect(refusal('', 'decimal')).toBe('Type a decimal price: type it as 2.5.');
    expect(refusal('', 'american')).toBe('Type an American price: type it as +150 or -150.');
  });

  it('American: a plus price is 1 + n/100, a minus price 1 + 100/n; evens either way; a number without a sign is a plus price', () => {
    expect(decimalOf('300', 'american')).toBe(4);
    expect(decimalOf('+100', 'american')).toBe(2);
    expect(decimalOf('-100', 'american')).toBe(2);
    expect(decimalOf('-110', 'american')).toBe(1.9091);
    expect(decimalOf('+29900', 'american')).toBe(300);
    expect(refusal('-50', 'american')).toBe(
      'An American price is +100 or more, or -100 or less (-50 is neither): type it as +150 or -150.',
    );
    expect(refusal('4.00x', 'american')).toMatch(/not an American price/);
    expect(parseOddsInput('300', 'american')).toEqual({ ok: true, decimal: 4, shown: '+300' });
  });

  it('fractional: 1 + winnings/stake; evens; a decimal or a zero part refused', () => {
    expect(decimalOf('1/2', 'fractional')).toBe(1.5);
    expect(decimalOf('10/11', 'fractional')).toBe(1.9091);
    expect(decimalOf('100/30', 'fractional')).toBe(4.3333);
    expect(decimalOf('evens', 'fractional')).toBe(2);
    expect(decimalOf(' 5 / 2 ', 'fractional')).toBe(3.5);
    expect(refusal('3.5', 'fractional')).toBe('"3.5" is not a fraction: type it as 3/2 (winnings / stake).');
    expect(refusal('0/2', 'fractional')).toMatch(/both parts above 0/);
    // Read back as typed, not as the nearest ladder fraction (7/3 would read 11/8 on the ladder).
    expect(parseOddsInput('7/3', 'fractional')).toEqual({ ok: true, decimal: 3.3333, shown: '7/3' });
  });

  it('Hong Kong: 1 + n; zero or a sign refused', () => {
    expect(decimalOf('1.5', 'hongkong')).toBe(2.5);
    expect(refusal('0', 'hongkong')).toMatch(/above 0/);
    expect(refusal('-0.5', 'hongkong')).toMatch(/not a Hong Kong price/);
  });

  it('Malay: a plus price up to 1 is 1 + n, a minus price 1 + 1/|n|; beyond ±1 or zero refused', () => {
    expect(decimalOf('0.5', 'malay')).toBe(1.5);
    expect(decimalOf('-0.5', 'malay')).toBe(3);
    expect(decimalOf('-0.667', 'malay')).toBe(2.4993);
    expect(decimalOf('-1', 'malay')).toBe(2);
    expect(refusal('1.5', 'malay')).toMatch(/between -1 and 1/);
    expect(refusal('0', 'malay')).toMatch(/not 0/);
  });

  it('Indonesian: a plus price is 1 + n, a minus price 1 + 1/|n|; between -1 and 1 refused', () => {
    expect(decimalOf('1.5', 'indonesian')).toBe(2.5);
    expect(decimalOf('-2', 'indonesian')).toBe(1.5);
    expect(refusal('0.5', 'indonesian')).toMatch(/1 or more, or -1 or less/);
  });

  it('implied: 100 / p, the % optional; 0% and 100% refused', () => {
    expect(decimalOf('40', 'implied')).toBe(2.5);
    expect(decimalOf('33.3%', 'implied')).toBe(3.003);
    expect(refusal('100%', 'implied')).toMatch(/below 100%/);
    expect(refusal('0', 'implied')).toMatch(/above 0%/);
  });

  it('refuses a price past the longest a bet is recorded at (decimal 1000) in every format', () => {
    expect(refusal('+100000', 'american')).toBe(
      '+100000 is decimal 1001.000, above 1000, the longest price a bet is recorded at.',
    );
    expect(refusal('0.05', 'implied')).toMatch(/above 1000/);
  });

  it('reads back every format’s own display of a price as that price (to the display’s rounding)', () => {
    // The display rounds: a ladder fraction to the nearest rung, a probability to 0.1%, American to a whole number.
    const tolerance: Partial<Record<OddsFormat, number>> = { fractional: 0.05, implied: 0.006 };
    for (const format of ODDS_FORMATS) {
      for (const d of [1.2, 1.952, 2, 2.5, 4, 11]) {
        const shown = formatOdds(d, format);
        expect(Math.abs(decimalOf(shown, format) / d - 1), `${shown} (${format})`).toBeLessThan(
          tolerance[format] ?? 0.003,
        );
      }
      expect(parseOddsInput(TYPED_EXAMPLE[format].split(' or ')[0]!, format).ok, format).toBe(true);
    }
  });
});

describe('the price box and the read-back', () => {
  it('fills the box with the live price in the trader’s format only', () => {
    expect(priceBoxText(2.5, 'decimal')).toBe('2.5');
    expect(priceBoxText(2.5, 'american')).toBe('+150');
    expect(priceBoxText(1.8, 'hongkong')).toBe('0.800');
  });

  it('reads the price back in words, with its decimal beside any other format', () => {
    expect(priceInWords('Draw', 4, 'american', '+300')).toBe('Draw at +300 (decimal 4.000)');
    expect(priceInWords('Over 2.5', 3.5, 'fractional', '5/2')).toBe('Over 2.5 at 5/2 (decimal 3.500)');
    expect(priceInWords('Home', 2, 'decimal')).toBe('Home at 2.000');
    expect(priceInWords('Home', 1.8, 'hongkong')).toBe('Home at 0.800 (decimal 1.800)');
    // A price alert's threshold: "crosses" instead of "at".
    expect(priceInWords('Home', 2.5, 'american', '+150', 'crosses')).toBe('Home crosses +150 (decimal 2.500)');
  });
});

describe('farFromLive', () => {
  it('asks when the typed price is more than 20% from the live one, either way, in decimal or in probability alike', () => {
    expect(FAR_FROM_LIVE_RATIO).toBe(1.2);
    // 30% off the live 2.00, either way.
    expect(farFromLive(2.6, 2)).toBe(true);
    expect(farFromLive(1.4, 2)).toBe(true);
    // At the edge (2.40 / 2.00 = 1.2; 2.00 / 1.6667 = 1.2) and inside it: kept without a question.
    expect(farFromLive(2.4, 2)).toBe(false);
    expect(farFromLive(1.6667, 2)).toBe(false);
    expect(farFromLive(2.1, 2)).toBe(false);
    // The American slip of the issue: +300 typed into a decimal box read 300.00 against a live 4.00.
    expect(farFromLive(300, 4)).toBe(true);
    // No live price (suspended, none on this side): nothing to compare with.
    expect(farFromLive(5, null)).toBe(false);
  });
});
